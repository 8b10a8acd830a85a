package director_test

import (
	"context"
	"errors"
	"math/rand/v2"
	"slices"
	"testing"
	"time"

	"github.com/tabula-games/tabula/director"
	"github.com/tabula-games/tabula/match"
	"github.com/tabula-games/tabula/store"
)

// tablesTournament stores a Skyjo table tournament id of rounds rounds at
// tables of at most four, unrated and admitting bots, starting at t0.
func (w *world) tablesTournament(id string, rounds int) store.Tournament {
	w.t.Helper()
	tr, err := director.Spec{Name: "Skyjo " + id, Format: director.Tables, Game: "skyjo", Rounds: rounds, Start: t0, Bots: true,
		Options: map[string]string{"players": "4", "target": "1"}}.Tournament(t0)
	if err != nil {
		w.t.Fatal(err)
	}
	tr.ID, tr.CreatorID, tr.Created = id, w.users[0], t0
	if err := w.db.CreateTournament(context.Background(), &tr); err != nil {
		w.t.Fatal(err)
	}
	return tr
}

// addBots adds n built-in bots of level to tournament tr.
func (w *world) addBots(tr store.Tournament, level string, n int) []int64 {
	w.t.Helper()
	tb, ok := w.db.(store.TournamentBots)
	if !ok {
		w.t.Fatal("the store adds no bots to tournaments")
	}
	var ids []int64
	for range n {
		if err := director.CheckAddBot(&tr, 0, level); err != nil {
			w.t.Fatal(err)
		}
		p, err := tb.AddTournamentBot(context.Background(), tr.ID, level, t0, tr.MaxPlayers, director.MaxBots)
		if err != nil {
			w.t.Fatal(err)
		}
		ids = append(ids, p.UserID)
	}
	return ids
}

// playPeople plays game id to its end: the people's seats a random legal
// move each, the bot seats left to their bots (the game's owner plays
// them).
func (w *world) playPeople(id string, rng *rand.Rand) {
	w.t.Helper()
	ctx := context.Background()
	deadline := time.Now().Add(60 * time.Second)
	for time.Now().Before(deadline) {
		snap, err := w.reg.Snapshot(ctx, id)
		if err != nil {
			if m, gerr := w.db.Game(ctx, id); gerr == nil && m.Status != match.Live {
				return
			}
			w.t.Fatal(err)
		}
		if snap.Meta.Status != match.Live {
			return
		}
		seat := snap.State.ToMove()
		if snap.Meta.Seats[seat].Kind == match.SeatBot {
			time.Sleep(2 * time.Millisecond)
			continue
		}
		legal := snap.State.Legal(nil)
		mv := snap.State.FormatMove(legal[rng.IntN(len(legal))])
		_, err = w.reg.Do(ctx, id, match.Command{Kind: match.CmdMove, User: match.User{ID: snap.Meta.Seats[seat].UserID}, Seat: seat,
			Ply: len(snap.Moves), Move: mv})
		var me *match.Error
		if err != nil && !errors.As(err, &me) {
			w.t.Fatalf("game %s: %s: %v", id, mv, err)
		}
	}
	w.t.Fatalf("game %s never ended", id)
}

