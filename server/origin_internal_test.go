package server

import "testing"

// TestSameOrigin: Origin must be the site exactly — the scheme the request
// came by (https over TLS), the request's host, the scheme's default port
// written or not — and nothing else.
func TestSameOrigin(t *testing.T) {
	for _, c := range []struct {
		origin, host string
		tls, want    bool
	}{
		{"http://site.example", "site.example", false, true},
		{"http://SITE.example:80", "site.example", false, true},
		{"https://site.example", "site.example", true, true},
		{"https://site.example:443", "site.example", true, true},
		{"http://127.0.0.1:8080", "127.0.0.1:8080", false, true},
		{"http://site.example", "site.example", true, false},   // a plain-text page acting on the TLS site
		{"https://site.example", "site.example", false, false}, // the scheme is compared both ways
		{"https://site.example:8443", "site.example", true, false},
		{"http://evil.site.example", "site.example", false, false},
		{"null", "site.example", false, false},
		{"http://user@site.example", "site.example", false, false},
		{"http://site.example/", "site.example", false, false},
		{"site.example", "site.example", false, false},
		{"http://", "", false, false},
	} {
		if got := sameOrigin(c.origin, c.host, c.tls); got != c.want {
			t.Errorf("sameOrigin(%q, %q, tls %v) = %v, want %v", c.origin, c.host, c.tls, got, c.want)
		}
	}
}
