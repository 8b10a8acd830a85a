package agent

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/tabula-games/tabula/game"
	"github.com/tabula-games/tabula/games/skyjo"
)

// shuffleHidden returns a Skyjo state equal to s in everything a player can
// see but with its hidden cards — face-down grid cards and the deck order —
// dealt differently: the hidden values are collected, rotated by k places
// and put back. It edits the position JSON, so it relies on nothing inside
// the skyjo package.
func shuffleHidden(t *testing.T, s game.State, k int) game.State {
	t.Helper()
	data, err := s.MarshalPosition()
	if err != nil {
		t.Fatal(err)
	}
	var pos map[string]any
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	if err := dec.Decode(&pos); err != nil {
		t.Fatal(err)
	}
	// Collect every hidden value, remembering where it sits.
	type slot struct {
		set func(v string)
	}
	var values []string
	var slots []slot
	for _, p := range pos["players"].([]any) {
		for _, row := range p.(map[string]any)["grid"].([]any) {
			row := row.([]any)
			for i, c := range row {
				if str, ok := c.(string); ok && strings.HasPrefix(str, "?") {
					values = append(values, str[1:])
					slots = append(slots, slot{func(v string) { row[i] = "?" + v }})
				}
			}
		}
	}
	deck := pos["deck"].([]any)
	for i, c := range deck {
		values = append(values, c.(json.Number).String())
		slots = append(slots, slot{func(v string) { deck[i] = json.Number(v) }})
	}
	for i, sl := range slots {
		sl.set(values[(i+k)%len(values)])
	}
	out, err := json.Marshal(pos)
	if err != nil {
		t.Fatal(err)
	}
	s2, err := skyjo.Skyjo.ParsePosition(out)
	if err != nil {
		t.Fatalf("rearranged position does not parse: %v", err)
	}
	return s2
}

// TestSkyjoBotsAreHonest: two true states with the same public view but
// different hidden cards lead the same seeded bot to the same decision, at
// every decision of a game — so no bot can be reading what it must not see.
func TestSkyjoBotsAreHonest(t *testing.T) {
	specs := []string{"greedy", "easy", "mcts:iters=8", "mcts:iters=4:workers=2", "hard"}
	if testing.Short() {
		specs = specs[:4]
	}
	for _, spec := range specs {
		t.Run(spec, func(t *testing.T) {
			checked, mismatches := decideOnEqualViews(t, agentDecides(t, func(seed uint64) Agent {
				a, err := New(spec, skyjo.Skyjo, seed)
				if err != nil {
					t.Fatal(err)
				}
				return a
			}))
			for _, m := range mismatches {
				t.Error(m)
			}
			t.Logf("%d decisions compared on pairs of states with equal views", checked)
		})
	}
}

// TestHonestyTestCatchesAPeeker: the comparison catches a decision that
// reads the true state, so the honesty test can fail. The peeker here is
// handed the true state directly, as every bot was before the barrier was
// put into the Agent type.
func TestHonestyTestCatchesAPeeker(t *testing.T) {
	_, mismatches := decideOnEqualViews(t, func(_ uint64, s game.State) (string, error) {
		m, err := peek(s)
		return s.FormatMove(m), err
	})
	if len(mismatches) == 0 {
		t.Fatal("a decision that reads the hidden cards passed the honesty comparison")
	}
}

// TestAPeekingBotCannotPeek: the same peeking code written as an Agent
// reaches only what game.Observe hands it, and the comparison finds it
// honest: cheating cannot be written against the Agent type.
func TestAPeekingBotCannotPeek(t *testing.T) {
	_, mismatches := decideOnEqualViews(t, agentDecides(t, func(uint64) Agent { return peeker{} }))
	for _, m := range mismatches {
		t.Error(m)
	}
}

// peeker tries to cheat: it picks a legal move by a hash of the whole
// position it can reach, hidden cards included.
type peeker struct{}

func (peeker) Name() string { return "peeker" }

