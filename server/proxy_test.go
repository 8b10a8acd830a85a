package server_test

import (
	"fmt"
	"net/http"
	"net/netip"
	"testing"
)

// TestLoginLimitBehindProxy: behind a trusted proxy each real client has
// its own per-address budget (finding 4: all clients shared the proxy's
// address, so five bad logins locked the whole site), and
// X-Forwarded-For from anyone else is ignored.
func TestLoginLimitBehindProxy(t *testing.T) {
	e := newEnv(t, func(c *serverConfig) {
		c.SignupRate = 10 // burst 5 per address
		c.TrustedProxies = mustPrefixes(t, "127.0.0.1/32")
	})
	for i := range 3 {
		e.register(fmt.Sprintf("user%d", i))
	}
	// A flood from one real client behind the proxy, spread over accounts
	// so the per-account limit is not what stops it.
	limited := false
	for i := range 20 {
		status, _ := e.loginFrom(1, fmt.Sprintf("nobody%d", i), "wrong-password", map[string]string{"X-Forwarded-For": "198.51.100.7"})
		if status == http.StatusTooManyRequests {
			limited = true
			break
		}
	}
	if !limited {
		t.Fatal("20 guesses from one client behind the proxy were never limited")
	}
	// Another client behind the same proxy is not.
	if status, _ := e.loginFrom(1, "user0", "password-user0", map[string]string{"X-Forwarded-For": "198.51.100.8"}); status != http.StatusOK {
		t.Fatalf("a second client behind the proxy: %d", status)
	}
	// The flooding client cannot get out by writing its own X-Forwarded-For:
	// the proxy appends the address it saw, and that rightmost one counts.
	if status, _ := e.loginFrom(1, "user1", "password-user1", map[string]string{"X-Forwarded-For": "203.0.113.1, 198.51.100.7"}); status != http.StatusTooManyRequests {
		t.Fatalf("a forged left-hand X-Forwarded-For escaped the limit: %d", status)
	}
	// A peer that is not the proxy is keyed by its own address, whatever
	// X-Forwarded-For it sends.
	limited = false
	for i := range 20 {
		status, _ := e.loginFrom(2, fmt.Sprintf("nobody%d", i), "wrong-password", map[string]string{"X-Forwarded-For": fmt.Sprintf("192.0.2.%d", i)})
		if status == http.StatusTooManyRequests {
			limited = true
			break
		}
	}
	if !limited {
		t.Fatal("an untrusted peer escaped its limit by inventing X-Forwarded-For")
	}
}

func mustPrefixes(t *testing.T, cidrs ...string) []netip.Prefix {
	t.Helper()
	var out []netip.Prefix
	for _, c := range cidrs {
		p, err := netip.ParsePrefix(c)
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, p)
	}
	return out
}

// TestHSTSBehindProxy: a trusted proxy that terminated TLS says so with
// X-Forwarded-Proto, and the site then sends HSTS and Secure cookies.
func TestHSTSBehindProxy(t *testing.T) {
	e := newEnv(t, func(c *serverConfig) { c.TrustedProxies = mustPrefixes(t, "127.0.0.0/8") })
	req, _ := http.NewRequest("POST", e.hs.URL+"/api/guest", nil)
	req.Header.Set("X-Forwarded-Proto", "https")
	req.Header.Set("X-Forwarded-For", "198.51.100.1")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusCreated {
		t.Fatalf("guest: %d", resp.StatusCode)
	}
	checkHeaders(t, "behind the proxy", resp)
	if hsts := resp.Header.Get("Strict-Transport-Security"); hsts == "" {
		t.Error("no HSTS behind a TLS proxy")
	}
	if c := resp.Cookies(); len(c) != 1 || !c[0].Secure {
		t.Errorf("cookie behind a TLS proxy: %+v", c)
	}
}
