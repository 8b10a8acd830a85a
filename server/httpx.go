package server

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"mime"
	"net/http"
	"strconv"
	"time"

	"github.com/tabula-games/tabula/server/wire"
)

// Request size limits.
const (
	maxBody       = 64 << 10
	maxImportBody = 1 << 20
	maxWSMessage  = 16 << 10
)

// apiError is an error with its HTTP status and machine-readable code; it
// is what every handler returns to the client.
type apiError struct {
	Status  int    `json:"-"`
	Code    string `json:"code"`
	Message string `json:"message"`
	// RetryAfter is the answer's Retry-After: any status may carry one (a
	// 503 analysis_busy does); a 429 always does (default: one second).
	RetryAfter time.Duration `json:"-"`
}

func (e *apiError) Error() string { return e.Code + ": " + e.Message }

func errf(status int, code, format string, args ...any) *apiError {
	return &apiError{Status: status, Code: code, Message: fmt.Sprintf(format, args...)}
}

var (
	errUnauthorized = errf(http.StatusUnauthorized, "unauthorized", "sign in, or send a valid session or API token")
	errNotFound     = errf(http.StatusNotFound, "not_found", "not found")
	errUnavailable  = errf(http.StatusServiceUnavailable, "unavailable", "the server cannot do that now; nothing was changed")
)

func writeJSON(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Cache-Control", "no-store")
	w.WriteHeader(status)
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	enc.Encode(v)
}

func writeError(w http.ResponseWriter, err error) {
	ae := apiErrorOf(err)
	if ae.Status == http.StatusTooManyRequests || ae.RetryAfter > 0 {
		secs := int64(1)
		if ae.RetryAfter > time.Second {
			secs = int64((ae.RetryAfter + time.Second - 1) / time.Second)
		}
		w.Header().Set("Retry-After", strconv.FormatInt(secs, 10))
	}
	writeJSON(w, ae.Status, wire.ErrorResponse{Error: ae.body()})
}

// decode reads a JSON body of at most limit bytes into v: exactly one
// value, no unknown fields, clean text (checkJSONText). An empty body
// leaves v as it is when allowEmpty.
func decode(w http.ResponseWriter, r *http.Request, v any, limit int64, allowEmpty bool) error {
	body := http.MaxBytesReader(w, r.Body, limit)
	data, err := io.ReadAll(body)
	if err != nil {
		var mbe *http.MaxBytesError
		if errors.As(err, &mbe) {
			return errf(http.StatusRequestEntityTooLarge, "too_large", "request body exceeds %d bytes", limit)
		}
		return errf(http.StatusBadRequest, "bad_request", "reading body: %v", err)
	}
	if len(bytes.TrimSpace(data)) == 0 {
		if allowEmpty {
			return nil
		}
		return errf(http.StatusBadRequest, "bad_json", "a JSON body is required")
	}
	if ct := r.Header.Get("Content-Type"); ct != "" {
		mt, _, err := mime.ParseMediaType(ct)
		if err != nil || mt != "application/json" {
			return errf(http.StatusUnsupportedMediaType, "unsupported_media_type", "send Content-Type: application/json")
		}
	} else {
		// Requiring the type stops cross-site HTML forms, which cannot
		// send it, from posting with a visitor's cookie.
		return errf(http.StatusUnsupportedMediaType, "unsupported_media_type", "send Content-Type: application/json")
	}
	if err := checkJSONText(data); err != nil {
		return err
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		return errf(http.StatusBadRequest, "bad_json", "malformed JSON: %v", err)
	}
	if dec.More() {
		return errf(http.StatusBadRequest, "bad_json", "malformed JSON: more than one value")
	}
	if k, ok := duplicateKey(data); ok {
		return errf(http.StatusBadRequest, "bad_json", "malformed JSON: key %q twice in one object", k)
	}
	return nil
}

// duplicateKey finds a key that one object of data (valid JSON) holds
// twice. The decoder would keep the last silently, so
// {"options":{"first":"white","first":"black"}} would mean whatever a
// reader guessed; such a body is refused instead.
func duplicateKey(data []byte) (string, bool) {
	type frame struct {
		keys    map[string]bool // nil for an array
		wantKey bool
	}
	var stack []*frame
	valueDone := func() {
		if n := len(stack); n > 0 && stack[n-1].keys != nil {
			stack[n-1].wantKey = true
		}
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	for {
		tok, err := dec.Token()
		if err != nil {
			return "", false
		}
		switch t := tok.(type) {
		case json.Delim:
			switch t {
			case '{':
				stack = append(stack, &frame{keys: map[string]bool{}, wantKey: true})
			case '[':
				stack = append(stack, &frame{})
			default:
				stack = stack[:len(stack)-1]
				valueDone()
			}
		case string:
			if n := len(stack); n > 0 && stack[n-1].wantKey {
				top := stack[n-1]
				if top.keys[t] {
					return t, true
				}
				top.keys[t], top.wantKey = true, false
				continue
			}
			valueDone()
		default:
			valueDone()
		}
	}
}

// statusRecorder remembers the status a handler wrote, for metrics.
type statusRecorder struct {
	http.ResponseWriter
	status int
}

func (s *statusRecorder) WriteHeader(code int) {
	if s.status == 0 {
		s.status = code
	}
	s.ResponseWriter.WriteHeader(code)
}

func (s *statusRecorder) Write(b []byte) (int, error) {
	if s.status == 0 {
		s.status = http.StatusOK
	}
	return s.ResponseWriter.Write(b)
}

// Unwrap lets http.ResponseController (and the WebSocket upgrade) reach the
// real writer.
func (s *statusRecorder) Unwrap() http.ResponseWriter { return s.ResponseWriter }

func queryInt(r *http.Request, key string, def, lo, hi int) (int, error) {
	v := r.URL.Query().Get(key)
	if v == "" {
		return def, nil
	}
	n, err := strconv.Atoi(v)
	if err != nil || n < lo || n > hi {
		return 0, errf(http.StatusBadRequest, "bad_request", "%s must be an integer in %d…%d", key, lo, hi)
	}
	return n, nil
}

func timePtr(t time.Time) *time.Time {
	if t.IsZero() {
		return nil
	}
	t = t.UTC()
	return &t
}
