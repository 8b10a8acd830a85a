package server

import (
	"net/http"
)

// crossOrigin is the standard library's cross-site request check:
// Sec-Fetch-Site, which every current browser sends, must say same-origin
// (or none: the user typed it); without it, Origin's host must be the
// request's Host.
var crossOrigin = http.NewCrossOriginProtection()

// checkOrigin refuses a state-changing request (any method but GET, HEAD
// and OPTIONS, with a body or without) that another site made a browser
// send. A request that carries neither Sec-Fetch-Site nor Origin did not
// come from a current browser: a bot or curl, whose credentials are an
// Authorization header that no other site can make a browser attach, is
// let through; one that carries only the session cookie is refused, since
// a browser too old to send either header may be acting for another site.
func checkOrigin(r *http.Request) error {
	if err := crossOrigin.Check(r); err != nil {
		return errCrossOrigin
	}
	switch r.Method {
	case http.MethodGet, http.MethodHead, http.MethodOptions:
		return nil
	}
	if r.Header.Get("Sec-Fetch-Site") == "" && r.Header.Get("Origin") == "" && r.Header.Get("Authorization") == "" {
		if c, err := r.Cookie(sessionCookie); err == nil && c.Value != "" {
			return errCrossOrigin
		}
	}
	return nil
}

var errCrossOrigin = errf(http.StatusForbidden, "cross_origin",
	"this request came from another site, or from a browser that does not say where it came from; use the site itself, or send an API token in the Authorization header")
