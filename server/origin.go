package server

import (
	"net/http"
	"net/url"
	"strings"
)

// crossOrigin is the standard library's cross-site request check:
// Sec-Fetch-Site, which every current browser sends, must say same-origin
// (or none: the user typed it); without it, Origin's host must be the
// request's Host.
var crossOrigin = http.NewCrossOriginProtection()

// checkOrigin refuses a state-changing request (any method but GET, HEAD
// and OPTIONS, with a body or without) that another site made a browser
// send. The standard check trusts Sec-Fetch-Site alone when it is sent and
// compares only Origin's host, so an Origin, whenever a request carries
// one, must also be this site exactly: its scheme (https when the request
// came over TLS — directly, through a trusted proxy, or on a site that
// says so with secure cookies — else http) and its host; a request whose
// two headers disagree is refused. A request that carries neither
// Sec-Fetch-Site nor Origin did not come from a current browser: a bot or
// curl, whose credentials are an Authorization header that no other site
// can make a browser attach, is let through; one that carries only the
// session cookie is refused, since a browser too old to send either header
// may be acting for another site.
func checkOrigin(r *http.Request, overTLS bool) error {
	switch r.Method {
	case http.MethodGet, http.MethodHead, http.MethodOptions:
		return nil
	}
	if err := crossOrigin.Check(r); err != nil {
		return errCrossOrigin
	}
	if origin := r.Header.Get("Origin"); origin != "" && !sameOrigin(origin, r.Host, overTLS) {
		return errCrossOrigin
	}
	if r.Header.Get("Sec-Fetch-Site") == "" && r.Header.Get("Origin") == "" && r.Header.Get("Authorization") == "" {
		if c, err := r.Cookie(sessionCookie); err == nil && c.Value != "" {
			return errCrossOrigin
		}
	}
	return nil
}

// sameOrigin reports whether origin (an Origin header) is the site the
// request reached: scheme https when overTLS, else http, and host (with
// the scheme's default port or none) the request's Host.
func sameOrigin(origin, host string, overTLS bool) bool {
	u, err := url.Parse(origin)
	if err != nil || u.User != nil || u.Path != "" || u.RawQuery != "" || u.Fragment != "" || u.Opaque != "" {
		return false
	}
	scheme, port := "http", ":80"
	if overTLS {
		scheme, port = "https", ":443"
	}
	if u.Scheme != scheme || u.Host == "" {
		return false
	}
	norm := func(h string) string { return strings.TrimSuffix(strings.ToLower(h), port) }
	return norm(u.Host) == norm(host)
}

var errCrossOrigin = errf(http.StatusForbidden, "cross_origin",
	"this request came from another site, or from a browser that does not say where it came from; use the site itself, or send an API token in the Authorization header")
