package tournament

import (
	"bytes"
	"errors"
	"strings"
	"testing"
)

// A board won by forfeit is not a game: the two have not met (FIDE's
// Dutch rules, C.1, forbid meeting twice in a game played), so two players
// whose only board was a forfeit may be paired again, and neither has a
// colour from it — round 2 allocates colours as if round 1 had not been
// (E.5: the higher ranked, TPN 1, takes the initial White).
func TestDutchForfeitIsNoGame(t *testing.T) {
	r1 := Round{Pairings: []Pairing{{1, 0, BlackForfeit}}}
	r2, err := PairSwiss(2, []Round{r1}, all(2), SwissOptions{})
	if err != nil {
		t.Fatalf("after a forfeit the two may meet: %v", err)
	}
	wantRound(t, r2, "1-2")
	h := histories(2, []Round{r1})
	if h[0].colour[0] != noColour || h[1].colour[0] != noColour || h[0].score != 2 || h[1].score != 0 || h[0].wins != 0 {
		t.Fatalf("the forfeit's record: %+v %+v", h[0], h[1])
	}
	// The same board played is a game: the two may not meet again.
	r1.Pairings[0].Result = BlackWins
	if _, err := PairSwiss(2, []Round{r1}, all(2), SwissOptions{}); !errors.Is(err, ErrNoPairing) {
		t.Fatalf("a rematch of a game played: %v", err)
	}
}

// A forfeit win rules out the pairing-allocated bye as a bye does (C.2:
// "a player who has already received a pairing-allocated bye, or has
// already scored a (forfeit) win due to an opponent not appearing in
// time, shall not receive the pairing-allocated bye"). Of three players,
// 1 won by forfeit against 2 in round 1 and 3 had the bye; round 2 can
// give the bye to 2 alone; round 3 has nobody left to take it.
func TestDutchForfeitWinnerGetsNoBye(t *testing.T) {
	rounds := []Round{{Pairings: []Pairing{{0, 1, WhiteForfeit}}, Byes: []int{2}}}
	r2, err := PairSwiss(3, rounds, all(3), SwissOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if len(r2.Byes) != 1 || r2.Byes[0] != 1 {
		t.Fatalf("round 2 %v: the bye must go to 2", tpn(t, r2))
	}
	r2.Pairings[0].Result = Draw
	rounds = append(rounds, r2)
	if r3, err := PairSwiss(3, rounds, all(3), SwissOptions{}); !errors.Is(err, ErrNoPairing) {
		t.Fatalf("round 3 %v (%v): nobody may take the bye", tpn(t, r3), err)
	}
}

// A requested half-point bye: the player is not paired that round,
// scores ½, has no colour and no opponent (Buchholz counts FIDE's dummy
// opponent, on the player's own score), is not absent and has no
// pairing-allocated bye; the TRF writes "0000 - H".
func TestHalfPointBye(t *testing.T) {
	// Round 1: 1-2 won by White, 3 asked for a half-point bye, 4 absent.
	// Round 2: 3-1 drawn, 4-2 won by Black... by forfeit.
	rounds := []Round{
		{Pairings: []Pairing{{0, 1, WhiteWins}}, HalfByes: []int{2}},
		{Pairings: []Pairing{{2, 0, Draw}, {3, 1, BlackForfeit}}},
	}
	st, err := Standings(4, rounds, SwissTieBreaks)
	if err != nil {
		t.Fatal(err)
	}
	by := map[int]Standing{}
	for _, s := range st {
		by[s.Player] = s
	}
	// 1: 1.5 (a win, a draw); 2: 1 (a loss, a forfeit win); 3: 1 (½ + ½);
	// 4: 0 (absent, a forfeit lost).
	for p, want := range []float64{1.5, 1, 1, 0} {
		if by[p].Points != want {
			t.Fatalf("player %d: %v points, want %v (%+v)", p+1, by[p].Points, want, by[p])
		}
	}
	if s := by[2]; s.Byes != 0 || s.Absent != 0 || s.Played != 1 {
		t.Fatalf("player 3 after a half-point bye: %+v", s)
	}
	if s := by[1]; s.Wins != 0 || s.Played != 1 || s.Absent != 0 {
		t.Fatalf("player 2 after a forfeit win (no game over the board): %+v", s)
	}
	if s := by[3]; s.Absent != 2 || s.Played != 0 {
		t.Fatalf("player 4, absent then forfeited: %+v", s)
	}
	// Buchholz of 3: round 1 the dummy (own score 1), round 2 player 1
	// (1.5): 2.5.
	if got := by[2].TieBreaks[0]; got != 2.5 {
		t.Fatalf("player 3's Buchholz %v, want 2.5", got)
	}
	// Buchholz of 2: round 1 player 1 (1.5), round 2 the dummy (own
	// score 1): 2.5.
	if got := by[1].TieBreaks[0]; got != 2.5 {
		t.Fatalf("player 2's Buchholz %v, want 2.5", got)
	}
	var buf bytes.Buffer
	if err := WriteTRF(&buf, TRFInfo{Name: "H"}, make([]TRFPlayer, 4), rounds); err != nil {
		t.Fatal(err)
	}
	_, lines, err := readTRFSpec(buf.String())
	if err != nil {
		t.Fatal(err)
	}
	want := map[int][2]trfCell{
		1: {{2, 'w', '1'}, {3, 'b', '='}},
		2: {{1, 'b', '0'}, {4, 'b', '+'}},
		3: {{0, '-', 'H'}, {1, 'w', '='}},
		4: {{0, '-', 'Z'}, {2, 'w', '-'}},
	}
	for _, l := range lines {
		if w := want[l.rank]; len(l.cells) != 2 || l.cells[0] != w[0] || l.cells[1] != w[1] {
			t.Fatalf("TRF line of %d: %+v, want %+v\n%s", l.rank, l.cells, w, buf.String())
		}
	}
	// The next round: 3 has ½ + ½ and no colour from round 1.
	r3, err := PairSwiss(4, rounds, all(4), SwissOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(strings.Join(tpn(t, r3), " "), "-") || len(r3.Pairings) != 2 {
		t.Fatalf("round 3 %v", tpn(t, r3))
	}
}
