package server

import (
	"net"
	"net/http"
	"net/netip"
	"strings"
)

// clientAddr is the address of the client behind a request. It is the
// connection's peer address, unless that peer is a trusted proxy
// (Config.TrustedProxies): then it is the rightmost address in
// X-Forwarded-For that is not itself a trusted proxy. Each proxy appends
// the address it saw, so the entries left of that one are whatever the
// client chose to send and are never believed.
func (s *Server) clientAddr(r *http.Request) (netip.Addr, bool) {
	peer, ok := peerAddr(r)
	if !ok || !s.trusted(peer) {
		return peer, ok
	}
	hops := forwardedFor(r.Header)
	for i := len(hops) - 1; i >= 0; i-- {
		a, err := netip.ParseAddr(hops[i])
		if err != nil {
			// A trusted proxy writes a valid address, so this entry and
			// everything left of it came from the client: the last proxy's
			// peer is the best answer there is.
			break
		}
		a = a.Unmap()
		if !s.trusted(a) {
			return a, true
		}
		peer = a
	}
	return peer, true
}

// clientIP is clientAddr as text, for logs.
func (s *Server) clientIP(r *http.Request) string {
	if a, ok := s.clientAddr(r); ok {
		return a.String()
	}
	return r.RemoteAddr
}

// limitKey is the key of the per-address limits: the client's IPv4
// address, or its IPv6 /64, since one host is commonly given a whole /64
// and could otherwise take a fresh address for every request.
func (s *Server) limitKey(r *http.Request) string {
	a, ok := s.clientAddr(r)
	if !ok {
		return r.RemoteAddr
	}
	if a.Is6() {
		p, _ := a.Prefix(64)
		return p.String()
	}
	return a.String()
}

// viaTLS reports whether the client reached the site over TLS: served
// directly with TLS, or through a trusted proxy that says so with
// X-Forwarded-Proto.
func (s *Server) viaTLS(r *http.Request) bool {
	if r.TLS != nil {
		return true
	}
	peer, ok := peerAddr(r)
	if !ok || !s.trusted(peer) {
		return false
	}
	// Several proxies may each have added a value; the rightmost is the
	// one the nearest proxy saw.
	protos := r.Header.Values("X-Forwarded-Proto")
	if len(protos) == 0 {
		return false
	}
	last := protos[len(protos)-1]
	if i := strings.LastIndexByte(last, ','); i >= 0 {
		last = last[i+1:]
	}
	return strings.EqualFold(strings.TrimSpace(last), "https")
}

func (s *Server) trusted(a netip.Addr) bool {
	for _, p := range s.cfg.TrustedProxies {
		if p.Contains(a) {
			return true
		}
	}
	return false
}

func peerAddr(r *http.Request) (netip.Addr, bool) {
	host, _, err := net.SplitHostPort(r.RemoteAddr)
	if err != nil {
		host = r.RemoteAddr
	}
	a, err := netip.ParseAddr(host)
	if err != nil {
		return netip.Addr{}, false
	}
	return a.Unmap(), true
}

// forwardedFor is every X-Forwarded-For entry, in order, over all the
// header's lines.
func forwardedFor(h http.Header) []string {
	var hops []string
	for _, line := range h.Values("X-Forwarded-For") {
		for _, hop := range strings.Split(line, ",") {
			hops = append(hops, strings.TrimSpace(hop))
		}
	}
	return hops
}

// ParseTrustedProxies reads --trusted-proxy values: CIDR ranges or single
// addresses, several to a value when separated by commas.
func ParseTrustedProxies(values []string) ([]netip.Prefix, error) {
	var out []netip.Prefix
	for _, v := range values {
		for _, f := range strings.Split(v, ",") {
			f = strings.TrimSpace(f)
			if f == "" {
				continue
			}
			if p, err := netip.ParsePrefix(f); err == nil {
				out = append(out, p.Masked())
				continue
			}
			a, err := netip.ParseAddr(f)
			if err != nil {
				return nil, &net.ParseError{Type: "CIDR range or address", Text: f}
			}
			out = append(out, netip.PrefixFrom(a.Unmap(), a.Unmap().BitLen()))
		}
	}
	return out, nil
}