func (peeker) Choose(_ context.Context, obs game.Observation) (game.Move, error) {
	return peek(obs.World())
}

// peek picks a legal move of s by a hash of its full position JSON.
func peek(s game.State) (game.Move, error) {
	legal := s.Legal(nil)
	pos, err := s.MarshalPosition()
	if err != nil {
		return 0, err
	}
	h := uint64(14695981039346656037)
	for _, b := range pos {
		h = (h ^ uint64(b)) * 1099511628211
	}
	return legal[h%uint64(len(legal))], nil
}

// decider chooses a move (as text) for the seat to move in the true state s;
// seed seeds whatever randomness it has.
type decider func(seed uint64, s game.State) (string, error)

// agentDecides is how a bot decides in an arena or on the server: a fresh
// agent is handed the seat's observation of s, never s.
func agentDecides(t *testing.T, newAgent func(seed uint64) Agent) decider {
	return func(seed uint64, s game.State) (string, error) {
		obs, err := game.Observe(s, s.ToMove())
		if err != nil {
			t.Fatal(err)
		}
		a := newAgent(seed)
		defer Close(a)
		m, err := a.Choose(context.Background(), obs)
		return s.FormatMove(m), err
	}
}

// decideOnEqualViews plays a 3-player Skyjo game and, at every third
// decision, lets decide choose with the same seed on the true state and on
// a state with the same view and other hidden cards. It returns the number
// of decisions compared and a line for each that differed.
func decideOnEqualViews(t *testing.T, decide decider) (checked int, mismatches []string) {
	t.Helper()
	s, err := skyjo.NewState(game.Options{"players": "3"}, 11)
	if err != nil {
		t.Fatal(err)
	}
	rng := game.NewRNG(5)
	differed := 0
	for ply := 0; ply < 60 && !s.Outcome().Over(); ply++ {
		if ply%3 == 0 { // every third decision keeps the test quick
			other := shuffleHidden(t, s, 7+ply)
			v1, _ := s.View(s.ToMove())
			v2, _ := other.(game.HiddenInfo).View(s.ToMove())
			if !bytes.Equal(v1, v2) {
				t.Fatalf("ply %d: the rearranged state shows a different view", ply)
			}
			p1, _ := s.MarshalPosition()
			p2, _ := other.MarshalPosition()
			if !bytes.Equal(p1, p2) {
				differed++
			}
			seed := uint64(1000 + ply)
			m1, err1 := decide(seed, s)
			m2, err2 := decide(seed, other)
			if err1 != nil || err2 != nil {
				t.Fatalf("ply %d: %v %v", ply, err1, err2)
			}
			if m1 != m2 {
				mismatches = append(mismatches, fmt.Sprintf("ply %d: chose %q on one state and %q on another with the same view", ply, m1, m2))
			}
			checked++
		}
		s.Play(s.PolicyMove(&rng))
	}
	if differed == 0 {
		t.Fatal("the rearranged states never differed from the originals: the test proves nothing")
	}
	return checked, mismatches
}

// The same holds for the bot protocol: an outside program gets the view,
// which is byte-for-byte the same for the two states.
func TestExecRequestCarriesOnlyTheView(t *testing.T) {
	s, _ := skyjo.NewState(nil, 4)
	rng := game.NewRNG(1)
	for i := 0; i < 9; i++ {
		s.Play(s.PolicyMove(&rng))
	}
	other := shuffleHidden(t, s, 3)
	r1, _ := NewRequest(seen(s), 0)
	r2, _ := NewRequest(seen(other), 0)
	b1, _ := json.Marshal(r1)
	b2, _ := json.Marshal(r2)
	if !bytes.Equal(b1, b2) {
		t.Errorf("bot requests differ for states with the same view:\n%s\n%s", b1, b2)
	}
	if bytes.Contains(b1, []byte(`"deck":[`)) {
		t.Errorf("the request lists the deck: %s", b1)
	}
}
