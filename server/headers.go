package server

import "net/http"

// contentSecurityPolicy allows the web application's own files and
// nothing else: no inline script or style (the app has none; the browser
// tests fail on any CSP report in the console; the page allows its import
// map by hash, webApp.servePage), no plugins, no <base>
// rewriting, forms posting only here, and no framing by any site.
// data: images are the CSS's inline SVG icons. 'self' in connect-src
// covers the WebSocket on the same host.
const contentSecurityPolicy = "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; " +
	"font-src 'self'; connect-src 'self'; object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'"

// hstsMaxAge is one year, the common floor for HSTS preload lists; it is
// sent only on responses that went out over TLS.
const hstsMaxAge = "max-age=31536000"

// protect wraps the whole site, the web application's files included:
// every response carries the security headers, text that is not clean
// UTF-8 is refused in the path and query, and state-changing requests from
// another site are refused before any handler runs.
func (s *Server) protect(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		h := w.Header()
		h.Set("Content-Security-Policy", contentSecurityPolicy)
		h.Set("X-Frame-Options", "DENY") // for browsers older than frame-ancestors
		h.Set("X-Content-Type-Options", "nosniff")
		h.Set("Referrer-Policy", "same-origin")
		overTLS := s.viaTLS(r)
		if overTLS {
			h.Set("Strict-Transport-Security", hstsMaxAge)
		}
		if err := checkURLText(r); err != nil {
			writeError(w, err)
			return
		}
		if err := checkOrigin(r, overTLS || s.cfg.SecureCookies); err != nil {
			writeError(w, err)
			return
		}
		next.ServeHTTP(w, r)
	})
}
