package tournament

import (
	"bytes"
	"slices"
	"strings"
	"testing"
)

// A four-player round robin worked by hand: 1-4 1-0, 2-3 ½; 4-3 0-1,
// 1-2 ½; 2-4 1-0, 3-1 0-1. Points 2½, 2, 1½, 0; Buchholz 3½, 4, 4½, 6;
// cut 1: 3½, 4, 4½, 4½; Sonneborn-Berger 2½, 2, 1, 0; wins 2, 1, 1, 0.
func fourPlayerRounds() []Round {
	return []Round{
		{Pairings: []Pairing{{0, 3, WhiteWins}, {1, 2, Draw}}},
		{Pairings: []Pairing{{3, 2, BlackWins}, {0, 1, Draw}}},
		{Pairings: []Pairing{{1, 3, WhiteWins}, {2, 0, BlackWins}}},
	}
}

func TestStandingsWorkedExample(t *testing.T) {
	st, err := Standings(4, fourPlayerRounds(), []TieBreak{Buchholz, BuchholzCut1, SonnebornBerger, Wins})
	if err != nil {
		t.Fatal(err)
	}
	want := map[int][]float64{
		0: {2.5, 3.5, 3.5, 2.5, 2},
		1: {2, 4, 4, 2, 1},
		2: {1.5, 4.5, 4.5, 1, 1},
		3: {0, 6, 4.5, 0, 0},
	}
	for i, s := range st {
		if s.Rank != i+1 || s.Player != i {
			t.Fatalf("line %d: player %d rank %d", i, s.Player+1, s.Rank)
		}
		got := append([]float64{s.Points}, s.TieBreaks...)
		if !slices.Equal(got, want[s.Player]) {
			t.Errorf("player %d: %v, want %v", s.Player+1, got, want[s.Player])
		}
	}
	if st[0].Wins != 2 || st[0].Draws != 1 || st[0].Losses != 0 || st[3].Losses != 3 {
		t.Fatalf("counts: %+v / %+v", st[0], st[3])
	}
}

// A bye counts as an opponent with the player's own score for Buchholz, and
// direct encounter separates two players tied on points when they have met.
func TestStandingsByesAndDirectEncounter(t *testing.T) {
	// three players, one bye a round: everyone ends on 2 points
	rounds := []Round{
		{Pairings: []Pairing{{0, 1, WhiteWins}}, Byes: []int{2}},
		{Pairings: []Pairing{{1, 2, WhiteWins}}, Byes: []int{0}},
		{Pairings: []Pairing{{2, 0, WhiteWins}}, Byes: []int{1}},
	}
	st, err := Standings(3, rounds, []TieBreak{Buchholz, SonnebornBerger, DirectEncounter})
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range st {
		if s.Points != 2 || !slices.Equal(s.TieBreaks, []float64{6, 2, 1}) || s.Rank != 1 || s.Byes != 1 {
			t.Fatalf("%+v: want 2 points, Buchholz 6, SB 2, DE 1, shared first place", s)
		}
	}
	rounds = []Round{
		{Pairings: []Pairing{{0, 1, WhiteWins}, {2, 3, WhiteWins}}},
		{Pairings: []Pairing{{0, 2, BlackWins}, {1, 3, WhiteWins}}},
	}
	st, err = Standings(4, rounds, []TieBreak{DirectEncounter})
	if err != nil {
		t.Fatal(err)
	}
	var order []int
	for _, s := range st {
		order = append(order, s.Player+1)
	}
	if !slices.Equal(order, []int{3, 1, 2, 4}) || st[1].TieBreaks[0] != 1 || st[2].TieBreaks[0] != 0 {
		t.Fatalf("order %v (%+v): want 3, 1 (beat 2), 2, 4", order, st)
	}
	if _, err := Standings(2, nil, []TieBreak{"coin"}); err == nil {
		t.Fatal("an unknown tie-break was accepted")
	}
	if _, err := Standings(2, []Round{{Pairings: []Pairing{{0, 5, Draw}}}}, nil); err == nil {
		t.Fatal("a player out of range was accepted")
	}
}

func TestTRFLayout(t *testing.T) {
	rounds := []Round{
		{Pairings: []Pairing{{0, 1, WhiteWins}}, Byes: []int{2}},
		{Pairings: []Pairing{{1, 2, Draw}}}, // player 1 absent
		{Pairings: []Pairing{{2, 0, Pending}}},
	}
	players := []TRFPlayer{{Name: "Ada", Rating: 1850, Federation: "KOR"}, {Name: "Bolor"}, {Name: "Cyd\nX"}}
	var buf bytes.Buffer
	err := WriteTRF(&buf, TRFInfo{Name: "Evening Swiss", Start: "2026/12/01", Rounds: 5}, players, rounds)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSuffix(buf.String(), "\n"), "\n")
	if lines[0] != "012 Evening Swiss" || !slices.Contains(lines, "XXR 5") || !slices.Contains(lines, "062 3") || !slices.Contains(lines, "072 1") {
		t.Fatalf("header: %q", lines)
	}
	var p1, p3 string
	for _, l := range lines {
		if strings.HasPrefix(l, "001    1") {
			p1 = l
		}
		if strings.HasPrefix(l, "001    3") {
			p3 = l
		}
	}
	// columns as the TRF-16 spec counts them, from 1
	col := func(l string, from, to int) string {
		if len(l) < to {
			l += strings.Repeat(" ", to-len(l))
		}
		return l[from-1 : to]
	}
	checks := []struct{ got, want string }{
		{col(p1, 15, 47), "Ada" + strings.Repeat(" ", 30)},
		{col(p1, 49, 52), "1850"},
		{col(p1, 54, 56), "KOR"},
		{col(p1, 81, 84), " 1.0"},
		{col(p1, 86, 89), "   2"},
		{col(p1, 92, 99), "   2 w 1"},
		{col(p1, 102, 109), "0000 - Z"},
		{col(p1, 112, 119), "   3 b  "},
		{col(p3, 15, 47), "Cyd X" + strings.Repeat(" ", 28)},
		{col(p3, 81, 84), " 1.5"},
		{col(p3, 86, 89), "   1"},
		{col(p3, 92, 99), "0000 - U"},
		{col(p3, 102, 109), "   2 b ="},
		{col(p3, 112, 119), "   1 w  "},
	}
	for i, c := range checks {
		if c.got != c.want {
			t.Errorf("check %d: %q, want %q\n%s", i, c.got, c.want, buf.String())
		}
	}
}
