package director_test

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/tabula-games/tabula/director"
	"github.com/tabula-games/tabula/game"
	"github.com/tabula-games/tabula/match"
	"github.com/tabula-games/tabula/store"
	"github.com/tabula-games/tabula/tournament"
)

// TestTables: seven players, a Skyjo table tournament of two rounds at
// tables of at most four, on SQLite.
func TestTables(t *testing.T) { tablesRun(t, newWorld(t, 7)) }

// TestTablesOnPostgres: the same on PostgreSQL.
func TestTablesOnPostgres(t *testing.T) { tablesRun(t, newPostgresWorld(t, 7)) }

// tablesStore is the world's store with its tables.
func tablesStore(t *testing.T, w *world) store.Tables {
	t.Helper()
	ts := w.db.(store.Tables)
	if _, err := ts.TableSeats(context.Background(), "none"); err != nil {
		t.Fatalf("TableSeats of no tournament: %v (the table seats missing?)", err)
	}
	return ts
}

// tablesRun: round 1 seats the seven by pairing number at a table of 4 and
// one of 3, each a rated Skyjo game of that many seats; the games are
// played out, and each seat's placement points and Skyjo total are its
// game's. Round 2 seats them by those standings; at the table of 3 a
// player resigns, and the other two split the first two places (1.5 each,
// the resigner 0, no totals). The standings are a recomputation from the
// games, tie-broken by the lower total, and every game was rated.
func tablesRun(t *testing.T, w *world) {
	ctx := context.Background()
	ts := tablesStore(t, w)
	tr, err := director.Spec{Name: "Skyjo evening", Format: director.Tables, Game: "skyjo", Rounds: 2, Start: t0, Rated: true,
		Options: map[string]string{"players": "4", "target": "1"}}.Tournament(t0)
	if err != nil {
		t.Fatal(err)
	}
	tr.ID, tr.CreatorID, tr.Created = "k1", w.users[0], t0
	if err := w.db.CreateTournament(ctx, &tr); err != nil {
		t.Fatal(err)
	}
	for _, u := range w.users {
		if _, err := w.db.JoinTournament(ctx, "k1", u, t0, tr.MaxPlayers); err != nil {
			t.Fatal(err)
		}
	}
	d := w.director("a", w.reg)
	rng := rand.New(rand.NewPCG(7, 25))

	// Round 1: by pairing number, 4 + 3.
	r1 := w.tablesRound("k1", d, 1)
	seats, _ := ts.TableSeats(ctx, "k1")
	wantSeats(t, seats, 1, [][]int64{w.users[:4], w.users[4:]})
	for _, b := range r1.Boards {
		m, err := w.db.Game(ctx, b.GameID)
		n := []int{4, 3}[b.Board]
		if err != nil || m.Status != match.Live || len(m.Seats) != n || m.Options[game.PlayersOption] != fmt.Sprint(n) || !m.Rated || m.Game != "skyjo" {
			t.Fatalf("table %d's game: %+v, %v", b.Board, m, err)
		}
		if b.GameID != director.GameID("k1", 1, b.Board) {
			t.Fatalf("table %d's game id %q", b.Board, b.GameID)
		}
		w.playOut(b.GameID, rng)
	}

	// Round 2: seated by the standings of round 1.
	r2 := w.tablesRound("k1", d, 2)
	seats, _ = ts.TableSeats(ctx, "k1")
	players, _ := w.db.TournamentPlayers(ctx, "k1")
	rounds, _ := w.db.TournamentRounds(ctx, "k1")
	for _, b := range rounds[0].Boards {
		if b.Result != store.BoardPlaced {
			t.Fatalf("round 1 table %d: result %q", b.Board, b.Result)
		}
		m, _ := w.db.Game(ctx, b.GameID)
		var half, totals []int
		for _, s := range seats {
			if s.Round == 1 && s.Board == b.Board {
				half, totals = append(half, s.HalfPoints), append(totals, s.Total)
			}
		}
		wantHalf := []int{}
		for _, p := range tournament.PlacementPoints(m.Result.Scores) {
			wantHalf = append(wantHalf, int(2*p))
		}
		if !slices.Equal(totals, m.Result.Scores) || !slices.Equal(half, wantHalf) {
			t.Fatalf("round 1 table %d: half points %v totals %v; the game's scores %v", b.Board, half, totals, m.Result.Scores)
		}
	}
	st1, err := director.TableStandings(players, rounds[:1], seats)
	if err != nil {
		t.Fatal(err)
	}
	var order []int64
	for _, s := range st1 {
		order = append(order, players[s.Player].UserID)
	}
	wantSeats(t, seats, 2, [][]int64{order[:4], order[4:]})
	w.playOut(r2.Boards[0].GameID, rng)
	resigner := order[5]
	if _, err := w.reg.Do(ctx, r2.Boards[1].GameID, match.Command{Kind: match.CmdResign, User: match.User{ID: resigner}, Ply: -1}); err != nil {
		t.Fatal(err)
	}
	w.stepUntil(d, func() bool { tr, _ := w.db.Tournament(ctx, "k1"); return tr.Status == store.TournamentFinished })

	tr, _ = w.db.Tournament(ctx, "k1")
	rounds, _ = w.db.TournamentRounds(ctx, "k1")
	seats, _ = ts.TableSeats(ctx, "k1")
	if tr.Note != "" || len(rounds) != 2 {
		t.Fatalf("finished with note %q after %d rounds", tr.Note, len(rounds))
	}
	for _, s := range seats {
		if s.Round == 2 && s.Board == 1 {
			want := 3
			if s.UserID == resigner {
				want = 0
			}
			if s.HalfPoints != want || s.Total != 0 {
				t.Fatalf("round 2 table 2 seat %d (user %d): half points %d total %d, want %d and 0", s.Seat, s.UserID, s.HalfPoints, s.Total, want)
			}
		}
	}
	// The standings, recomputed from the games alone.
	idx := map[int64]int{}
	for i, p := range players {
		idx[p.UserID] = i
	}
	var hist [][]tournament.TableGame
	for _, r := range rounds {
		var rd []tournament.TableGame
		for _, b := range r.Boards {
			m, err := w.db.Game(ctx, b.GameID)
			if err != nil || m.Status != match.Finished {
				t.Fatalf("game %s: %v %v", b.GameID, m.Status, err)
			}
			g := tournament.TableGame{Totals: make([]int, len(m.Seats))}
			for _, s := range m.Seats {
				g.Players = append(g.Players, idx[s.UserID])
			}
			if m.Result.Scores != nil {
				copy(g.Totals, m.Result.Scores)
			} else {
				for i := range m.Seats {
					if slices.Contains(m.Result.Winners, i) {
						g.Points = append(g.Points, float64(len(m.Result.Winners)-1)/2+float64(len(m.Seats)-len(m.Result.Winners)))
					} else {
						g.Points = append(g.Points, float64(len(m.Seats)-len(m.Result.Winners)-1)/2)
					}
				}
			}
			rd = append(rd, g)
		}
		hist = append(hist, rd)
	}
	want, err := tournament.TableStandings(len(players), hist)
	if err != nil {
		t.Fatal(err)
	}
	got, err := director.TableStandings(players, rounds, seats)
	if err != nil {
		t.Fatal(err)
	}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Fatalf("standings\n%v\nrecomputed from the games\n%v", got, want)
	}
	for i := 1; i < len(got); i++ {
		a, b := got[i-1], got[i]
		if a.Points < b.Points || (a.Points == b.Points && a.SkyjoTotal > b.SkyjoTotal) {
			t.Fatalf("standings out of order at %d: %+v before %+v", i, a, b)
		}
	}
	for _, u := range w.users {
		rs, err := w.db.Ratings(ctx, u)
		if err != nil || len(rs) != 1 || rs[0].Game != "skyjo" || rs[0].Games != 2 {
			t.Fatalf("user %d's ratings: %+v, %v", u, rs, err)
		}
	}
}

