package skjuub

// One test per test fact and ruling of the Skjuub rules (docs/rules/skjuub.md).

import (
	"encoding/json"
	"errors"
	"sort"
	"strings"
	"testing"

	"github.com/tabula-games/tabula/game"
)

// setup describes a position: pieces as "b2:1E" (square, player, direction).
type setup struct {
	pieces     string
	opts       game.Options
	toMove     int // 1 or 2; default 1
	turn       []int
	lastAction []string
	phase      string
	earnedBy   string
}

func (u setup) json() []byte {
	board := map[string]string{}
	count := [2]int{}
	for _, f := range strings.Fields(u.pieces) {
		sq, v, _ := strings.Cut(f, ":")
		board[sq] = v
		count[v[0]-'1']++
	}
	pj := map[string]any{
		"game": "skjuub", "board": board, "pool": []int{11 - count[0], 11 - count[1]},
	}
	if u.toMove == 0 {
		u.toMove = 1
	}
	pj["toMove"] = u.toMove
	if u.opts != nil {
		pj["options"] = u.opts
	}
	if u.turn != nil {
		pj["turn"] = u.turn
	} else if u.toMove == 1 {
		pj["turn"] = []int{3, 3}
	} else {
		pj["turn"] = []int{4, 3}
	}
	if u.lastAction != nil {
		pj["lastAction"] = u.lastAction
	}
	if u.phase != "" {
		pj["phase"] = u.phase
		pj["earnedBy"] = u.earnedBy
	}
	data, _ := json.Marshal(pj)
	return data
}

func (u setup) load(t *testing.T) *State {
	t.Helper()
	s, err := Game.ParsePosition(u.json())
	if err != nil {
		t.Fatalf("setup %q: %v", u.pieces, err)
	}
	return s.(*State)
}

// isValid reports whether the setup is a valid position.
func (u setup) isValid(t *testing.T) bool {
	t.Helper()
	_, err := Game.ParsePosition(u.json())
	if err != nil && !errors.Is(err, game.ErrPosition) {
		t.Fatalf("setup %q: unexpected error %v", u.pieces, err)
	}
	return err == nil
}

func sq(name string) int {
	s, ok := parseSquare(name)
	if !ok {
		panic(name)
	}
	return s
}

func isActive(s *State, name string) bool {
	return s.b.inactive()&(1<<uint(sq(name))) == 0
}

func legalTexts(s game.State) []string {
	var out []string
	for _, m := range s.Legal(nil) {
		out = append(out, s.FormatMove(m))
	}
	sort.Strings(out)
	return out
}

func hasMove(s game.State, txt string) bool {
	_, err := s.ParseMove(txt)
	return err == nil
}

func mustPlay(t *testing.T, s game.State, moves string) {
	t.Helper()
	for _, m := range strings.Fields(moves) {
		if err := game.Play(s, m); err != nil {
			t.Fatalf("%s: %v (legal: %v)", m, err, legalTexts(s))
		}
	}
}

// Fact 1: b2:E, c2:E → both inactive. b2:N, c2:N → both inactive.
func TestFact1SameDirectionNeighboursConnect(t *testing.T) {
	for _, pieces := range []string{"b2:1E c2:2E", "b2:1N c2:2N"} {
		s := setup{pieces: pieces}.load(t)
		if isActive(s, "b2") || isActive(s, "c2") {
			t.Errorf("%s: want both inactive", pieces)
		}
	}
}

// Fact 2: b2:N, c2:S → both active (mirror rhombi).
func TestFact2MirrorRhombiAreFree(t *testing.T) {
	s := setup{pieces: "b2:1N c2:2S"}.load(t)
	if !isActive(s, "b2") || !isActive(s, "c2") {
		t.Error("want both active")
	}
}

// Fact 3: b2:E, c2:N → invalid (E overhang pokes into c2). b2:W, c2:E →
// valid, both active.
func TestFact3OverhangIntoAPieceCollides(t *testing.T) {
	if (setup{pieces: "b2:1E c2:2N"}).isValid(t) {
		t.Error("b2:E c2:N accepted")
	}
	s := setup{pieces: "b2:1W c2:2E"}.load(t)
	if !isActive(s, "b2") || !isActive(s, "c2") {
		t.Error("b2:W c2:E: want both active")
	}
}

// Fact 4: b2:E, c3:S → invalid (perpendicular overhangs meet over the empty c2).
func TestFact4PerpendicularOverhangsMeet(t *testing.T) {
	if (setup{pieces: "b2:1E c3:2S"}).isValid(t) {
		t.Error("b2:E c3:S accepted")
	}
}

