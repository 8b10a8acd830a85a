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

// postgresStore returns an opener of the PostgreSQL store on a schema of
// its own, dropped when the test ends. PostgreSQL is expected at
// TABULA_TEST_POSTGRES (default: the local server .ci/run starts); a test
// fails when it does not answer, and is skipped only when
// TABULA_TEST_POSTGRES=off.
func postgresStore(t *testing.T) func() (store.Store, error) {
	t.Helper()
	url := os.Getenv("TABULA_TEST_POSTGRES")
	switch url {
	case "off":
		t.Skip("TABULA_TEST_POSTGRES=off")
	case "":
		url = "postgres://postgres@127.0.0.1:5432/test?sslmode=disable"
	}
	admin, err := sql.Open("pgx", url)
	if err == nil {
		err = admin.Ping()
	}
	if err != nil {
		t.Fatalf("no PostgreSQL at %s (set TABULA_TEST_POSTGRES=off to skip): %v", url, err)
	}
	schema := fmt.Sprintf("tabula_server_test_%d", rand.Uint64()>>1)
	if _, err := admin.Exec("CREATE SCHEMA " + schema); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		admin.Exec("DROP SCHEMA " + schema + " CASCADE")
		admin.Close()
	})
	return func() (store.Store, error) {
		return postgres.Open(context.Background(), url+"&search_path="+schema)
	}
}

// TestOnPostgres: the same server on the PostgreSQL store — a game between
// two users, a bot seat, a restart.
func TestOnPostgres(t *testing.T) {
	e := newEnvWith(t, postgresStore(t))
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
