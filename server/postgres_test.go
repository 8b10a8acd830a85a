package server_test

import (
	"context"
	"database/sql"
	"fmt"
	"math/rand/v2"
	"net/http"
	"os"
	"testing"

	"github.com/tabula-games/tabula/store"
	"github.com/tabula-games/tabula/store/postgres"
)

// TestOnPostgres: the same server on the PostgreSQL store — a game between
// two users, a bot seat, a restart. Skipped when no PostgreSQL answers.
func TestOnPostgres(t *testing.T) {
	url := os.Getenv("TABULA_TEST_POSTGRES")
	if url == "" {
		url = "postgres://postgres@127.0.0.1:5432/test?sslmode=disable"
	}
	admin, err := sql.Open("pgx", url)
	if err == nil {
		err = admin.Ping()
	}
	if err != nil {
		t.Skipf("no PostgreSQL at %s: %v", url, err)
	}
	defer admin.Close()
	schema := fmt.Sprintf("tabula_server_test_%d", rand.Uint64()>>1)
	if _, err := admin.Exec("CREATE SCHEMA " + schema); err != nil {
		t.Fatal(err)
	}
	defer admin.Exec("DROP SCHEMA " + schema + " CASCADE")
	e := newEnvWith(t, func() (store.Store, error) {
		return postgres.Open(context.Background(), url+"&search_path="+schema)
	})
	alice, bob := e.register("alice"), e.register("bob")
	g := alice.create(map[string]any{"game": "tnim", "options": map[string]string{"stones": "12"}, "rated": true})
	bob.must(http.StatusOK, "POST", "/api/games/"+g.ID+"/join", nil, nil)
	for ply := 0; ply < 4; ply++ {
		c := []*client{alice, bob}[ply%2]
		c.must(http.StatusOK, "POST", "/api/games/"+g.ID+"/moves", map[string]any{"ply": ply, "move": "1"}, nil)
	}
	alice.apiErr(http.StatusConflict, "stale_ply", "POST", "/api/games/"+g.ID+"/moves", map[string]any{"ply": 2, "move": "1"})
	e.stop()
	e.start()
	ws := alice.dial("/api/games/" + g.ID + "/ws")
	if snap := ws.next("snapshot"); len(snap.Moves) != 4 {
		t.Fatalf("after restart: %s", snap.raw)
	}
	for ply := 4; ; ply++ {
		c := []*client{alice, bob}[ply%2]
		var resp struct{ Status string }
		c.must(http.StatusOK, "POST", "/api/games/"+g.ID+"/moves", map[string]any{"ply": ply, "move": "1"}, &resp)
		if resp.Status == "finished" {
			break
		}
	}
	var me ratingsResp
	bob.must(http.StatusOK, "GET", "/api/me", nil, &me)
	if len(me.Ratings) != 1 || me.Ratings[0].Rating <= 1500 {
		t.Fatalf("bob took the last stone and should have gained: %+v", me)
	}
	bg := alice.create(map[string]any{"game": "tnim", "seats": []map[string]string{{"kind": "me"}, {"kind": "bot", "level": "random"}}})
	bws := alice.dial("/api/games/" + bg.ID + "/ws")
	gameChannelPlayer(t, bws, rand.New(rand.NewPCG(1, 2)))
}
