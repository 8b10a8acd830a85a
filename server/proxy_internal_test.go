package server

import (
	"crypto/tls"
	"net/http/httptest"
	"testing"
)

// TestClientAddress: whose address a request is counted under, with and
// without trusted proxies, however the forwarding headers are written.
func TestClientAddress(t *testing.T) {
	proxies, err := ParseTrustedProxies([]string{"10.0.0.0/8, 192.0.2.1", "2001:db8:ffff::/48"})
	if err != nil {
		t.Fatal(err)
	}
	s := &Server{cfg: Config{TrustedProxies: proxies}}
	bare := &Server{}
	cases := []struct {
		name, peer string
		xff        []string
		want, key  string
		viaBare    string
	}{
		{"direct client", "203.0.113.5:4000", nil, "203.0.113.5", "203.0.113.5", "203.0.113.5"},
		{"direct client lies", "203.0.113.5:4000", []string{"198.51.100.1"}, "203.0.113.5", "203.0.113.5", "203.0.113.5"},
		{"through the proxy", "10.1.2.3:80", []string{"198.51.100.1"}, "198.51.100.1", "198.51.100.1", "10.1.2.3"},
		{"client's forgery stays left", "10.1.2.3:80", []string{"6.6.6.6, 198.51.100.1"}, "198.51.100.1", "198.51.100.1", "10.1.2.3"},
		{"two proxies", "192.0.2.1:80", []string{"198.51.100.1, 10.9.9.9"}, "198.51.100.1", "198.51.100.1", "192.0.2.1"},
		{"header over two lines", "10.1.2.3:80", []string{"6.6.6.6", "198.51.100.1"}, "198.51.100.1", "198.51.100.1", "10.1.2.3"},
		{"only proxies", "10.1.2.3:80", []string{"10.0.0.9"}, "10.0.0.9", "10.0.0.9", "10.1.2.3"},
		{"no header from the proxy", "10.1.2.3:80", nil, "10.1.2.3", "10.1.2.3", "10.1.2.3"},
		{"garbage right of the client", "10.1.2.3:80", []string{"198.51.100.1, not-an-ip"}, "10.1.2.3", "10.1.2.3", "10.1.2.3"},
		{"IPv4 in IPv6", "[::ffff:10.1.2.3]:80", []string{"::ffff:198.51.100.1"}, "198.51.100.1", "198.51.100.1", "10.1.2.3"},
		{"IPv6 client, keyed by /64", "[2001:db8:1:2:3:4:5:6]:9", nil, "2001:db8:1:2:3:4:5:6", "2001:db8:1:2::/64", "2001:db8:1:2:3:4:5:6"},
		{"IPv6 proxy", "[2001:db8:ffff::1]:80", []string{"2001:db8:1:2::99"}, "2001:db8:1:2::99", "2001:db8:1:2::/64", "2001:db8:ffff::1"},
	}
	for _, tc := range cases {
		r := httptest.NewRequest("GET", "/", nil)
		r.RemoteAddr = tc.peer
		for _, v := range tc.xff {
			r.Header.Add("X-Forwarded-For", v)
		}
		if got := s.clientIP(r); got != tc.want {
			t.Errorf("%s: clientIP %q, want %q", tc.name, got, tc.want)
		}
		if got := s.limitKey(r); got != tc.key {
			t.Errorf("%s: limitKey %q, want %q", tc.name, got, tc.key)
		}
		if got := bare.clientIP(r); got != tc.viaBare {
			t.Errorf("%s without trusted proxies: clientIP %q, want %q", tc.name, got, tc.viaBare)
		}
	}
	// X-Forwarded-Proto counts from a trusted proxy only, its rightmost value.
	for _, tc := range []struct {
		peer, proto string
		want        bool
	}{
		{"10.1.2.3:80", "https", true}, {"10.1.2.3:80", "http, https", true}, {"10.1.2.3:80", "https, http", false},
		{"203.0.113.5:1", "https", false}, {"10.1.2.3:80", "", false},
	} {
		r := httptest.NewRequest("GET", "/", nil)
		r.RemoteAddr = tc.peer
		if tc.proto != "" {
			r.Header.Set("X-Forwarded-Proto", tc.proto)
		}
		if got := s.viaTLS(r); got != tc.want {
			t.Errorf("viaTLS(%s, %q) = %v", tc.peer, tc.proto, got)
		}
	}
	r := httptest.NewRequest("GET", "/", nil)
	r.TLS = &tls.ConnectionState{}
	if !bare.viaTLS(r) {
		t.Error("a TLS connection is not via TLS")
	}
	for _, bad := range []string{"10.0.0.0/33", "proxy.example", "10.0.0.1/8/8"} {
		if _, err := ParseTrustedProxies([]string{bad}); err == nil {
			t.Errorf("ParseTrustedProxies(%q) accepted", bad)
		}
	}
}
