package skjuub

import (
	"strings"
	"testing"

	"github.com/tabula-games/tabula/game"
)

// everyToken lists every action token the notation can write on a 6×6
// board, legal or not.
func everyToken() []string {
	var out []string
	for sq := 0; sq < numSquares; sq++ {
		n := squareName(sq)
		for _, d := range "NESW" {
			out = append(out, n+string(d))
		}
		out = append(out, "^"+n, n+">", n+"<")
		for to := 0; to < numSquares; to++ {
			if lineDir(sq, to) >= 0 {
				out = append(out, n+"-"+squareName(to))
			}
			if dirBetween(sq, to) >= 0 {
				out = append(out, n+"~"+squareName(to))
			}
		}
	}
	return append(out, "pass")
}

// fallbacks are the answers that name no rule.
var fallbacks = []string{"it is not legal here", "would make the position invalid"}

// TestWhyIllegalNamesARule: in positions of random games under every
// option that changes legality, every action the notation can write that
// is not legal gets a reason that names a rule, never a fallback.
func TestWhyIllegalNamesARule(t *testing.T) {
	tokens := everyToken()
	variants := []game.Options{nil, {"edge": "closed"}, {"opposite_overhangs": "forbid"}, {"tumble": "sweep"}, {"backtrack": "any"}}
	for vi, opts := range variants {
		rng := game.NewRNG(uint64(100 + vi))
		checked := 0
		for g := 0; g < 6; g++ {
			st, err := Game.New(opts, 0)
			if err != nil {
				t.Fatal(err)
			}
			s := st.(*State)
			for ply := 0; ply < 120 && !s.Outcome().Over(); ply++ {
				if ply%3 == 0 {
					legal := map[string]bool{}
					for _, m := range s.Legal(nil) {
						legal[s.FormatMove(m)] = true
					}
					for _, tok := range tokens {
						if legal[tok] {
							continue
						}
						_, err := s.ParseMove(tok)
						if err == nil {
							if strings.HasPrefix(tok, "^") {
								continue // a pick-up is listed with its direction
							}
							t.Fatalf("%s: ParseMove accepts %s, which Legal does not list", opts, tok)
						}
						for _, f := range fallbacks {
							if strings.HasSuffix(err.Error(), f) {
								pos, _ := s.MarshalPosition()
								t.Fatalf("%s: %s explained only as %q in %s", opts, tok, f, pos)
							}
						}
						checked++
					}
				}
				ms := s.Legal(nil)
				s.Play(ms[rng.IntN(len(ms))])
			}
		}
		if checked < 10000 {
			t.Fatalf("%s: only %d illegal actions checked", opts, checked)
		}
	}
}

// TestWhyIllegalReasons: the reasons of the spec's test facts, as a learner
// reads them.
func TestWhyIllegalReasons(t *testing.T) {
	s := setup{pieces: "d4:2N a3:1N"}.load(t)
	s2, _ := Game.New(nil, 0)
	mustPlay(t, s2, "b2N f6E b2-b5 f1W")
	s3, _ := Game.New(nil, 0)
	mustPlay(t, s3, "b2E c4S")
	cases := []struct {
		st   game.State
		move string
		want string
	}{
		{s, "d3N", "would make player 2's active skjuub on d4 inactive"},
		{s, "d5E", "under the top of the skjuub on d4, which leans N"},
		{s, "d4-d1", "not yours"},
		{s, "pass", "only as a bonus action"},
		{s, "a3~a5", "unreadable"}, // not next to a3
		{s2, "b5-b2", "undo your last action b2-b5 (no backtracking)"},
		{s3, "b2~a2", "legal"}, // the backward tumble
		{s3, "b2~b3", "tumbles only forward (c2) or backward (a2)"},
		{s3, "a1N", "legal"},
		{s3, "c2W", "top poking into the skjuub on b2, which leans E"},
		{s3, "c1N", "top meet the top of the skjuub on b2 over the empty square c2, in its corner"},
	}
	for _, tc := range cases {
		_, err := tc.st.ParseMove(tc.move)
		switch {
		case tc.want == "legal":
			if err != nil {
				t.Errorf("%s: %v, want it legal", tc.move, err)
			}
		case err == nil:
			t.Errorf("%s accepted", tc.move)
		case !strings.Contains(err.Error(), tc.want):
			t.Errorf("%s: %v, want it to say %q", tc.move, err, tc.want)
		}
	}
}
