package account

import (
	"regexp"
	"strings"
)

// validName is the shape of an account's name.
var validName = regexp.MustCompile(`^[A-Za-z0-9_-]{3,24}$`)

// guestPrefix starts every guest's name and no one else's.
const guestPrefix = "guest-"

// CheckName says why name will not do as a registered account's name, or
// returns nil. Whether it is taken is the store's to say.
func CheckName(name string) error {
	if !validName.MatchString(name) || strings.HasPrefix(strings.ToLower(name), guestPrefix) {
		return errorf(CodeBadRequest, "a name is 3–24 characters A–Z a–z 0–9 _ - and does not start with guest-")
	}
	return nil
}

// CheckSignUp applies the rules of a new account's name and password
// (CheckName, CheckNewPassword), before anything is counted or stored.
func CheckSignUp(name, password string) error {
	if err := CheckName(name); err != nil {
		return err
	}
	return CheckNewPassword(name, password)
}
