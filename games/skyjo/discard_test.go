package skyjo

import (
	"strconv"
	"testing"

	"github.com/tabula-games/tabula/game"
)

// checkDiscardCount fails unless s.discCount is the pile counted afresh.
func checkDiscardCount(t *testing.T, s *State, where string) {
	t.Helper()
	var want [15]uint8
	for _, c := range s.disc[:s.discN] {
		want[c+2]++
	}
	if s.discCount != want {
		t.Fatalf("%s: discCount %v, the pile %v counts %v", where, s.discCount, s.disc[:s.discN], want)
	}
}

// TestDiscardCountFollowsThePile plays random games of every size, with and
// without column removal, and checks the kept count of the discard pile
// after every ply, after a position round trip, in a sampled world and in a
// replayed record — through takes, discards, removed columns, reshuffles
// and new deals.
func TestDiscardCountFollowsThePile(t *testing.T) {
	rng := game.NewRNG(5)
	reshuffled, removed, rounds := false, false, false
	for g := 0; g < 60; g++ {
		opts := game.Options{"players": strconv.Itoa(2 + g%7), "columns": []string{"on", "off"}[g/7%2]}
		s, err := NewState(opts, uint64(g))
		if err != nil {
			t.Fatal(err)
		}
		w := &State{}
		var moves []string
		for ply := 0; !s.Outcome().Over(); ply++ {
			ms := s.Legal(nil)
			m := ms[rng.IntN(len(ms))]
			moves = append(moves, s.FormatMove(m))
			s.Play(m)
			checkDiscardCount(t, s, "after a ply")
			reshuffled = reshuffled || s.reshuffles > 0
			removed = removed || s.gone[0]|s.gone[1] != 0
			rounds = rounds || s.round > 1
			if ply%25 != 0 || s.Outcome().Over() {
				continue
			}
			data, err := s.MarshalPosition()
			if err != nil {
				t.Fatal(err)
			}
			back, err := Skyjo.ParsePosition(data)
			if err != nil {
				t.Fatal(err)
			}
			checkDiscardCount(t, back.(*State), "parsed position")
			s.Determinize(w, int(s.toMove), &rng)
			checkDiscardCount(t, w, "sampled world")
		}
		// A record replayed to the middle of the game, where the pile of
		// the replayed deals and reshuffles is in play.
		r, err := ReplayRecord(opts, s.ChanceRecord(), moves[:len(moves)/2])
		if err != nil {
			t.Fatal(err)
		}
		checkDiscardCount(t, r, "replayed record")
	}
	if !reshuffled || !removed || !rounds {
		t.Fatalf("the games never reshuffled (%v), removed a column (%v) or dealt a new round (%v)", reshuffled, removed, rounds)
	}
}