// wantSeats checks the seats of round: table by table, the users in order.
func wantSeats(t *testing.T, seats []store.TableSeat, round int, want [][]int64) {
	t.Helper()
	got := make([][]int64, len(want))
	for _, s := range seats {
		if s.Round != round {
			continue
		}
		if s.Board >= len(want) || s.Seat != len(got[s.Board]) {
			t.Fatalf("round %d: seat %+v out of place", round, s)
		}
		got[s.Board] = append(got[s.Board], s.UserID)
	}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Fatalf("round %d seats %v, want %v", round, got, want)
	}
}

// stepUntil steps director d until cond holds (10 s at most).
func (w *world) stepUntil(d *director.Director, cond func() bool) {
	w.t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			w.t.Fatal("the director never got there")
		}
		d.Step(context.Background())
	}
}

// tablesRound steps d until round n of tournament id is seated with every
// table's game live, and returns it.
func (w *world) tablesRound(id string, d *director.Director, n int) store.TournamentRound {
	w.t.Helper()
	ctx := context.Background()
	var r store.TournamentRound
	w.stepUntil(d, func() bool {
		rounds, err := w.db.TournamentRounds(ctx, id)
		if err != nil || len(rounds) < n {
			return false
		}
		r = rounds[n-1]
		for _, b := range r.Boards {
			if m, err := w.db.Game(ctx, b.GameID); err != nil || m.Status != match.Live {
				return false
			}
		}
		return true
	})
	return r
}

