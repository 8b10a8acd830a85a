package director_test

import (
	"context"
	"errors"
	"fmt"
	"sync/atomic"
	"testing"
	"time"

	"github.com/tabula-games/tabula/director"
	"github.com/tabula-games/tabula/match"
	"github.com/tabula-games/tabula/store"
)

// TestArena: an arena on SQLite, run by one director that stops half-way
// through creating a wave's games and another that takes over.
func TestArena(t *testing.T) { arenaRun(t, newWorld(t, 5)) }

// TestArenaOnPostgres: the same on PostgreSQL.
func TestArenaOnPostgres(t *testing.T) { arenaRun(t, newPostgresWorld(t, 5)) }

// arenaRun: five players join a 10-minute arena with berserk. Wave 1 pairs
// four (one waits); director a dies after creating one of its two games,
// and b takes the arena over: it creates the missing game, not the other
// again, and the wave is unchanged. A berserk win scores 3; the finished
// players are paired again at once with the one who waited, never with
// their last opponent when another is free; a paused player is not paired;
// at the end no wave is paired, and the arena finishes only when its last
// game has ended, which counts.
func arenaRun(t *testing.T, w *world) {
	ctx := context.Background()
	as := w.db.(store.Arenas)
	if _, err := as.Arena(ctx, "none"); !errors.Is(err, store.ErrNotFound) {
		t.Fatalf("Arena of no tournament: %v (the arena tables missing?)", err)
	}
	var now atomic.Int64
	now.Store(t0.UnixMilli())
	clock := func() time.Time { return time.UnixMilli(now.Load()).UTC() }
	arena := store.Arena{Duration: 10 * time.Minute, Berserk: true}
	tr, err := director.Spec{Name: "Arena", Game: "sgolte", Start: t0, Clock: match.Clock{Kind: match.ClockRealtime, InitialMs: 600000}}.ArenaTournament(t0, arena)
	if err != nil {
		t.Fatal(err)
	}
	tr.ID, tr.CreatorID, tr.Created = "a1", w.users[0], t0
	if err := as.CreateArena(ctx, &tr, arena); err != nil {
		t.Fatal(err)
	}
	for _, u := range w.users {
		if _, err := w.db.JoinTournament(ctx, "a1", u, t0, tr.MaxPlayers); err != nil {
			t.Fatal(err)
		}
	}
	mk := func(node string, games director.Games) *director.Director {
		return director.New(director.Config{Store: w.db, Games: games, Node: node, Now: clock, Lease: 150 * time.Millisecond, Tick: 5 * time.Millisecond, Log: w.log})
	}
	a := mk("a", &flaky{Registry: w.reg, okCreates: 1})
	b := mk("b", w.reg)
	a.Step(ctx)
	rounds, _ := w.db.TournamentRounds(ctx, "a1")
	if len(rounds) != 1 || len(rounds[0].Boards) != 2 {
		t.Fatalf("wave 1: %v", rounds)
	}
	wave1 := fmt.Sprint(rounds[0])
	if _, err := w.db.Game(ctx, rounds[0].Boards[1].GameID); err == nil {
		t.Fatal("board 1's game exists though its creation failed")
	}
	deadline := time.Now().Add(10 * time.Second)
	for {
		b.Step(ctx)
		if _, ok := b.Owns("a1"); ok {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("b never took the arena over")
		}
		time.Sleep(10 * time.Millisecond)
	}
	rounds, _ = w.db.TournamentRounds(ctx, "a1")
	if len(rounds) != 1 || fmt.Sprint(rounds[0]) != wave1 {
		t.Fatalf("wave 1 changed in the takeover: %v, was %s", rounds, wave1)
	}
	for _, bd := range rounds[0].Boards {
		if m, err := w.db.Game(ctx, bd.GameID); err != nil || m.Status != match.Live {
			t.Fatalf("board %d after the takeover: %v %v", bd.Board, m.Status, err)
		}
	}
	// Board 0: White berserks and wins. Board 1: Black wins.
	b0, b1 := rounds[0].Boards[0], rounds[0].Boards[1]
	if _, err := w.reg.Do(ctx, b0.GameID, match.Command{Kind: match.CmdBerserk, User: match.User{ID: b0.White}}); err != nil {
		t.Fatal(err)
	}
	if err := as.SetGameBerserk(ctx, b0.GameID, 0); err != nil {
		t.Fatal(err)
	}
	resign := func(gameID string, uid int64) {
		t.Helper()
		if _, err := w.reg.Do(ctx, gameID, match.Command{Kind: match.CmdResign, User: match.User{ID: uid}, Ply: -1}); err != nil {
			t.Fatal(err)
		}
	}
	resign(b0.GameID, b0.Black)
	now.Add(1000)
	resign(b1.GameID, b1.White)
	b.Step(ctx)
	rounds, _ = w.db.TournamentRounds(ctx, "a1")
	if len(rounds) != 2 || len(rounds[1].Boards) != 2 {
		t.Fatalf("wave 2: %v", rounds)
	}
	lastOpp := map[int64]int64{b0.White: b0.Black, b0.Black: b0.White, b1.White: b1.Black, b1.Black: b1.White}
	for _, bd := range rounds[1].Boards {
		if lastOpp[bd.White] == bd.Black {
			t.Fatalf("wave 2 %v repeats a pairing of wave 1 %v", rounds[1], rounds[0])
		}
	}
	line := func(uid int64) director.ArenaLine {
		t.Helper()
		players, _ := w.db.TournamentPlayers(ctx, "a1")
		rounds, _ := w.db.TournamentRounds(ctx, "a1")
		games, _ := as.ArenaGames(ctx, "a1")
		st, err := director.ArenaStandings(&tr, players, rounds, games)
		if err != nil {
			t.Fatal(err)
		}
		for _, l := range st {
			if players[l.Player].UserID == uid {
				return l
			}
		}
		t.Fatalf("user %d not in the standings", uid)
		return director.ArenaLine{}
	}
	if l := line(b0.White); l.Points != 3 || l.Berserks != 1 || l.Streak != 1 {
		t.Fatalf("the berserk winner: %+v", l)
	}
	if l := line(b1.Black); l.Points != 2 || l.Berserks != 0 {
		t.Fatalf("the other winner: %+v", l)
	}
	// Pause someone who is playing: when their game ends, they wait.
	p := rounds[1].Boards[0]
	if err := as.SetArenaPaused(ctx, "a1", p.White, true); err != nil {
		t.Fatal(err)
	}
	resign(p.GameID, p.Black)
	b.Step(ctx)
	rounds, _ = w.db.TournamentRounds(ctx, "a1")
	for _, r := range rounds[2:] {
		for _, bd := range r.Boards {
			if bd.White == p.White || bd.Black == p.White {
				t.Fatalf("the paused player was paired: %v", r)
			}
		}
	}
	// The end: the game in progress counts, then the arena finishes.
	now.Store(t0.Add(10 * time.Minute).UnixMilli())
	before := len(rounds)
	b.Step(ctx)
	tn, _ := w.db.Tournament(ctx, "a1")
	rounds, _ = w.db.TournamentRounds(ctx, "a1")
	if tn.Status != store.TournamentRunning || len(rounds) != before {
		t.Fatalf("at the end with games on: %s, %d waves (was %d)", tn.Status, len(rounds), before)
	}
	var pending []store.TournamentBoard
	for _, r := range rounds {
		for _, bd := range r.Boards {
			if bd.Result == store.BoardPending {
				pending = append(pending, bd)
			}
		}
	}
	if len(pending) == 0 {
		t.Fatal("no game in progress at the end")
	}
	for _, bd := range pending {
		resign(bd.GameID, bd.Black)
	}
	b.Step(ctx)
	if tn, _ = w.db.Tournament(ctx, "a1"); tn.Status != store.TournamentFinished {
		t.Fatalf("after the last game: %s", tn.Status)
	}
	games, _ := as.ArenaGames(ctx, "a1")
	finished := 0
	for _, r := range rounds {
		finished += len(r.Boards)
	}
	if len(games) != finished {
		t.Fatalf("%d arena games kept, %d boards played", len(games), finished)
	}
	if l := line(pending[0].White); l.Games == 0 || l.Wins == 0 {
		t.Fatalf("the game that ended after the end did not count: %+v", l)
	}
}
