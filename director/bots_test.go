package director_test

import (
	"context"
	"testing"

	"github.com/tabula-games/tabula/director"
	"github.com/tabula-games/tabula/match"
	"github.com/tabula-games/tabula/store"
)

// TestBotAccountPlaysSwissRound: a Swiss created with bots allowed takes a
// bot account beside three people; the director seats the bot in its game
// of round 1 as it seats anyone, the bot plays its moves there (as its
// connector does, through the game's commands as that user) and wins when
// its opponent resigns, and the next round is paired with the bot's point
// counted.
func TestBotAccountPlaysSwissRound(t *testing.T) {
	w := newWorld(t, 4)
	ctx := context.Background()
	bot := w.users[3]
	bs, ok := w.db.(store.BotAccounts)
	if !ok {
		t.Fatal("the store keeps no bot accounts")
	}
	if err := bs.MakeBot(ctx, bot); err != nil {
		t.Fatal(err)
	}
	tr, err := director.Spec{Name: "Bots welcome", Format: director.Swiss, Game: "sgolte", Rounds: 2, Start: t0, Rated: true, Bots: true,
		Clock: match.Clock{Kind: match.ClockRealtime, InitialMs: 600000}}.Tournament(t0)
	if err != nil {
		t.Fatalf("a Swiss that admits bots: %v", err)
	}
	if !tr.Bots {
		t.Fatal("the tournament forgot that it admits bots")
	}
	tr.ID, tr.CreatorID, tr.Created = "bots1", w.users[0], t0
	if err := w.db.CreateTournament(ctx, &tr); err != nil {
		t.Fatal(err)
	}
	for _, u := range w.users {
		if _, err := w.db.JoinTournament(ctx, tr.ID, u, t0, tr.MaxPlayers); err != nil {
			t.Fatal(err)
		}
	}
	d := w.director("a", w.reg)
	d.Step(ctx)
	rounds, err := w.db.TournamentRounds(ctx, tr.ID)
	if err != nil || len(rounds) != 1 || len(rounds[0].Boards) != 2 {
		t.Fatalf("round 1: %+v, %v", rounds, err)
	}
	var board store.TournamentBoard
	for _, b := range rounds[0].Boards {
		if b.White == bot || b.Black == bot {
			board = b
		}
	}
	if board.GameID == "" {
		t.Fatalf("the bot is on no board of round 1: %+v", rounds[0].Boards)
	}
	m, err := w.db.Game(ctx, board.GameID)
	if err != nil || m.Status != match.Live || m.SeatOf(bot) < 0 || m.Seats[m.SeatOf(bot)].Kind != match.SeatHuman {
		t.Fatalf("the bot's game %s: %+v, %v", board.GameID, m, err)
	}
	// The bot plays its moves until it has made two; then the person
	// resigns.
	seat, person := m.SeatOf(bot), board.White
	if person == bot {
		person = board.Black
	}
	for made := 0; made < 2; {
		snap, err := w.reg.Snapshot(ctx, board.GameID)
		if err != nil {
			t.Fatal(err)
		}
		mover, user := snap.Meta.ToMove, person
		if mover == seat {
			user = bot
		}
		legal := snap.State.Legal(nil)
		if _, err := w.reg.Do(ctx, board.GameID, match.Command{Kind: match.CmdMove, User: match.User{ID: user}, Seat: -1, Ply: snap.Meta.Ply,
			Move: snap.State.FormatMove(legal[len(legal)/2])}); err != nil {
			t.Fatalf("move by user %d: %v", user, err)
		}
		if user == bot {
			made++
		}
	}
	if _, err := w.reg.Do(ctx, board.GameID, match.Command{Kind: match.CmdResign, User: match.User{ID: person}, Ply: -1}); err != nil {
		t.Fatal(err)
	}
	w.finishLive(tr.ID) // the people's board
	for i := 0; i < 50; i++ {
		d.Step(ctx)
		if rounds, _ = w.db.TournamentRounds(ctx, tr.ID); len(rounds) == 2 {
			break
		}
	}
	if len(rounds) != 2 {
		t.Fatalf("round 2 was not paired: %+v", rounds)
	}
	players, _ := w.db.TournamentPlayers(ctx, tr.ID)
	standings, err := director.Standings(&tr, players, rounds)
	if err != nil {
		t.Fatal(err)
	}
	for _, st := range standings {
		if players[st.Player].UserID == bot && (st.Points != 1 || st.Wins != 1) {
			t.Fatalf("the bot's standing after its win: %+v", st)
		}
	}
	for _, b := range rounds[1].Boards {
		if (b.White == bot || b.Black == bot) && b.GameID != "" {
			if m, err := w.db.Game(ctx, b.GameID); err != nil || m.SeatOf(bot) < 0 {
				t.Fatalf("round 2's game of the bot %s: %+v, %v", b.GameID, m, err)
			}
			return
		}
	}
	t.Fatalf("the bot has no game in round 2: %+v", rounds[1].Boards)
}