// playOut plays game id to its end, each seat a random legal move.
func (w *world) playOut(id string, rng *rand.Rand) {
	w.t.Helper()
	ctx := context.Background()
	for range 100000 {
		snap, err := w.reg.Snapshot(ctx, id)
		if err != nil {
			if m, gerr := w.db.Game(ctx, id); gerr == nil && m.Status != match.Live {
				return // ended, and its owner is gone
			}
			w.t.Fatal(err)
		}
		if snap.Meta.Status != match.Live {
			return
		}
		seat := snap.State.ToMove()
		legal := snap.State.Legal(nil)
		mv := snap.State.FormatMove(legal[rng.IntN(len(legal))])
		_, err = w.reg.Do(ctx, id, match.Command{Kind: match.CmdMove, User: match.User{ID: snap.Meta.Seats[seat].UserID}, Seat: seat,
			Ply: len(snap.Moves), Move: mv})
		var me *match.Error
		if err != nil && !(errors.As(err, &me) && strings.Contains(me.Message, "ply")) {
			w.t.Fatalf("game %s: %s: %v", id, mv, err)
		}
	}
	w.t.Fatalf("game %s never ended", id)
}

// TestTablesSpec: a table tournament is Skyjo's, at tables of 3 to 8 (8
// unless the players option says less); a two-player game is refused with
// a clear bad option, and a two-player Skyjo Swiss or arena is accepted.
func TestTablesSpec(t *testing.T) {
	base := director.Spec{Name: "Evening", Format: director.Tables, Game: "skyjo", Rounds: 3, Start: t0}
	tr, err := base.Tournament(t0)
	if err != nil || director.MaxTable(&tr) != 8 || tr.MaxPlayers != director.MaxTablesPlayers {
		t.Fatalf("default tables: %+v, %v", tr, err)
	}
	for _, c := range []struct {
		edit func(s *director.Spec)
		want string
	}{
		{func(s *director.Spec) { s.Game = "sgolte" }, "tables are for Skyjo"},
		{func(s *director.Spec) { s.Options = map[string]string{"players": "2"} }, "tables seat 3 to 8"},
		{func(s *director.Spec) { s.Options = map[string]string{"players": "9"} }, "players"},
		{func(s *director.Spec) { s.Rounds = 0 }, "rounds"},
		{func(s *director.Spec) { s.MaxPlayers = 2 }, "maxPlayers"},
		{func(s *director.Spec) { s.Double = true }, "double"},
	} {
		s := base
		c.edit(&s)
		_, err := s.Tournament(t0)
		var me *match.Error
		if !errors.As(err, &me) || (me.Code != match.CodeBadOption && me.Code != match.CodeBadRequest) || !strings.Contains(me.Message, c.want) {
			t.Errorf("%+v: %v, want a refusal saying %q", s, err, c.want)
		}
	}
	sw := director.Spec{Name: "Duel", Format: director.Swiss, Game: "skyjo", Rounds: 3, Start: t0}
	if _, err := sw.Tournament(t0); err != nil {
		t.Errorf("a two-player Skyjo Swiss: %v", err)
	}
	sw.Options = map[string]string{"players": "3"}
	if _, err := sw.Tournament(t0); err == nil || !strings.Contains(err.Error(), "tournaments pair two") {
		t.Errorf("a three-player Skyjo Swiss: %v", err)
	}
	if _, err := (director.Spec{Name: "Quick", Game: "skyjo", Start: t0, Clock: match.Clock{Kind: match.ClockRealtime, InitialMs: 60000}}).
		ArenaTournament(t0, store.Arena{Duration: 30 * time.Minute}); err != nil {
		t.Errorf("a two-player Skyjo arena: %v", err)
	}
}

