package web

import (
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"testing"
)

// TestAppServesLessons: the lessons and puzzles of package learn are served
// under learn/, and nothing else of that package is.
func TestAppServesLessons(t *testing.T) {
	h := http.FileServerFS(App())
	get := func(path string) (int, []byte) {
		t.Helper()
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, httptest.NewRequest("GET", path, nil))
		body, _ := io.ReadAll(rec.Body)
		return rec.Code, body
	}
	code, body := get("/learn/lessons/skjuub.json")
	var c struct {
		Game    string `json:"game"`
		Lessons []any  `json:"lessons"`
	}
	if code != 200 || json.Unmarshal(body, &c) != nil || c.Game != "skjuub" || len(c.Lessons) == 0 {
		t.Fatalf("GET /learn/lessons/skjuub.json = %d %.100s", code, body)
	}
	for _, p := range []string{"/learn/learn.go", "/learn/check.go", "/learn/lessons/nope.json"} {
		if code, _ := get(p); code != 404 {
			t.Errorf("GET %s = %d, want 404", p, code)
		}
	}
}