// TestServerBotsAtTables: a person and three built-in bots (random level)
// in a Skyjo table tournament of two rounds. Each table's game has a bot
// seat of the bot's level for each bot and an invited seat for the person,
// the bots play their own moves (the game's owner does), the tables are
// placed and the tournament finishes with everyone in the standings. The
// bots, named by level and number, get no start notice.
func TestServerBotsAtTables(t *testing.T) {
	w := newWorld(t, 1)
	ctx := context.Background()
	tr := w.tablesTournament("sb1", 2)
	if _, err := w.db.JoinTournament(ctx, "sb1", w.users[0], t0, tr.MaxPlayers); err != nil {
		t.Fatal(err)
	}
	bots := w.addBots(tr, "random", 3)
	for i, id := range bots {
		if want, _ := store.BotID(i, "random"); id != want || id >= 0 {
			t.Fatalf("bot ids %v: the %d-th is not %d", bots, i, want)
		}
	}
	players, _ := w.db.TournamentPlayers(ctx, "sb1")
	if len(players) != 4 || players[1].Name != "random #1" || players[3].BotLevel != "random" || players[0].BotLevel != "" {
		t.Fatalf("players %+v", players)
	}
	var noticed []int64
	d := director.New(director.Config{Store: w.db, Games: w.reg, Node: "a", Now: func() time.Time { return t0 },
		Lease: 150 * time.Millisecond, Tick: 5 * time.Millisecond, Log: w.log,
		Started: func(_ store.Tournament, ids []int64) { noticed = ids }})
	rng := rand.New(rand.NewPCG(18, 25))
	for n := 1; n <= 2; n++ {
		r := w.tablesRound("sb1", d, n)
		if len(r.Boards) != 1 {
			t.Fatalf("round %d: %d tables", n, len(r.Boards))
		}
		m, err := w.db.Game(ctx, r.Boards[0].GameID)
		if err != nil {
			t.Fatal(err)
		}
		var levels []string
		for _, s := range m.Seats {
			if s.Kind == match.SeatBot {
				levels = append(levels, s.Level)
			} else if s.Kind != match.SeatHuman || s.UserID != w.users[0] {
				t.Fatalf("round %d: seat %+v", n, s)
			}
		}
		if len(levels) != 3 || m.Rated {
			t.Fatalf("round %d: the game's seats %+v (rated %v)", n, m.Seats, m.Rated)
		}
		w.playPeople(r.Boards[0].GameID, rng)
	}
	w.stepUntil(d, func() bool { tr, _ := w.db.Tournament(ctx, "sb1"); return tr.Status == store.TournamentFinished })
	if !slices.Equal(noticed, []int64{w.users[0]}) {
		t.Fatalf("start notices to %v, want the person alone", noticed)
	}
	rounds, _ := w.db.TournamentRounds(ctx, "sb1")
	seats, _ := tablesStore(t, w).TableSeats(ctx, "sb1")
	st, err := director.TableStandings(players, rounds, seats)
	if err != nil || len(st) != 4 {
		t.Fatalf("standings %+v, %v", st, err)
	}
	sum := 0.0
	for _, s := range st {
		sum += s.Points
	}
	if sum != 12 { // two tables of four: 3+2+1+0 each
		t.Fatalf("points in all %v, want 12", sum)
	}
}

// TestServerBotsOnly: a table tournament of bots alone runs to its end
// with nobody's move: every game starts full and the bots play it.
func TestServerBotsOnly(t *testing.T) {
	w := newWorld(t, 1)
	ctx := context.Background()
	tr := w.tablesTournament("sb2", 2)
	w.addBots(tr, "greedy", 2)
	w.addBots(tr, "random", 4) // two tables of three
	d := w.director("a", w.reg)
	deadline := time.Now().Add(60 * time.Second)
	for {
		d.Step(ctx)
		if tr, _ := w.db.Tournament(ctx, "sb2"); tr.Status == store.TournamentFinished {
			if tr.Note != "" {
				t.Fatalf("finished with note %q", tr.Note)
			}
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("the bots' tournament never finished")
		}
		time.Sleep(5 * time.Millisecond)
	}
	rounds, _ := w.db.TournamentRounds(ctx, "sb2")
	if len(rounds) != 2 {
		t.Fatalf("%d rounds", len(rounds))
	}
	for _, r := range rounds {
		for _, b := range r.Boards {
			if b.Result != store.BoardPlaced {
				t.Fatalf("round %d table %d: %q", r.Number, b.Board, b.Result)
			}
		}
	}
}