// TestSkyjoSwiss: a Swiss of two-player Skyjo games, played out, scores
// each board by its game's winner (the lower total) and finishes.
func TestSkyjoSwiss(t *testing.T) {
	w := newWorld(t, 4)
	ctx := context.Background()
	tr, err := director.Spec{Name: "Duel", Format: director.Swiss, Game: "skyjo", Rounds: 2, Start: t0, Rated: true,
		Options: map[string]string{"target": "1"}}.Tournament(t0)
	if err != nil {
		t.Fatal(err)
	}
	tr.ID, tr.CreatorID, tr.Created = "s2", w.users[0], t0
	if err := w.db.CreateTournament(ctx, &tr); err != nil {
		t.Fatal(err)
	}
	for _, u := range w.users {
		if _, err := w.db.JoinTournament(ctx, "s2", u, t0, tr.MaxPlayers); err != nil {
			t.Fatal(err)
		}
	}
	d := w.director("a", w.reg)
	rng := rand.New(rand.NewPCG(2, 2))
	for n := 1; n <= 2; n++ {
		for _, b := range w.tablesRound("s2", d, n).Boards {
			w.playOut(b.GameID, rng)
		}
	}
	w.stepUntil(d, func() bool { tr, _ := w.db.Tournament(ctx, "s2"); return tr.Status == store.TournamentFinished })
	rounds, _ := w.db.TournamentRounds(ctx, "s2")
	for _, r := range rounds {
		for _, b := range r.Boards {
			m, _ := w.db.Game(ctx, b.GameID)
			want := map[string]string{"[0]": store.BoardWhiteWins, "[1]": store.BoardBlackWins}[fmt.Sprint(m.Result.Winners)]
			if m.Result.Status == match.Drawn {
				want = store.BoardDraw
			}
			if len(m.Seats) != 2 || len(m.Result.Scores) != 2 || b.Result != want {
				t.Fatalf("round %d board %d: result %q, game %+v", r.Number, b.Board, b.Result, m.Result)
			}
		}
	}
}

// TestTablesTakeover: a director seats round 1 of a table tournament and
// dies after creating one of its two tables' games; another takes the
// lease once it lapses, creates the missing game (not the other again)
// with the same seats, and the round is unchanged.
func TestTablesTakeover(t *testing.T) {
	w := newWorld(t, 7)
	ctx := context.Background()
	ts := tablesStore(t, w)
	tr, err := director.Spec{Name: "Skyjo evening", Format: director.Tables, Game: "skyjo", Rounds: 1, Start: t0,
		Options: map[string]string{"players": "4"}}.Tournament(t0)
	if err != nil {
		t.Fatal(err)
	}
	tr.ID, tr.CreatorID, tr.Created = "k2", w.users[0], t0
	if err := w.db.CreateTournament(ctx, &tr); err != nil {
		t.Fatal(err)
	}
	for _, u := range w.users {
		if _, err := w.db.JoinTournament(ctx, "k2", u, t0, tr.MaxPlayers); err != nil {
			t.Fatal(err)
		}
	}
	a := w.director("a", &flaky{Registry: w.reg, okCreates: 1})
	a.Step(ctx)
	rounds, _ := w.db.TournamentRounds(ctx, "k2")
	seats, _ := ts.TableSeats(ctx, "k2")
	if len(rounds) != 1 || len(rounds[0].Boards) != 2 || len(seats) != 7 {
		t.Fatalf("after a's step: %+v, seats %v", rounds, seats)
	}
	before := fmt.Sprint(rounds, seats)
	g0, err := w.db.Game(ctx, rounds[0].Boards[0].GameID)
	if err != nil {
		t.Fatalf("table 1's game: %v", err)
	}
	if _, err := w.db.Game(ctx, rounds[0].Boards[1].GameID); !errors.Is(err, store.ErrNotFound) {
		t.Fatalf("table 2's game exists before the takeover: %v", err)
	}
	b := w.director("b", w.reg)
	w.stepUntil(b, func() bool {
		m, err := w.db.Game(ctx, rounds[0].Boards[1].GameID)
		return err == nil && m.Status == match.Live
	})
	rounds, _ = w.db.TournamentRounds(ctx, "k2")
	seats, _ = ts.TableSeats(ctx, "k2")
	if after := fmt.Sprint(rounds, seats); after != before {
		t.Fatalf("round 1 changed in the takeover:\n%s\nwas\n%s", after, before)
	}
	m1, _ := w.db.Game(ctx, rounds[0].Boards[1].GameID)
	if again, _ := w.db.Game(ctx, g0.ID); again.Created != g0.Created || len(m1.Seats) != 3 {
		t.Fatalf("table 1's game made again (%v, was %v), or table 2's has %d seats", again.Created, g0.Created, len(m1.Seats))
	}
	for i, s := range m1.Seats {
		if s.UserID != w.users[4+i] || s.Kind != match.SeatHuman {
			t.Fatalf("table 2 seat %d: %+v", i, s)
		}
	}
}

