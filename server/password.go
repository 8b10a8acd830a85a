package server

import (
	"crypto/rand"
	"crypto/subtle"
	"encoding/base64"
	"fmt"
	"strings"

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