// Fact 5: a2:E, c2:W, b2 empty → valid by default; invalid with
// opposite_overhangs=forbid.
func TestFact5OppositeOverhangsOption(t *testing.T) {
	if !(setup{pieces: "a2:1E c2:2W"}).isValid(t) {
		t.Error("default: a2:E c2:W rejected")
	}
	if (setup{pieces: "a2:1E c2:2W", opts: game.Options{"opposite_overhangs": "forbid"}}).isValid(t) {
		t.Error("forbid: a2:E c2:W accepted")
	}
}

// Fact 6: tumble b2:E forward → c2:W; backward → a2:W.
func TestFact6TumbleFlipsTheOverhang(t *testing.T) {
	for _, c := range []struct{ move, dest string }{{"b2~c2", "c2"}, {"b2~a2", "a2"}} {
		s := setup{pieces: "b2:1E f6:2N"}.load(t)
		mustPlay(t, s, c.move)
		if p, d := s.b.at(sq(c.dest)); p != 0 || d != west {
			t.Errorf("%s: %s holds player %d dir %d, want 1W", c.move, c.dest, p+1, d)
		}
		if p, _ := s.b.at(sq("b2")); p != -1 {
			t.Errorf("%s: b2 not empty", c.move)
		}
	}
}

// Fact 7: player 2 has d4:N active; player 1 slides a3:N east to d3 → d3
// (facing N) connects to d4: d4 is captured, d3 sacrificed, player 1 takes a
// bonus action.
func TestFact7SlideSacrificesAndCaptures(t *testing.T) {
	s := setup{pieces: "a3:1N d4:2N"}.load(t)
	if !isActive(s, "d4") {
		t.Fatal("d4 should start active")
	}
	mustPlay(t, s, "a3-d3")
	if isActive(s, "d4") || isActive(s, "d3") {
		t.Error("d3 and d4 should be inactive")
	}
	if s.ToMove() != 0 || !s.inBonus() || s.sacrificed() != sq("d3") {
		t.Errorf("want player 1 in the bonus phase with d3 sacrificed; toMove %d pending %q", s.ToMove(), formatMove(s.pending))
	}
}

// Fact 8: player 2 has d4:N active; player 1 may not place d3N or e4N
// (would make d4 inactive); may place d3E; may place nothing on d5.
func TestFact8PlacementNeverInactivatesAnActiveOpponent(t *testing.T) {
	s := setup{pieces: "d4:2N a1:1S"}.load(t)
	for _, m := range []string{"d3N", "e4N"} {
		if hasMove(s, m) {
			t.Errorf("%s allowed", m)
		}
	}
	if !hasMove(s, "d3E") {
		t.Error("d3E refused")
	}
	for _, d := range "NESW" {
		if m := "d5" + string(d); hasMove(s, m) {
			t.Errorf("%s allowed", m)
		}
	}
	// d5N is only refused because it would connect to d4: it is a valid
	// position, which an own piece may take.
	s2 := setup{pieces: "d4:1N a1:2S"}.load(t)
	if !hasMove(s2, "d5N") {
		t.Error("own d5N refused")
	}
}

// Fact 9: player 1 slid its N piece b2-b5 last turn (no bonus). This turn
// b5-b2 is illegal unless it captures; b5~b6 and other slides of that piece
// are legal.
func TestFact9NoBacktracking(t *testing.T) {
	s, _ := Game.New(nil, 0)
	mustPlay(t, s, "b2N f6E b2-b5 f1W")
	if hasMove(s, "b5-b2") {
		t.Error("b5-b2 allowed")
	}
	for _, m := range []string{"b5~b6", "b5~b4", "b5-b3", "b5-e5", "b5-a5"} {
		if !hasMove(s, m) {
			t.Errorf("%s refused", m)
		}
	}
	// Capture exception: player 2 puts an active N piece beside b2, so
	// sliding back connects to it and captures it.
	s, _ = Game.New(nil, 0)
	mustPlay(t, s, "b2N f6E b2-b5 c2N")
	if !hasMove(s, "b5-b2") {
		t.Error("capturing b5-b2 refused")
	}
	mustPlay(t, s, "b5-b2")
	if isActive(s.(*State), "c2") || !s.(*State).inBonus() {
		t.Error("b5-b2 should capture c2 and earn a bonus")
	}
}

