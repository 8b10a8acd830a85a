package main

import (
	"context"
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"
)

// TestBotKeysItsCommands: every POST the bot connector sends carries an
// Idempotency-Key of its own, so that a copy its HTTP client sends by
// itself (a proxy said the server died before answering) is known for one
// (docs/api.md); a read carries none.
func TestBotKeysItsCommands(t *testing.T) {
	var mu sync.Mutex
	keys := map[string][]string{}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		keys[r.Method] = append(keys[r.Method], r.Header.Get("Idempotency-Key"))
		mu.Unlock()
		w.Write([]byte("{}"))
	}))
	defer srv.Close()
	c := &connector{o: connectOptions{server: srv.URL, token: "t"}, http: srv.Client()}
	for _, call := range []struct{ method, path string }{
		{http.MethodPost, "/api/games/g/join"}, {http.MethodPost, "/api/games/g/resign"}, {http.MethodGet, "/api/games/g"},
	} {
		if err := c.api(context.Background(), call.method, call.path, struct{}{}, nil); err != nil {
			t.Fatalf("%s %s: %v", call.method, call.path, err)
		}
	}
	mu.Lock()
	defer mu.Unlock()
	posts := keys[http.MethodPost]
	if len(posts) != 2 || posts[0] == "" || posts[0] == posts[1] || len(posts[0]) > 64 {
		t.Fatalf("the POSTs' keys: %q, want two different ones of at most 64 characters", posts)
	}
	if gets := keys[http.MethodGet]; len(gets) != 1 || gets[0] != "" {
		t.Fatalf("the GET's key: %q, want none", gets)
	}
}
