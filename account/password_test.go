package account

import (
	"testing"
)

// TestNewPasswordRules: the policy of new passwords, without a server —
// the list and its disguises refused, passphrases and random strings let
// through (the server's TestWeakPasswords asks the same over HTTP).
func TestNewPasswordRules(t *testing.T) {
	weak := map[string][]string{
		"carol123": {"password", "12345678", "        ", "Password1", "iloveyou", "trustno1", "aaaaaaaaaaaa", "abcdefgh",
			"98765432", "abababab", "carol123", "short", "päss", "password123", "letmein!", "Password2024!", "P@ssw0rd",
			"p4ssw0rd!", "!!dragon99", "monkeymonkey", "iloveyou1234", "qwerty123456", "abcabcabc", "carol123!",
			"Carol12345", "xcarol123x", "321lorac", "carol-2024", "welcome2026"},
		"alice": {"alice2024", "Alice!!!", "4l1ce_99", "alcie1234", "xxalicexx"},
	}
	for name, pws := range weak {
		for _, pw := range pws {
			err := CheckNewPassword(name, pw)
			if e, ok := err.(*Error); !ok || e.Code != CodeWeakPassword {
				t.Errorf("%s / %q: %v, want a weak_password refusal", name, pw, err)
			}
		}
	}
	for _, pw := range []string{"plum tart at noon", "ünïcode pässwörd", "password-alice", "dragon under the bridge", "9f3kq7xv2m", "x7!kP2#v", "alice in a purple wonderland"} {
		if err := CheckNewPassword("alice", pw); err != nil {
			t.Errorf("%q refused: %v", pw, err)
		}
	}
}

// TestHashPassword: a hash checks its own password only, carries its
// parameters, and a malformed hash checks nothing.
func TestHashPassword(t *testing.T) {
	cost := PasswordCost{MemoryKiB: 64, Time: 1}
	h, err := HashPassword("plum tart at noon", cost)
	if err != nil {
		t.Fatal(err)
	}
	if !CheckPassword("plum tart at noon", h) || CheckPassword("plum tart at noon!", h) {
		t.Fatal("the hash does not tell its password from another")
	}
	h2, _ := HashPassword("plum tart at noon", cost)
	if h == h2 {
		t.Fatal("two hashes of one password are equal: no salt")
	}
	for _, bad := range []string{"", "$argon2id$v=19$m=64,t=1,p=1$$", "$bcrypt$x$y$z$w", h[:len(h)-4]} {
		if CheckPassword("plum tart at noon", bad) {
			t.Errorf("malformed hash %q checks", bad)
		}
	}
}

// TestCheckName: the shape of a registered name; guest- is the guests'.
func TestCheckName(t *testing.T) {
	for _, ok := range []string{"abc", "Alice_99", "a-b-c", "x23456789012345678901234"} {
		if err := CheckName(ok); err != nil {
			t.Errorf("%q: %v", ok, err)
		}
	}
	for _, bad := range []string{"", "ab", "x234567890123456789012345", "al ice", "ålice", "guest-abc", "GUEST-x1"} {
		if CheckName(bad) == nil {
			t.Errorf("%q accepted", bad)
		}
	}
}
