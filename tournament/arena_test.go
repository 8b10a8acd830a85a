package tournament

import (
	"errors"
	"slices"
	"testing"
)

// Player 1's evening, worked by hand: W W W(on fire: 4) D(on fire: 2) W L
// W+berserk(3) W+berserk(3) W+berserk on fire (4+1): 23 points.
func TestArenaStreaksAndBerserk(t *testing.T) {
	seq := []struct {
		res     Result // from player 0's side, as White
		berserk bool
	}{
		{WhiteWins, false}, {WhiteWins, false}, {WhiteWins, false}, {Draw, false}, {WhiteWins, false},
		{BlackWins, false}, {WhiteWins, true}, {WhiteWins, true}, {WhiteWins, true},
	}
	var games []ArenaGame
	for i, s := range seq {
		games = append(games, ArenaGame{White: 0, Black: i + 1, Result: s.res, WhiteBerserk: s.berserk, BlackBerserk: i == 5})
	}
	st, err := ArenaStandings(10, games, ArenaOptions{Clock: true})
	if err != nil {
		t.Fatal(err)
	}
	top := st[0]
	if top.Player != 0 || top.Points != 23 || !slices.Equal(top.Sheet, []int{2, 2, 4, 2, 2, 0, 3, 3, 5}) || !top.OnFire {
		t.Fatalf("%+v", top)
	}
	if top.Wins != 7 || top.Draws != 1 || top.Losses != 1 || top.Berserks != 3 || top.Games != 9 {
		t.Fatalf("counts %+v", top)
	}
	// the player who beat 1 in game 6 berserked: 2 + 1
	for _, s := range st {
		want := map[int]int{4: 1, 6: 3}[s.Player]
		if s.Player != 0 && s.Points != want {
			t.Fatalf("player %d: %d points, want %d", s.Player+1, s.Points, want)
		}
	}
	if st[1].Player != 6 || st[1].Rank != 2 || st[2].Player != 4 || st[3].Rank != 4 || st[9].Rank != 4 {
		t.Fatalf("order %+v", st)
	}
	// a berserk draw or loss earns no bonus; nothing is doubled before two wins
	if ArenaPoints(1, false, true) != 1 || ArenaPoints(0, true, true) != 0 || ArenaPoints(2, false, true) != 3 || ArenaPoints(1, true, false) != 2 {
		t.Fatal("ArenaPoints")
	}
	if _, err := ArenaStandings(10, games, ArenaOptions{}); !errors.Is(err, ErrInput) {
		t.Fatalf("berserk without a clock: %v", err)
	}
	if _, err := ArenaStandings(2, []ArenaGame{{0, 0, WhiteWins, false, false}}, ArenaOptions{}); err == nil {
		t.Fatal("a game against oneself was accepted")
	}
}

func TestPairArenaNearAndNoImmediateRematch(t *testing.T) {
	w := []ArenaWaiting{
		{Player: 0, Points: 10, LastOpponent: 1},
		{Player: 1, Points: 9, LastOpponent: 0},
		{Player: 2, Points: 4, LastOpponent: -1},
		{Player: 3, Points: 3, LastOpponent: -1},
	}
	got := PairArena(w)
	set := map[[2]int]bool{}
	for _, p := range got {
		set[[2]int{min(p.White, p.Black), max(p.White, p.Black)}] = true
	}
	// 0-1 would be nearest, but they just met: 0-2 and 1-3 (cost 4+4)
	// beat 0-3 and 1-2 (9+1).
	if len(got) != 2 || !set[[2]int{0, 2}] || !set[[2]int{1, 3}] {
		t.Fatalf("%v", got)
	}
	// Only two free and they just met: they play again rather than wait.
	if got := PairArena(w[:2]); len(got) != 1 {
		t.Fatalf("%v", got)
	}
	// Near in score: with 6 players and no history, 1-2, 3-4, 5-6.
	var six []ArenaWaiting
	for p := 0; p < 6; p++ {
		six = append(six, ArenaWaiting{Player: p, Points: 20 - 3*p, LastOpponent: -1, Colour: p % 2})
	}
	got = PairArena(six)
	if len(got) != 3 {
		t.Fatalf("%v", got)
	}
	for _, p := range got {
		if max(p.White, p.Black)-min(p.White, p.Black) != 1 || p.White%2 != 0 {
			t.Fatalf("%v: want neighbours, White to the one with fewer whites", got)
		}
	}
	if got := PairArena(six[:5]); len(got) != 2 {
		t.Fatalf("5 players: %v", got)
	}
	if got := PairArena(append(six[:1:1], six[0])); len(got) != 0 {
		t.Fatalf("one player listed twice was paired with themselves: %v", got)
	}
}

func TestArenaPauseWithdrawComeBack(t *testing.T) {
	a := NewArena(ArenaOptions{})
	for p := 0; p < 4; p++ {
		if err := a.Join(p, 1500+p); err != nil {
			t.Fatal(err)
		}
	}
	if err := a.Pause(3); err != nil {
		t.Fatal(err)
	}
	prs, _ := a.Pair()
	if len(prs) != 1 {
		t.Fatalf("3 free players: %v", prs)
	}
	g := ArenaGame{White: prs[0].White, Black: prs[0].Black, Result: WhiteWins}
	if err := a.Withdraw(g.White); err != nil { // withdraws mid-game: the game counts
		t.Fatal(err)
	}
	if err := a.Finish(g); err != nil {
		t.Fatal(err)
	}
	if err := a.Finish(g); !errors.Is(err, ErrArena) {
		t.Fatalf("a game finished twice: %v", err)
	}
	if err := a.Finish(ArenaGame{White: 0, Black: 1, Result: WhiteWins, WhiteBerserk: true}); err == nil {
		t.Fatal("an unpaired game was accepted")
	}
	prs, _ = a.Pair() // the loser and the one left: 3 is paused, the winner gone
	if len(prs) != 1 || slices.Contains([]int{prs[0].White, prs[0].Black}, g.White) || slices.Contains([]int{prs[0].White, prs[0].Black}, 3) {
		t.Fatalf("%v", prs)
	}
	if err := a.Resume(3); err != nil {
		t.Fatal(err)
	}
	if err := a.Join(g.White, 1500); err != nil { // comes back with the points
		t.Fatal(err)
	}
	prs2, _ := a.Pair()
	if len(prs2) != 1 {
		t.Fatalf("%v", prs2)
	}
	a.End()
	if _, err := a.Pair(); !errors.Is(err, ErrArena) {
		t.Fatal("paired after the end")
	}
	// games in progress at the end still count
	for _, pr := range append(prs, prs2...) {
		if err := a.Finish(ArenaGame{White: pr.White, Black: pr.Black, Result: BlackWins}); err != nil {
			t.Fatal(err)
		}
	}
	st := a.Standings()
	total := 0
	for _, s := range st {
		total += s.Points
		if s.Player == g.White && s.Points < 2 {
			t.Fatalf("the withdrawn winner lost their points: %+v", s)
		}
	}
	if len(st) != 4 || total != 6 || a.Playing() != 0 || len(a.Games()) != 3 {
		t.Fatalf("standings %+v, %d playing", st, a.Playing())
	}
	if err := a.Pause(9); !errors.Is(err, ErrArena) {
		t.Fatal("pausing a stranger")
	}
	if err := a.Join(5, 0); !errors.Is(err, ErrArena) {
		t.Fatal("joined after the end")
	}
}
