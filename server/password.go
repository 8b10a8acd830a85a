package server

import (
	"bufio"
	"crypto/rand"
	"crypto/subtle"
	_ "embed"
	"encoding/base64"
	"fmt"
	"net/http"
	"strings"
	"sync"
	"unicode/utf8"

	"golang.org/x/crypto/argon2"
)

// PasswordCost is the argon2id work factor for new hashes. Stored hashes
// carry their own parameters, so changing it never locks anyone out.
type PasswordCost struct {
	MemoryKiB uint32
	Time      uint32
}

func (c PasswordCost) orDefault() PasswordCost {
	if c.MemoryKiB == 0 || c.Time == 0 {
		// OWASP's argon2id recommendation: 19 MiB, 2 passes, 1 lane.
		return PasswordCost{MemoryKiB: 19 * 1024, Time: 2}
	}
	return c
}

const (
	saltLen = 16
	keyLen  = 32
)

var b64 = base64.RawStdEncoding

// hashPassword returns the PHC-format argon2id hash of pw.
func hashPassword(pw string, c PasswordCost) (string, error) {
	c = c.orDefault()
	salt := make([]byte, saltLen)
	if _, err := rand.Read(salt); err != nil {
		return "", err
	}
	key := argon2.IDKey([]byte(pw), salt, c.Time, c.MemoryKiB, 1, keyLen)
	return fmt.Sprintf("$argon2id$v=%d$m=%d,t=%d,p=1$%s$%s", argon2.Version, c.MemoryKiB, c.Time, b64.EncodeToString(salt), b64.EncodeToString(key)), nil
}

// checkPassword reports whether pw matches the stored hash, in constant
// time with respect to the key.
func checkPassword(pw, hash string) bool {
	parts := strings.Split(hash, "$")
	if len(parts) != 6 || parts[1] != "argon2id" || parts[2] != fmt.Sprintf("v=%d", argon2.Version) {
		return false
	}
	var m, t uint32
	var p uint8
	if _, err := fmt.Sscanf(parts[3], "m=%d,t=%d,p=%d", &m, &t, &p); err != nil || p == 0 || m > 1<<22 || t > 16 {
		return false
	}
	salt, err := b64.DecodeString(parts[4])
	if err != nil {
		return false
	}
	want, err := b64.DecodeString(parts[5])
	if err != nil || len(want) == 0 {
		return false
	}
	got := argon2.IDKey([]byte(pw), salt, t, m, p, uint32(len(want)))
	return subtle.ConstantTimeCompare(got, want) == 1
}

// Password rules for new passwords, after NIST SP 800-63B: long enough, not
// on a list of common passwords, not a run of one or two characters or a
// sequence like abcdefgh, and not the account's name. No composition rules
// (a digit, a capital): they make passwords harder to remember, not to
// guess.
const (
	minPasswordRunes = 8
	maxPasswordBytes = 256
	minDistinctRunes = 3
)

//go:embed common-passwords.txt
var commonPasswordsFile string

// commonPasswords is the embedded list, lower-cased.
var commonPasswords = sync.OnceValue(func() map[string]struct{} {
	set := map[string]struct{}{}
	sc := bufio.NewScanner(strings.NewReader(commonPasswordsFile))
	for sc.Scan() {
		line := sc.Text()
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		set[strings.ToLower(line)] = struct{}{}
	}
	return set
})

// checkNewPassword says why pw will not do as the password of the account
// name, or returns nil.
func checkNewPassword(name, pw string) error {
	weak := func(why string) error {
		return errf(http.StatusBadRequest, "weak_password", "choose another password: %s", why)
	}
	if utf8.RuneCountInString(pw) < minPasswordRunes {
		return weak(fmt.Sprintf("it needs at least %d characters", minPasswordRunes))
	}
	if len(pw) > maxPasswordBytes {
		return weak(fmt.Sprintf("it may have at most %d bytes", maxPasswordBytes))
	}
	lower := strings.ToLower(pw)
	if _, ok := commonPasswords()[lower]; ok {
		return weak("it is one of the most common passwords")
	}
	if _, ok := commonPasswords()[strings.TrimSpace(lower)]; ok {
		return weak("it is one of the most common passwords")
	}
	if lower == strings.ToLower(name) {
		return weak("it is the account's name")
	}
	if distinctRunes(pw) < minDistinctRunes {
		return weak("it repeats one or two characters")
	}
	if isSequence(pw) {
		return weak("it is a sequence such as abcdefgh or 98765432")
	}
	return nil
}

func distinctRunes(s string) int {
	seen := map[rune]bool{}
	for _, r := range s {
		seen[r] = true
	}
	return len(seen)
}

// isSequence reports whether each character of s is the one after (or
// each the one before) the previous.
func isSequence(s string) bool {
	rs := []rune(s)
	step := rs[1] - rs[0]
	if step != 1 && step != -1 {
		return false
	}
	for i := 2; i < len(rs); i++ {
		if rs[i]-rs[i-1] != step {
			return false
		}
	}
	return true
}
