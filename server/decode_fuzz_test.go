package server

import (
	"bytes"
	"encoding/json"
	"errors"
	"net/http/httptest"
	"strings"
	"testing"
	"unicode/utf8"
)

// fuzzTarget has the shapes of the API's request bodies: plain strings,
// maps, lists of objects, pointers, and raw JSON decoded later (records).
type fuzzTarget struct {
	Name    string              `json:"name"`
	Options map[string]string   `json:"options"`
	Seats   []map[string]string `json:"seats"`
	Ply     *int                `json:"ply"`
	Record  json.RawMessage     `json:"record"`
}

// dirty reports whether a JSON document holds, anywhere, a string that a
// store must not see: invalid UTF-8 or a NUL.
func dirty(body []byte) bool {
	if !utf8.Valid(body) || bytes.IndexByte(body, 0) >= 0 {
		return true
	}
	if !json.Valid(body) {
		return false
	}
	// Every string token, keys and values, a key's earlier values
	// included: decoding into a map keeps only a repeated key's last value
	// and hid a NUL in an earlier one (the fuzzer found
	// {"0":"C\u00001","0":"0"}).
	dec := json.NewDecoder(bytes.NewReader(body))
	for {
		tok, err := dec.Token()
		if err != nil {
			return false
		}
		if s, ok := tok.(string); ok && strings.IndexByte(s, 0) >= 0 {
			return true
		}
	}
}

// FuzzDecode: decode never panics, answers every bad body with a 4xx
// apiError, refuses exactly the bodies with unclean text (bad_text), and
// whatever it accepts holds only clean strings, raw parts included.
func FuzzDecode(f *testing.F) {
	for _, s := range []string{
		``, `  `, `{}`, `{} {}`, `null`, `[]`, `{"name":"bot"}`, `{"name":"b\u0000t"}`, `{"na\u0000me":"x"}`,
		`{"name":"\\u0000"}`, "{\"name\":\"\xff\"}", "{\"name\":\"a\x00\"}", `{"name":"\ud800"}`,
		`{"options":{"stones":"3"},"seats":[{"kind":"me"},{"kind":"invite","user":"bob"}],"ply":2}`,
		`{"record":{"game":"tnim","moves":["1","2\u0000"]}}`, `{"record":"tabula-record/1 | tnim"}`, `{"extra":1}`,
	} {
		f.Add([]byte(s), true)
	}
	f.Fuzz(func(t *testing.T, body []byte, typed bool) {
		req := httptest.NewRequest("POST", "/api/x", bytes.NewReader(body))
		if typed {
			req.Header.Set("Content-Type", "application/json")
		}
		var v fuzzTarget
		err := decode(httptest.NewRecorder(), req, &v, maxBody, true)
		if err != nil {
			var ae *apiError
			if !errors.As(err, &ae) || ae.Status < 400 || ae.Status >= 500 {
				t.Fatalf("decode(%q): %v is not a client error", body, err)
			}
			// Malformed JSON may be reported either way; otherwise the
			// code says exactly whether the text was unclean.
			if len(bytes.TrimSpace(body)) > 0 && typed && (dirty(body) || json.Valid(body)) && (ae.Code == "bad_text") != dirty(body) {
				t.Fatalf("decode(%q): %v, but dirty = %v", body, err, dirty(body))
			}
			return
		}
		if dirty(body) && len(bytes.TrimSpace(body)) > 0 {
			t.Fatalf("decode(%q) accepted unclean text: %+v", body, v)
		}
		check := func(s string) {
			if !cleanText(s) {
				t.Fatalf("decode(%q) let %q through", body, s)
			}
		}
		check(v.Name)
		for k, x := range v.Options {
			check(k)
			check(x)
		}
		for _, m := range v.Seats {
			for k, x := range m {
				check(k)
				check(x)
			}
		}
		if dirty(v.Record) {
			t.Fatalf("decode(%q) let raw JSON %q through", body, v.Record)
		}
	})
}