// Ruling: tumbling back to the previous square and direction is a reversal.
func TestBacktrackTumbleBack(t *testing.T) {
	s, _ := Game.New(nil, 0)
	mustPlay(t, s, "b2E f6N b2~c2 f1S")
	if hasMove(s, "c2~b2") {
		t.Error("c2~b2 allowed after b2~c2")
	}
	if !hasMove(s, "c2~d2") {
		t.Error("the other tumble c2~d2 refused")
	}
}

// Ruling: alternating slides and tumbles of one piece is allowed (they never
// restore the position).
func TestBacktrackAlternatingSlideAndTumble(t *testing.T) {
	s, _ := Game.New(nil, 0)
	mustPlay(t, s, "b2E f6N b2-b4 f1S b4~c4 a6S c4-c2 a1N c2~b2")
}

// Ruling: placing a piece where the previous turn picked one up (same
// square and direction) is a reversal; picking up a piece placed last turn
// is allowed.
func TestBacktrackPickUpAndPlace(t *testing.T) {
	// Player 1 slides a3-d3 (sacrifice, bonus) and picks up f1 (placed the
	// turn before: allowed).
	s := setup{pieces: "a3:1N f1:1E b1:1S d4:2N a6:2S", lastAction: []string{"f1E", "a6S"}}.load(t)
	if !hasMove(s, "a3-d3") {
		t.Fatal("a3-d3 refused")
	}
	mustPlay(t, s, "a3-d3")
	if !hasMove(s, "^f1") {
		t.Fatal("picking up the piece placed last turn refused")
	}
	if hasMove(s, "^d3") {
		t.Error("picking up the sacrificed piece allowed")
	}
	mustPlay(t, s, "^f1 a6-a5")
	if hasMove(s, "f1E") {
		t.Error("placing f1E right back allowed")
	}
	if !hasMove(s, "f1N") || !hasMove(s, "e1E") {
		t.Error("other placements refused")
	}
}

// Ruling: with backtrack=main the bonus actions are free of the rule; with
// backtrack=any they are bound too.
func TestBacktrackOptionAny(t *testing.T) {
	for _, c := range []struct {
		opt  string
		want bool
	}{{"main", true}, {"any", false}} {
		// Player 1's previous turn ended by picking up f1 (an E piece);
		// this turn a3-d3 sacrifices and the bonus may or may not put it back.
		s := setup{pieces: "a3:1N d4:2N", lastAction: []string{"^f1E", "d4N"},
			opts: game.Options{"backtrack": c.opt}}.load(t)
		mustPlay(t, s, "a3-d3")
		if got := hasMove(s, "f1E"); got != c.want {
			t.Errorf("backtrack=%s: bonus f1E allowed = %v, want %v", c.opt, got, c.want)
		}
		if hasMove(s, "f1E") == false && !hasMove(s, "f1N") {
			t.Errorf("backtrack=%s: f1N refused", c.opt)
		}
	}
}

// Ruling: the main action may not be a pick-up, quarter turn or pass; the
// bonus offers them.
func TestBonusActionsOnlyAfterSacrifice(t *testing.T) {
	s := setup{pieces: "a3:1N f1:1E d4:2N"}.load(t)
	for _, m := range []string{"pass", "^f1", "f1>", "f1<"} {
		if hasMove(s, m) {
			t.Errorf("main action %s allowed", m)
		}
	}
	mustPlay(t, s, "a3-d3")
	for _, m := range []string{"pass", "^f1", "f1>", "f1<"} {
		if !hasMove(s, m) {
			t.Errorf("bonus %s refused", m)
		}
	}
}

// Ruling: a quarter-turned piece must stay active and the result be valid.
func TestQuarterTurnStaysActive(t *testing.T) {
	// After a3-d3 (sacrifice), player 1's b1:N piece: clockwise to E would
	// face c1:E and connect (not allowed); anticlockwise to W overhangs
	// past the edge... a1 (allowed).
	s := setup{pieces: "a3:1N d4:2N b1:1N c1:2E"}.load(t)
	mustPlay(t, s, "a3-d3")
	if hasMove(s, "b1>") {
		t.Error("b1> (would connect with c1:E) allowed")
	}
	if !hasMove(s, "b1<") {
		t.Error("b1< refused")
	}
	// A turn into a perpendicular overhang clash is invalid: b6:S
	// clockwise to W overhangs a6, which a5:N overhangs from below.
	s = setup{pieces: "a3:1N d4:2N b6:1S a5:2N"}.load(t)
	mustPlay(t, s, "a3-d3")
	if hasMove(s, "b6>") {
		t.Error("b6> (overhang clash over a6) allowed")
	}
}