// TestServerBotsRefused: a built-in bot only where the tournament admits
// bots, unrated, at a known level, at most MaxBots of them (withdrawn ones
// count), and never beyond the tournament's size.
func TestServerBotsRefused(t *testing.T) {
	w := newWorld(t, 1)
	ctx := context.Background()
	tr := w.tablesTournament("sb3", 1)
	for _, c := range []struct {
		edit  func(t *store.Tournament)
		level string
		code  match.Code
	}{
		{func(t *store.Tournament) { t.Bots = false }, "easy", match.CodeForbidden},
		{func(t *store.Tournament) { t.Rated = true }, "easy", match.CodeForbidden},
		{func(t *store.Tournament) {}, "exec:/bin/sh", match.CodeBadOption},
		{func(t *store.Tournament) { t.Status = store.TournamentFinished }, "easy", match.CodeConflict},
	} {
		c2 := tr
		c.edit(&c2)
		var me *match.Error
		if err := director.CheckAddBot(&c2, 0, c.level); !errors.As(err, &me) || me.Code != c.code {
			t.Fatalf("%+v level %q: %v, want %s", c2, c.level, err, c.code)
		}
	}
	tb := w.db.(store.TournamentBots)
	for i := range director.MaxBots {
		p, err := tb.AddTournamentBot(ctx, "sb3", "easy", t0, tr.MaxPlayers, director.MaxBots)
		if err != nil {
			t.Fatalf("bot %d: %v", i+1, err)
		}
		if i == 0 {
			if err := w.db.WithdrawTournament(ctx, "sb3", p.UserID); err != nil {
				t.Fatal(err)
			}
		}
	}
	if _, err := tb.AddTournamentBot(ctx, "sb3", "easy", t0, tr.MaxPlayers, director.MaxBots); !errors.Is(err, store.ErrConflict) {
		t.Fatalf("bot %d: %v, want a conflict", director.MaxBots+1, err)
	}
	if _, err := tb.AddTournamentBot(ctx, "sb3", "easy", t0, 3, 100); !errors.Is(err, store.ErrConflict) {
		t.Fatalf("a bot beyond the most players: %v, want a conflict", err)
	}
}

// TestTablesLateJoiner: a player who joins a table tournament after round
// 1 was seated scores nothing for it and is seated from round 2.
func TestTablesLateJoiner(t *testing.T) {
	w := newWorld(t, 4)
	ctx := context.Background()
	tr := w.tablesTournament("lj", 2)
	for _, u := range w.users[:3] {
		if _, err := w.db.JoinTournament(ctx, "lj", u, t0, tr.MaxPlayers); err != nil {
			t.Fatal(err)
		}
	}
	d := w.director("a", w.reg)
	rng := rand.New(rand.NewPCG(5, 25))
	r1 := w.tablesRound("lj", d, 1)
	late := w.users[3]
	if _, err := w.db.JoinTournament(ctx, "lj", late, t0, tr.MaxPlayers); err != nil {
		t.Fatal(err)
	}
	m1, _ := w.db.Game(ctx, r1.Boards[0].GameID)
	if len(m1.Seats) != 3 || m1.SeatOf(late) >= 0 {
		t.Fatalf("round 1's table: %+v", m1.Seats)
	}
	w.playOut(r1.Boards[0].GameID, rng)
	r2 := w.tablesRound("lj", d, 2)
	players, _ := w.db.TournamentPlayers(ctx, "lj")
	rounds, _ := w.db.TournamentRounds(ctx, "lj")
	seats, _ := tablesStore(t, w).TableSeats(ctx, "lj")
	st, err := director.TableStandings(players, rounds[:1], seats)
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range st {
		if players[s.Player].UserID == late && (s.Points != 0 || s.Games != 0) {
			t.Fatalf("the late joiner after round 1: %+v", s)
		}
	}
	m2, _ := w.db.Game(ctx, r2.Boards[0].GameID)
	if len(m2.Seats) != 4 || m2.SeatOf(late) < 0 {
		t.Fatalf("round 2's table: %+v", m2.Seats)
	}
}

// TestServerBotLevelsHaveIDs: every level a bot seat may have can be said
// by a tournament bot's id, and the id says it back with its number.
func TestServerBotLevelsHaveIDs(t *testing.T) {
	for _, level := range match.BotLevels {
		for _, n := range []int{0, 1, director.MaxBots - 1} {
			id, ok := store.BotID(n, level)
			got, num, ok2 := store.BotOfID(id)
			if !ok || !ok2 || got != level || num != n+1 || id >= 0 {
				t.Fatalf("level %s bot %d: id %d (%v) says %s #%d (%v)", level, n, id, ok, got, num, ok2)
			}
		}
	}
	if _, _, ok := store.BotOfID(5); ok {
		t.Fatal("a user's id said a bot")
	}
}
