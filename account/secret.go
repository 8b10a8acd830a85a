package account

import (
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"strings"
	"time"
)

// Sessions and API tokens are random secrets of 32 bytes; the store keeps
// only their SHA-256 (HashSecret), so a copy of the database signs no one
// in. An API token starts with TokenPrefix, which tells it from a session
// token in an Authorization header.
const (
	TokenPrefix = "tbl_"
	SessionTTL  = 30 * 24 * time.Hour
)

// NewSecret returns a new random credential starting with prefix, and the
// hash the store keeps of it.
func NewSecret(prefix string) (string, []byte) {
	var b [32]byte
	rand.Read(b[:]) // never fails (crypto/rand: it crashes the program rather than return weak bytes)
	s := prefix + base64.RawURLEncoding.EncodeToString(b[:])
	return s, HashSecret(s)
}

// HashSecret is what the store keeps of a credential.
func HashSecret(s string) []byte {
	h := sha256.Sum256([]byte(s))
	return h[:]
}

// IsAPIToken reports whether a credential is an API token rather than a
// session token.
func IsAPIToken(credential string) bool { return strings.HasPrefix(credential, TokenPrefix) }