// Ruling: a sacrificing bonus slide or tumble earns a further bonus; the
// chain ends with an action that earns none.
func TestBonusChain(t *testing.T) {
	s := setup{pieces: "a3:1N d4:2N a6:1E c6:2E f1:1S b1:2S"}.load(t)
	mustPlay(t, s, "a3-d3") // sacrifice, captures d4
	mustPlay(t, s, "a6-b6") // b6:E connects to c6:E: sacrifice again, captures c6
	st := s
	if st.ToMove() != 0 || st.sacrificed() != sq("b6") || isActive(st, "c6") {
		t.Fatalf("want a second bonus with b6 sacrificed and c6 captured")
	}
	if hasMove(s, "^b6") || !hasMove(s, "^d3") {
		t.Error("only the piece just sacrificed is protected from pick-up")
	}
	mustPlay(t, s, "f1-f2") // no connection: the turn ends
	if s.ToMove() != 1 || s.inBonus() {
		t.Fatal("turn should pass to player 2")
	}
	if got := formatLast(s.last[0]); got != "f1-f2" {
		t.Errorf("last action %q, want f1-f2", got)
	}
}

// Ruling: pass ends the chain and leaves the sacrificing move as the turn's
// last action; a placement in the bonus earns nothing.
func TestBonusPassAndPlacement(t *testing.T) {
	s := setup{pieces: "a3:1N d4:2N f1:1S a6:2W"}.load(t)
	mustPlay(t, s, "a3-d3 pass")
	if s.ToMove() != 1 || formatLast(s.last[0]) != "a3-d3" {
		t.Errorf("after pass: toMove %d last %q", s.ToMove(), formatLast(s.last[0]))
	}
	s = setup{pieces: "a3:1N d4:2N f1:1S e6:1E a6:2W"}.load(t)
	mustPlay(t, s, "a3-d3 f6E") // connects to e6:E (own), no bonus
	if s.ToMove() != 1 {
		t.Error("a bonus placement that connects earned a bonus")
	}
}

// Ruling: from each player's second turn on, a player with no active piece
// that can slide or tumble loses at the start of her turn, whatever is in her
// pool; not on her first turn.
func TestLossRule(t *testing.T) {
	// Player 1's only piece is inactive (connected to player 2's).
	s := setup{pieces: "b2:1E c2:2E f6:2N"}.load(t)
	if o := s.Outcome(); o.Status != game.Won || !o.IsWinner(1) {
		t.Errorf("outcome %v, want player 2 to win", o)
	}
	if s.ToMove() != -1 || len(s.Legal(nil)) != 0 {
		t.Error("a finished game has moves")
	}
	// The same on player 1's first turn is no loss.
	s = setup{pieces: "b2:1E c2:2E f6:2N", turn: []int{0, 0}}.load(t)
	if s.Outcome().Over() {
		t.Error("loss on the first turn")
	}
	// An active piece that is blocked in every direction loses too.
	s = setup{pieces: "a1:1S b1:2E a2:2N", toMove: 1}.load(t)
	if o := s.Outcome(); !o.IsWinner(1) {
		t.Errorf("blocked piece: outcome %v, want player 2 to win", o)
	}
	// The backtracking rule counts: the only move is the forbidden reversal.
	s = setup{pieces: "a1:1S b1:2E a3:2E", lastAction: []string{"a2-a1", "a3E"}}.load(t)
	if o := s.Outcome(); !o.IsWinner(1) {
		t.Errorf("only move is a reversal: outcome %v, want player 2 to win (legal %v)", o, legalTexts(s))
	}
}

// House rule: the third occurrence of a position draws.
func TestHouseRuleThirdRepetition(t *testing.T) {
	s, _ := Game.New(nil, 0)
	mustPlay(t, s, "a1N f6S")
	cycle := "a1-a2 f6-f5 a2-a3 f5-f4 a3-a1 f4-f6 "
	// The position after "a1-a2 f6-f5" (with both restrictions) occurs
	// in every cycle; the third time draws.
	mustPlay(t, s, cycle+cycle+"a1-a2")
	if s.Outcome().Over() {
		t.Fatal("over before the third occurrence")
	}
	mustPlay(t, s, "f6-f5")
	if o := s.Outcome(); o.Status != game.Drawn {
		t.Fatalf("outcome %v after the third occurrence, want drawn", o)
	}
}

