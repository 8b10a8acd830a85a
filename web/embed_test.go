package web

import (
	"encoding/json"
	"io"
	"io/fs"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

// appGetter answers GET path from the embedded application, as the
// server's file handler does: the status and the body.
func appGetter(t *testing.T) func(path string) (int, string) {
	h := http.FileServerFS(App())
	return func(path string) (int, string) {
		t.Helper()
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, httptest.NewRequest("GET", path, nil))
		body, _ := io.ReadAll(rec.Body)
		return rec.Code, string(body)
	}
}

func TestAppServesPageAndRules(t *testing.T) {
	get := appGetter(t)
	if code, body := get("/"); code != 200 || !strings.Contains(body, `src="js/app.js"`) {
		t.Fatalf("GET / = %d, want the page loading js/app.js:\n%s", code, body)
	}
	if code, body := get("/js/app.js"); code != 200 || !strings.Contains(body, "import") {
		t.Fatalf("GET /js/app.js = %d", code)
	}
	code, body := get("/rules/index.json")
	if code != 200 {
		t.Fatalf("GET /rules/index.json = %d", code)
	}
	var index map[string][]string
	if err := json.Unmarshal([]byte(body), &index); err != nil {
		t.Fatalf("rules index %q: %v", body, err)
	}
	if got := strings.Join(index["en"], ","); got != "sgolte,skjuub,skyjo,sploof" {
		t.Errorf("English rules pages = %q, want the four games", got)
	}
	for lang, names := range index {
		for _, name := range names {
			path := "/rules/" + name + ".md"
			if lang != "en" {
				path = "/rules/" + lang + "/" + name + ".md"
			}
			if code, body := get(path); code != 200 || len(body) < 100 {
				t.Errorf("GET %s = %d (%d bytes)", path, code, len(body))
			}
		}
	}
	// The diagrams, played by the rules engines, and the glossary.
	code, body = get("/rules/diagrams.json")
	var diagrams map[string]struct{ View json.RawMessage }
	if err := json.Unmarshal([]byte(body), &diagrams); code != 200 || err != nil {
		t.Fatalf("GET /rules/diagrams.json = %d, %v", code, err)
	}
	for key, d := range diagrams {
		if !json.Valid(d.View) || len(d.View) < 10 {
			t.Errorf("diagram %s: no view: %s", key, d.View)
		}
	}
	if code, body := get("/rules/glossary.json"); code != 200 || !strings.Contains(body, `"terms"`) {
		t.Errorf("GET /rules/glossary.json = %d", code)
	}
	if code, _ := get("/rules/rules_test.go"); code != 404 {
		t.Errorf("GET /rules/rules_test.go = %d, want 404 (only the pages are embedded)", code)
	}
}

func TestAppPathsAreValid(t *testing.T) {
	if _, err := App().Open("../secret"); err == nil {
		t.Fatal("Open(../secret) succeeded")
	}
	// Every file the page loads is embedded: walking the static tree finds the entry points.
	want := map[string]bool{"index.html": false, "css/app.css": false, "js/app.js": false, "favicon.svg": false}
	fs.WalkDir(App(), ".", func(p string, d fs.DirEntry, err error) error {
		if _, ok := want[p]; ok {
			want[p] = true
		}
		return nil
	})
	for p, found := range want {
		if !found {
			t.Errorf("%s is not in the embedded app", p)
		}
	}
}

// The players' help pages (docs/help) are served as the rules pages are:
// help/index.json lists each page's languages, and every page it lists is
// there — the tournaments page in English, Korean and Mongolian (issue 25).
func TestAppServesHelp(t *testing.T) {
	get := appGetter(t)
	code, body := get("/help/index.json")
	if code != 200 {
		t.Fatalf("GET /help/index.json = %d", code)
	}
	var index map[string][]string
	if err := json.Unmarshal([]byte(body), &index); err != nil {
		t.Fatalf("help index %q: %v", body, err)
	}
	for _, lang := range []string{"en", "ko", "mn"} {
		if got := strings.Join(index[lang], ","); got != "tournaments" {
			t.Errorf("help pages in %s = %q, want tournaments", lang, got)
		}
	}
	for lang, names := range index {
		for _, name := range names {
			path := "/help/" + name + ".md"
			if lang != "en" {
				path = "/help/" + lang + "/" + name + ".md"
			}
			if code, body := get(path); code != 200 || len(body) < 1000 {
				t.Errorf("GET %s = %d (%d bytes)", path, code, len(body))
			}
		}
	}
	// The help tree is its own: it does not reach the rules through help/.
	if code, _ := get("/help/sgolte.md"); code != 404 {
		t.Errorf("GET /help/sgolte.md = %d, want 404", code)
	}
}
