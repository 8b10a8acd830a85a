package server

import (
	"bytes"
	"encoding/json"
	"net/http"
	"net/url"
	"strings"
	"unicode/utf8"
)

// Text from clients is checked once, where it enters: the path and query
// in protect, every JSON string and key in decode and the WebSocket read
// loop. A NUL byte or invalid UTF-8 is refused with 400 bad_text there, so
// no handler has to think of it and no store ever sees it (PostgreSQL
// rejects NUL in text; SQLite would store it).

func badText(where string) error {
	return errf(http.StatusBadRequest, "bad_text", "%s: text must be UTF-8 without NUL bytes", where)
}

func cleanText(s string) bool {
	return utf8.ValidString(s) && strings.IndexByte(s, 0) < 0
}

// checkURLText checks the decoded path and every decoded query key and
// value. A query that does not decode is refused too: the standard parser
// would silently drop the pair, which hides the mistake.
func checkURLText(r *http.Request) error {
	if !cleanText(r.URL.Path) {
		return badText("path")
	}
	for pair := range strings.SplitSeq(r.URL.RawQuery, "&") {
		k, v, _ := strings.Cut(pair, "=")
		for _, part := range []string{k, v} {
			dec, err := url.QueryUnescape(part)
			if err != nil || !cleanText(dec) {
				return badText("query")
			}
		}
	}
	return nil
}

// checkJSONText checks that data is UTF-8 and that no string in it, keys
// included, decodes to one holding a NUL (which JSON can only write as
// \u0000). Malformed JSON is left for the decoder to report.
func checkJSONText(data []byte) error {
	if !utf8.Valid(data) || bytes.IndexByte(data, 0) >= 0 {
		return badText("body")
	}
	if !bytes.Contains(data, []byte(`\u0000`)) {
		return nil // fast path: no string can decode to a NUL
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	for {
		tok, err := dec.Token()
		if err != nil {
			return nil
		}
		if s, ok := tok.(string); ok && strings.IndexByte(s, 0) >= 0 {
			return badText("body")
		}
	}
}