// House rule: maxturns completed turns draw.
func TestHouseRuleMaxTurns(t *testing.T) {
	s, _ := Game.New(game.Options{"maxturns": "4"}, 0)
	mustPlay(t, s, "a1N f6S a1-a2")
	if s.Outcome().Over() {
		t.Fatal("over after 3 turns")
	}
	mustPlay(t, s, "f6-f5")
	if o := s.Outcome(); o.Status != game.Drawn {
		t.Fatalf("outcome %v after 4 turns, want drawn", o)
	}
	for _, o := range Game.Options() {
		if o.Name == "maxturns" && (!o.House || o.Default != "300") {
			t.Errorf("maxturns option %+v: want a house rule defaulting to 300", o)
		}
	}
}

// tumble=sweep forbids the forward tumble under the overhang of the piece
// two squares ahead facing back; tumble=end allows it.
func TestTumbleSweepOption(t *testing.T) {
	for _, c := range []struct {
		opt  string
		want bool
	}{{"end", true}, {"sweep", false}} {
		s := setup{pieces: "b2:1E d2:2W f6:1N", opts: game.Options{"tumble": c.opt}}.load(t)
		if got := hasMove(s, "b2~c2"); got != c.want {
			t.Errorf("tumble=%s: b2~c2 allowed = %v, want %v", c.opt, got, c.want)
		}
	}
}

// edge=closed forbids overhangs past the board edge.
func TestEdgeOption(t *testing.T) {
	if !(setup{pieces: "f2:1E"}).isValid(t) {
		t.Error("edge=open: f2:E rejected")
	}
	if (setup{pieces: "f2:1E", opts: game.Options{"edge": "closed"}}).isValid(t) {
		t.Error("edge=closed: f2:E accepted")
	}
	s, _ := Game.New(game.Options{"edge": "closed"}, 0)
	if hasMove(s, "a1S") || hasMove(s, "a1W") || !hasMove(s, "a1N") {
		t.Error("edge=closed: placements on a1 wrong")
	}
}

// A slide stops before the first square it cannot pass: under a foreign
// overhang that does not share its direction.
func TestSlideCannotPassUnderForeignOverhang(t *testing.T) {
	// c4:S overhangs c3; a3:E slides east along row 3.
	s := setup{pieces: "a3:1N c4:2S f6:2N"}.load(t)
	if !hasMove(s, "a3-b3") {
		t.Error("a3-b3 refused")
	}
	for _, m := range []string{"a3-c3", "a3-d3", "a3-f3"} {
		if hasMove(s, m) {
			t.Errorf("%s passes under c4's overhang", m)
		}
	}
	// A piece sharing the overhang's direction may stop under it (and connects).
	s = setup{pieces: "a3:1S c4:2S f6:2N"}.load(t)
	for _, m := range []string{"a3-c3", "a3-f3"} {
		if !hasMove(s, m) {
			t.Errorf("%s refused", m)
		}
	}
}

// Search's view of repetitions and progress (game.Repetition,
// game.Progress): the first return to a position is reported, and slides
// change nothing that counts as progress while placements do.
func TestRepeatedAndProgress(t *testing.T) {
	s, _ := Game.New(nil, 0)
	st := s.(*State)
	sig0, turns0 := st.Progress()
	mustPlay(t, s, "a1N f6S")
	sig1, turns1 := st.Progress()
	if sig1 == sig0 || turns1 != turns0+2 {
		t.Errorf("two placements: progress %x at %d turns, before %x at %d", sig1, turns1, sig0, turns0)
	}
	mustPlay(t, s, "a1-a2 f6-f5")
	if st.Repeated() {
		t.Error("a first occurrence reported as repeated")
	}
	mustPlay(t, s, "a2-a3 f5-f4 a3-a1 f4-f6")
	if st.Repeated() {
		t.Error("a position after other slides reported as repeated")
	}
	mustPlay(t, s, "a1-a2 f6-f5")
	if !st.Repeated() {
		t.Error("the second occurrence of the position after a1-a2 f6-f5 not reported")
	}
	if sig, turns := st.Progress(); sig != sig1 || turns != turns1+8 {
		t.Errorf("slides only: progress %x at %d turns, want %x at %d", sig, turns, sig1, turns1+8)
	}
	// A capture or a sacrifice is progress: the same pools, but a4 and b4
	// side by side, facing the same way, make each other inactive.
	apart, _ := setup{pieces: "a4:1S c4:2S f1:1N f6:2S"}.load(t).Progress()
	together, _ := setup{pieces: "a4:1S b4:2S f1:1N f6:2S"}.load(t).Progress()
	if apart == together {
		t.Errorf("two pieces made inactive: progress %x both times", apart)
	}
}