// TestTablesFewPlayers: a table tournament of two players is cancelled at
// its start, and so is one of four at tables of at most 3; one of four whose player withdraws after round 1 seats the
// three left at one table in round 2; one that falls below three players
// ends early, with a note.
func TestTablesFewPlayers(t *testing.T) {
	w := newWorld(t, 4)
	ctx := context.Background()
	ts := tablesStore(t, w)
	create := func(id string, users []int64) {
		tr, err := director.Spec{Name: "Skyjo " + id, Format: director.Tables, Game: "skyjo", Rounds: 3, Start: t0}.Tournament(t0)
		if err != nil {
			t.Fatal(err)
		}
		tr.ID, tr.CreatorID, tr.Created = id, w.users[0], t0
		if err := w.db.CreateTournament(ctx, &tr); err != nil {
			t.Fatal(err)
		}
		for _, u := range users {
			if _, err := w.db.JoinTournament(ctx, id, u, t0, tr.MaxPlayers); err != nil {
				t.Fatal(err)
			}
		}
	}
	finished := func(id string) func() bool {
		return func() bool { tr, _ := w.db.Tournament(ctx, id); return tr.Status == store.TournamentFinished }
	}
	resignFirst := func(r store.TournamentRound) {
		m, err := w.db.Game(ctx, r.Boards[0].GameID)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := w.reg.Do(ctx, m.ID, match.Command{Kind: match.CmdResign, User: match.User{ID: m.Seats[0].UserID}, Ply: -1}); err != nil {
			t.Fatal(err)
		}
	}
	create("two", w.users[:2])
	create("four", w.users)
	// Four at tables of at most 3: no seating fits.
	tr, err := director.Spec{Name: "Skyjo threes", Format: director.Tables, Game: "skyjo", Rounds: 1, Start: t0,
		Options: map[string]string{"players": "3"}}.Tournament(t0)
	if err != nil {
		t.Fatal(err)
	}
	tr.ID, tr.CreatorID, tr.Created = "threes", w.users[0], t0
	if err := w.db.CreateTournament(ctx, &tr); err != nil {
		t.Fatal(err)
	}
	for _, u := range w.users {
		if _, err := w.db.JoinTournament(ctx, "threes", u, t0, tr.MaxPlayers); err != nil {
			t.Fatal(err)
		}
	}
	d := w.director("a", w.reg)
	w.stepUntil(d, finished("two"))
	if tr, _ := w.db.Tournament(ctx, "two"); tr.Note != "cancelled: fewer than three players" {
		t.Fatalf("two players: note %q", tr.Note)
	}
	w.stepUntil(d, finished("threes"))
	if tr, _ := w.db.Tournament(ctx, "threes"); tr.Note != "cancelled: 4 players do not fill tables of 3 to 3" {
		t.Fatalf("four at tables of 3: note %q", tr.Note)
	}

	resignFirst(w.tablesRound("four", d, 1))
	if err := w.db.WithdrawTournament(ctx, "four", w.users[3]); err != nil {
		t.Fatal(err)
	}
	r2 := w.tablesRound("four", d, 2)
	seats, _ := ts.TableSeats(ctx, "four")
	var in2 []int64
	for _, s := range seats {
		if s.Round == 2 {
			in2 = append(in2, s.UserID)
		}
	}
	if len(r2.Boards) != 1 || len(in2) != 3 || slices.Contains(in2, w.users[3]) {
		t.Fatalf("round 2 after a withdrawal: %+v, seats %v", r2, in2)
	}
	if err := w.db.WithdrawTournament(ctx, "four", w.users[2]); err != nil {
		t.Fatal(err)
	}
	resignFirst(r2)
	w.stepUntil(d, finished("four"))
	if tr, _ := w.db.Tournament(ctx, "four"); tr.Note != "ended after round 2: fewer than three players left" {
		t.Fatalf("four players, two withdrawn: note %q", tr.Note)
	}
}
