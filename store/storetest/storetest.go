// Package storetest is the conformance suite every store.Store passes: one
// set of tests run against SQLite and PostgreSQL alike, so the server can
// rely on the same behaviour from both.
package storetest

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/tabula-games/tabula/match"
	"github.com/tabula-games/tabula/store"
)

// Migrator is implemented by stores whose schema migrations can be driven
// from tests.
type Migrator interface {
	MigrateTo(ctx context.Context, version int) error
	SchemaVersion(ctx context.Context) (int, error)
}

// Run runs the suite. open must return an empty, migrated store for each
// call (a fresh file, a fresh schema); the suite closes it.
func Run(t *testing.T, open func(t *testing.T) store.Store, latest int) {
	tests := []struct {
		name string
		fn   func(t *testing.T, s store.Store)
	}{
		{"Users", testUsers},
		{"Sessions", testSessions},
		{"Tokens", testTokens},
		{"Games", testGames},
		{"GameList", testGameList},
		{"Moves", testMoves},
		{"MoveRace", testMoveRace},
		{"TakeBack", testTakeBack},
		{"EndAndRatings", testEndAndRatings},
		{"Import", testImport},
		{"LeaseRenewal", testLeaseRenewal},
		{"Fencing", testFencing},
		{"ClaimRace", testClaimRace},
		{"FairDeadline", testFairDeadline},
		{"Limits", testLimits},
		{"LimitRace", testLimitRace},
		{"Tournaments", testTournaments},
		{"TournamentDirector", testTournamentDirector},
		{"TournamentClaimRace", testTournamentClaimRace},
		{"RatingHistory", testRatingHistory},
		{"RatingHistoryRace", testRatingHistoryRace},
		{"Blocks", testBlocks},
		{"Migrations", func(t *testing.T, s store.Store) { testMigrations(t, s, latest) }},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			s := open(t)
			defer s.Close()
			tc.fn(t, s)
		})
	}
}

var t0 = time.Date(2026, 11, 2, 10, 0, 0, 0, time.UTC)

