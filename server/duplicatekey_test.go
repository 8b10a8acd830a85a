package server_test

import (
	"net/http"
	"testing"
)

// TestDuplicateKeysRefused (issue 23, finding 8): a JSON body holding one
// key twice in an object — options above all, where the last silently won
// — is 400 bad_json naming the key; the same key in different objects is
// fine.
func TestDuplicateKeysRefused(t *testing.T) {
	e := newEnv(t)
	alice := e.guest()
	for _, c := range []struct{ path, body string }{
		{"/api/games", `{"game":"sploof","options":{"first":"white","first":"black"}}`},
		{"/api/rules/sploof", `{"options":{"first":"white","first":"black"}}`},
		{"/api/analysis", `{"game":"sploof","options":{"first":"white","first":"black"}}`},
		{"/api/games", `{"game":"sploof","game":"sgolte"}`},
		{"/api/games", `{"game":"tnim","seats":[{"kind":"me","kind":"open"}]}`},
	} {
		alice.apiErr(http.StatusBadRequest, "bad_json", "POST", c.path, c.body)
	}
	alice.must(http.StatusCreated, "POST", "/api/games", `{"game":"tnim","options":{"stones":"9"},"seats":[{"kind":"me"},{"kind":"open"}]}`, nil)
}