func must(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

func wantErr(t *testing.T, err, target error, what string) {
	t.Helper()
	if !errors.Is(err, target) {
		t.Fatalf("%s: got error %v, want %v", what, err, target)
	}
}

func newUser(t *testing.T, s store.Store, name string) store.User {
	t.Helper()
	u := store.User{Name: name, PasswordHash: "hash-" + name, Created: t0}
	must(t, s.CreateUser(context.Background(), &u))
	return u
}

func testUsers(t *testing.T, s store.Store) {
	ctx := context.Background()
	a := newUser(t, s, "Alice")
	if a.ID == 0 {
		t.Fatal("CreateUser did not set an id")
	}
	wantErr(t, s.CreateUser(ctx, &store.User{Name: "alice", Created: t0}), store.ErrConflict, "duplicate name ignoring case")
	got, err := s.UserByName(ctx, "ALICE")
	must(t, err)
	if got != a {
		t.Fatalf("UserByName = %+v, want %+v", got, a)
	}
	got, err = s.User(ctx, a.ID)
	must(t, err)
	if got != a {
		t.Fatalf("User = %+v, want %+v", got, a)
	}
	_, err = s.User(ctx, a.ID+1000)
	wantErr(t, err, store.ErrNotFound, "missing user")
	_, err = s.UserByName(ctx, "nobody")
	wantErr(t, err, store.ErrNotFound, "missing name")

	g := store.User{Name: "guest-x1", Guest: true, Created: t0}
	must(t, s.CreateUser(ctx, &g))
	g.Name, g.Guest, g.PasswordHash = "bob", false, "h"
	must(t, s.UpdateUser(ctx, g))
	got, err = s.UserByName(ctx, "bob")
	must(t, err)
	if got != g {
		t.Fatalf("after upgrade %+v, want %+v", got, g)
	}
	g.Name = "alice"
	wantErr(t, s.UpdateUser(ctx, g), store.ErrConflict, "rename onto a taken name")
}

func testSessions(t *testing.T, s store.Store) {
	ctx := context.Background()
	u := newUser(t, s, "carol")
	sess := store.Session{Hash: []byte("0123456789abcdef0123456789abcdef"), UserID: u.ID, Created: t0, Expires: t0.Add(time.Hour)}
	must(t, s.CreateSession(ctx, sess))
	got, err := s.Session(ctx, sess.Hash, t0.Add(time.Minute))
	must(t, err)
	if got.UserID != u.ID || !got.Expires.Equal(sess.Expires) {
		t.Fatalf("session = %+v", got)
	}
	_, err = s.Session(ctx, sess.Hash, t0.Add(2*time.Hour))
	wantErr(t, err, store.ErrNotFound, "expired session")
	_, err = s.Session(ctx, []byte("other"), t0)
	wantErr(t, err, store.ErrNotFound, "unknown session")
	must(t, s.DeleteSession(ctx, sess.Hash))
	_, err = s.Session(ctx, sess.Hash, t0)
	wantErr(t, err, store.ErrNotFound, "deleted session")
	must(t, s.DeleteSession(ctx, sess.Hash))

	for i, exp := range []time.Duration{time.Hour, 2 * time.Hour, 3 * time.Hour} {
		must(t, s.CreateSession(ctx, store.Session{Hash: []byte{byte(i)}, UserID: u.ID, Created: t0, Expires: t0.Add(exp)}))
	}
	n, err := s.DeleteExpiredSessions(ctx, t0.Add(2*time.Hour))
	must(t, err)
	if n != 2 {
		t.Fatalf("deleted %d expired sessions, want 2", n)
	}
	if _, err := s.Session(ctx, []byte{2}, t0); err != nil {
		t.Fatalf("the unexpired session went too: %v", err)
	}
}

func testTokens(t *testing.T, s store.Store) {
	ctx := context.Background()
	a, b := newUser(t, s, "dave"), newUser(t, s, "erin")
	t1 := store.Token{UserID: a.ID, Name: "bot one", Hash: []byte("h1"), Created: t0}
	t2 := store.Token{UserID: a.ID, Name: "bot two", Hash: []byte("h2"), Created: t0}
	must(t, s.CreateToken(ctx, &t1))
	must(t, s.CreateToken(ctx, &t2))
	if t1.ID == 0 || t1.ID == t2.ID {
		t.Fatalf("token ids %d %d", t1.ID, t2.ID)
	}
	got, err := s.TokenByHash(ctx, []byte("h2"))
	must(t, err)
	if got.ID != t2.ID || got.UserID != a.ID || got.Name != "bot two" {
		t.Fatalf("TokenByHash = %+v", got)
	}
	list, err := s.Tokens(ctx, a.ID)
	must(t, err)
	if len(list) != 2 || list[0].ID != t1.ID {
		t.Fatalf("Tokens = %+v", list)
	}
	wantErr(t, s.DeleteToken(ctx, b.ID, t1.ID), store.ErrNotFound, "deleting another user's token")
	must(t, s.DeleteToken(ctx, a.ID, t1.ID))
	_, err = s.TokenByHash(ctx, []byte("h1"))
	wantErr(t, err, store.ErrNotFound, "deleted token")
}

func newGame(t *testing.T, s store.Store, id string, creator int64, status match.Status, created time.Time) match.Meta {
	t.Helper()
	g := match.Meta{
		ID: id, Game: "sgolte", Options: map[string]string{"size": "5", "pie": "on"},
		Seed: 0xfedcba9876543210, Status: status,
		Seats:   []match.Seat{{Kind: match.SeatHuman, UserID: creator}, {Kind: match.SeatOpen}},
		Clock:   match.Clock{Kind: match.ClockRealtime, InitialMs: 60000, IncrementMs: 1000},
		Created: created, CreatorID: creator, ToMove: -1,
	}
	must(t, s.CreateGame(context.Background(), &g))
	return g
}

func testGames(t *testing.T, s store.Store) {
	ctx := context.Background()
	u := newUser(t, s, "frank")
	g := newGame(t, s, "g1", u.ID, match.Open, t0)
	if g.Version != 1 {
		t.Fatalf("new game version %d", g.Version)
	}
	wantErr(t, s.CreateGame(ctx, &match.Meta{ID: "g1", Game: "x", Options: map[string]string{}, Created: t0}), store.ErrConflict, "duplicate id")
	got, err := s.Game(ctx, "g1")
	must(t, err)
	if got.Seed != g.Seed || got.Options["size"] != "5" || len(got.Seats) != 2 || got.Seats[0] != g.Seats[0] ||
		got.Clock != g.Clock || got.Status != match.Open || !got.Created.Equal(t0) || got.Result != nil || got.ToMove != -1 {
		t.Fatalf("Game = %+v, want %+v", got, g)
	}
	_, err = s.Game(ctx, "nope")
	wantErr(t, err, store.ErrNotFound, "missing game")

	// Where a start came from, and a kept deal, survive the round trip.
	kept := match.Meta{ID: "g2", Game: "x", Options: map[string]string{}, StartPosition: []byte(`{"p":1}`), Origin: match.OriginRecord,
		KeepDeal: true, Status: match.Open, CreatorID: u.ID, Created: t0, ToMove: -1, Seats: []match.Seat{{Kind: match.SeatOpen}}}
	must(t, s.CreateGame(ctx, &kept))
	if got, err := s.Game(ctx, "g2"); err != nil || got.Origin != match.OriginRecord || !got.KeepDeal || string(got.StartPosition) != `{"p":1}` {
		t.Fatalf("Game(g2) = origin %q, keepDeal %v, position %s, %v", got.Origin, got.KeepDeal, got.StartPosition, err)
	}

	v := newUser(t, s, "gina")
	got.Seats[1] = match.Seat{Kind: match.SeatHuman, UserID: v.ID}
	got.Status, got.Started, got.ToMove, got.Deadline = match.Live, t0.Add(time.Minute), 0, t0.Add(2*time.Minute)
	stale := got
	must(t, s.UpdateGame(ctx, &got))
	if got.Version != 2 {
		t.Fatalf("version after update %d", got.Version)
	}
	wantErr(t, s.UpdateGame(ctx, &stale), store.ErrConflict, "stale version")
	again, err := s.Game(ctx, "g1")
	must(t, err)
	if again.Status != match.Live || again.Seats[1].UserID != v.ID || !again.Started.Equal(got.Started) || again.ToMove != 0 || !again.Deadline.Equal(got.Deadline) {
		t.Fatalf("after update %+v", again)
	}
}

func testGameList(t *testing.T, s store.Store) {
	ctx := context.Background()
	a, b := newUser(t, s, "hal"), newUser(t, s, "ivy")
	for i := 0; i < 6; i++ {
		st := match.Open
		if i%2 == 1 {
			st = match.Live
		}
		g := newGame(t, s, fmt.Sprintf("L%d", i), a.ID, st, t0.Add(time.Duration(i)*time.Minute))
		if i == 3 {
			g.Seats[1] = match.Seat{Kind: match.SeatHuman, UserID: b.ID}
			g.ToMove = 1
			must(t, s.UpdateGame(ctx, &g))
		}
	}
	ids := func(gs []match.Meta) string {
		s := ""
		for _, g := range gs {
			s += g.ID + " "
		}
		return s
	}
	for _, tc := range []struct {
		f    store.GameFilter
		want string
	}{
		{store.GameFilter{}, "L5 L4 L3 L2 L1 L0 "},
		{store.GameFilter{Statuses: []match.Status{match.Live}}, "L5 L3 L1 "},
		{store.GameFilter{Statuses: []match.Status{match.Open, match.Live}, Limit: 2}, "L5 L4 "},
		{store.GameFilter{Before: t0.Add(3 * time.Minute)}, "L2 L1 L0 "},
		{store.GameFilter{UserID: b.ID}, "L3 "},
		{store.GameFilter{UserID: b.ID, ToMove: true}, "L3 "},
		{store.GameFilter{UserID: a.ID, ToMove: true}, ""},
		{store.GameFilter{Game: "other"}, ""},
		{store.GameFilter{Creator: a.ID, Statuses: []match.Status{match.Live}}, "L5 L3 L1 "},
		{store.GameFilter{Creator: b.ID}, ""},
	} {
		got, err := s.Games(ctx, tc.f)
		must(t, err)
		if ids(got) != tc.want {
			t.Errorf("Games(%+v) = %q, want %q", tc.f, ids(got), tc.want)
		}
		for _, g := range got {
			if len(g.Seats) != 2 {
				t.Errorf("game %s listed with %d seats", g.ID, len(g.Seats))
			}
		}
	}
}

func testMoves(t *testing.T, s store.Store) {
	ctx := context.Background()
	u := newUser(t, s, "jack")
	newGame(t, s, "open", u.ID, match.Open, t0)
	newGame(t, s, "m", u.ID, match.Live, t0)
	mv := func(ply int) match.Move {
		return match.Move{Ply: ply, Seat: ply % 2, Text: fmt.Sprintf("m%d", ply), At: t0.Add(time.Duration(ply) * time.Second), ClockMs: int64(1000 * ply)}
	}
	wantErr(t, s.AppendMove(ctx, "open", mv(0), match.Turn{ToMove: 1}, nil), store.ErrConflict, "move in an open game")
	wantErr(t, s.AppendMove(ctx, "none", mv(0), match.Turn{ToMove: 1}, nil), store.ErrNotFound, "move in a missing game")
	for ply := 0; ply < 5; ply++ {
		must(t, s.AppendMove(ctx, "m", mv(ply), match.Turn{ToMove: (ply + 1) % 2, Deadline: t0.Add(time.Hour)}, nil))
	}
	wantErr(t, s.AppendMove(ctx, "m", mv(3), match.Turn{}, nil), store.ErrConflict, "replayed ply")
	wantErr(t, s.AppendMove(ctx, "m", mv(7), match.Turn{}, nil), store.ErrConflict, "ply gap")
	moves, err := s.Moves(ctx, "m")
	must(t, err)
	if len(moves) != 5 {
		t.Fatalf("%d moves", len(moves))
	}
	for i, m := range moves {
		if m != mv(i) {
			t.Fatalf("move %d = %+v, want %+v", i, m, mv(i))
		}
	}
	g, err := s.Game(ctx, "m")
	must(t, err)
	if g.Ply != 5 || g.ToMove != 1 || !g.Deadline.Equal(t0.Add(time.Hour)) {
		t.Fatalf("game after moves: ply %d toMove %d deadline %v", g.Ply, g.ToMove, g.Deadline)
	}
	// The version is the game's event number: one per move.
	if g.Version != 6 {
		t.Fatalf("version after creation and 5 moves: %d, want 6", g.Version)
	}
	end := &match.End{Result: match.Result{Status: match.Won, Winners: []int{0}, Reason: match.ReasonNormal, Scores: []int{3, 1}}, Finished: t0.Add(time.Hour)}
	must(t, s.AppendMove(ctx, "m", mv(5), match.Turn{ToMove: -1}, end))
	g, err = s.Game(ctx, "m")
	must(t, err)
	if g.Status != match.Finished || g.Result == nil || g.Result.Winners[0] != 0 || g.Result.Scores[1] != 1 || g.Ply != 6 || g.ToMove != -1 {
		t.Fatalf("finished game %+v (result %+v)", g, g.Result)
	}
	// A final move is two events: the move and the end.
	if g.Version != 8 {
		t.Fatalf("version after the final move: %d, want 8", g.Version)
	}
	wantErr(t, s.AppendMove(ctx, "m", mv(6), match.Turn{}, nil), store.ErrConflict, "move after the end")
	wantErr(t, s.EndGame(ctx, "m", *end), store.ErrConflict, "ending twice")
	wantErr(t, s.UpdateGame(ctx, &g), store.ErrConflict, "changing a finished game")
}

// testMoveRace: many writers try to record the same ply; exactly one wins.
func testMoveRace(t *testing.T, s store.Store) {
	ctx := context.Background()
	u := newUser(t, s, "kim")
	newGame(t, s, "race", u.ID, match.Live, t0)
	for ply := 0; ply < 3; ply++ {
		var wg sync.WaitGroup
		var mu sync.Mutex
		wins, conflicts := 0, 0
		for w := 0; w < 8; w++ {
			wg.Add(1)
			go func() {
				defer wg.Done()
				err := s.AppendMove(ctx, "race", match.Move{Ply: ply, Text: fmt.Sprintf("w%d", w), At: t0}, match.Turn{}, nil)
				mu.Lock()
				defer mu.Unlock()
				switch {
				case err == nil:
					wins++
				case errors.Is(err, store.ErrConflict):
					conflicts++
				default:
					t.Errorf("writer %d: %v", w, err)
				}
			}()
		}
		wg.Wait()
		if wins != 1 || conflicts != 7 {
			t.Fatalf("ply %d: %d writers won, %d conflicted", ply, wins, conflicts)
		}
	}
}

func testEndAndRatings(t *testing.T, s store.Store) {
	ctx := context.Background()
	a, b := newUser(t, s, "lee"), newUser(t, s, "max")
	for i := 0; i < 2; i++ {
		id := fmt.Sprintf("r%d", i)
		newGame(t, s, id, a.ID, match.Live, t0)
		var seen []match.Rating
		end := match.End{
			Result: match.Result{Status: match.Won, Winners: []int{0}, Reason: match.ReasonResign}, Finished: t0,
			RatedUsers: []int64{a.ID, b.ID},
			Rate: func(cur []match.Rating) []match.Rating {
				seen = cur
				out := make([]match.Rating, len(cur))
				for j, r := range cur {
					out[j] = match.Rating{UserID: r.UserID, Rating: r.Rating + float64(100*(1-2*j)) + 1, Deviation: 50 + float64(j), Volatility: 0.06, Games: r.Games + 1, Updated: t0}
				}
				return out
			},
		}
		must(t, s.EndGame(ctx, id, end))
		if g, err := s.Game(ctx, id); err != nil || g.Version != 2 || g.Status != match.Finished {
			t.Fatalf("game after EndGame: version %d, status %s, %v; want 2, finished", g.Version, g.Status, err)
		}
		if len(seen) != 2 || seen[0].UserID != a.ID || seen[0].Games != i || seen[0].Game != "sgolte" {
			t.Fatalf("Rate saw %+v", seen)
		}
	}
	rs, err := s.Ratings(ctx, a.ID)
	must(t, err)
	if len(rs) != 1 || rs[0].Rating != 202 || rs[0].Games != 2 || rs[0].Game != "sgolte" {
		t.Fatalf("ratings of a: %+v", rs)
	}
	board, err := s.Leaderboard(ctx, "sgolte", 100, 10)
	must(t, err)
	if len(board) != 2 || board[0].Name != "lee" || board[1].Name != "max" || board[1].Rating.Rating != -198 {
		t.Fatalf("leaderboard %+v", board)
	}
	board, err = s.Leaderboard(ctx, "sgolte", 50.5, 10)
	must(t, err)
	if len(board) != 1 {
		t.Fatalf("leaderboard with max deviation: %+v", board)
	}
	wantErr(t, s.EndGame(ctx, "nope", match.End{}), store.ErrNotFound, "ending a missing game")
}

func testImport(t *testing.T, s store.Store) {
	ctx := context.Background()
	u := newUser(t, s, "ned")
	g := match.Meta{ID: "imp", Game: "skyjo", Options: map[string]string{"players": "3"}, Status: match.Imported,
		StartPosition: []byte(`{"game":"skyjo"}`), Seats: []match.Seat{{Kind: match.SeatOpen}, {Kind: match.SeatOpen}, {Kind: match.SeatOpen}},
		Created: t0, CreatorID: u.ID, ToMove: -1, Result: &match.Result{Status: match.Drawn, Reason: match.ReasonNormal}}
	moves := []match.Move{{Ply: 0, Text: "flip a1", At: t0}, {Ply: 1, Seat: 1, Text: "flip b1", At: t0}}
	must(t, s.ImportGame(ctx, &g, moves))
	got, err := s.Game(ctx, "imp")
	must(t, err)
	if got.Status != match.Imported || string(got.StartPosition) != `{"game":"skyjo"}` || got.Ply != 2 || len(got.Seats) != 3 || got.Result.Status != match.Drawn {
		t.Fatalf("imported %+v", got)
	}
	ms, err := s.Moves(ctx, "imp")
	must(t, err)
	if len(ms) != 2 || ms[1].Text != "flip b1" {
		t.Fatalf("imported moves %+v", ms)
	}
	wantErr(t, s.AppendMove(ctx, "imp", match.Move{Ply: 2}, match.Turn{}, nil), store.ErrConflict, "moving in an imported game")
}

// testMigrations runs the schema down to nothing and up again twice: every
// migration's Down must undo its Up exactly.
func testMigrations(t *testing.T, s store.Store, latest int) {
	m, ok := s.(Migrator)
	if !ok {
		t.Skip("store does not expose its migrations")
	}
	ctx := context.Background()
	v, err := m.SchemaVersion(ctx)
	must(t, err)
	if v != latest {
		t.Fatalf("schema version %d, want %d", v, latest)
	}
	newUser(t, s, "olga")
	for i := 0; i < 2; i++ {
		must(t, m.MigrateTo(ctx, 0))
		if v, _ := m.SchemaVersion(ctx); v != 0 {
			t.Fatalf("after down: version %d", v)
		}
		must(t, m.MigrateTo(ctx, latest))
		if v, _ := m.SchemaVersion(ctx); v != latest {
			t.Fatalf("after up: version %d", v)
		}
	}
	if _, err := s.UserByName(ctx, "olga"); !errors.Is(err, store.ErrNotFound) {
		t.Fatalf("data survived a full down migration: %v", err)
	}
	newUser(t, s, "olga")
}
