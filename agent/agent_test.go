package agent

import (
	"context"
	"math"
	"strings"
	"testing"
	"time"

	"github.com/tabula-games/tabula/game"
)

func TestMCTSFindsTheWinningNimMove(t *testing.T) {
	for _, pile := range []int{5, 6, 7, 9, 10, 11, 13} {
		for _, workers := range []int{1, 2} {
			a := NewMCTS(MCTSConfig{Iters: 4000, Workers: workers}, uint64(pile))
			s := &nim{Pile: pile}
			m, err := a.Choose(context.Background(), seen(s))
			if err != nil {
				t.Fatal(err)
			}
			if want := pile % 4; int(m) != want {
				t.Errorf("pile %d, %d workers: took %d, want %d", pile, workers, m, want)
			}
		}
	}
}

func TestMCTSReusesItsTree(t *testing.T) {
	a := NewMCTS(MCTSConfig{Iters: 3000}, 1)
	s := &nim{Pile: 21}
	ctx := context.Background()
	m, _ := a.Choose(ctx, seen(s))
	s.Play(m)
	s.Play(1) // the opponent's reply
	if _, err := a.Choose(ctx, seen(s)); err != nil {
		t.Fatal(err)
	}
	if a.LastStats.Reused == 0 {
		t.Error("the second search inherited no visits from the first")
	}
	// A position not below the old root starts afresh.
	if _, err := a.Choose(ctx, seen(&nim{Pile: 20, Turn: 1})); err != nil {
		t.Fatal(err)
	}
	if a.LastStats.Reused != 0 {
		t.Errorf("reused %d visits for an unrelated position", a.LastStats.Reused)
	}
}

func TestMCTSStopsOnCancel(t *testing.T) {
	a := NewMCTS(MCTSConfig{Time: time.Hour}, 1)
	ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
	defer cancel()
	done := make(chan struct{})
	go func() {
		a.Choose(ctx, seen(&nim{Pile: 21}))
		close(done)
	}()
	select {
	case <-done:
	case <-time.After(5 * time.Second):
		t.Fatal("search ignored its cancelled context")
	}
}

func TestGreedyTakesAnImmediateWin(t *testing.T) {
	g := NewGreedy(1)
	for pile := 1; pile <= 3; pile++ {
		m, err := g.Choose(context.Background(), seen(&nim{Pile: pile}))
		if err != nil || int(m) != pile {
			t.Errorf("pile %d: greedy took %d (%v), want all", pile, m, err)
		}
	}
}

func TestAgentsRefuseFinishedGames(t *testing.T) {
	for _, a := range []Agent{NewRandom(1), NewGreedy(1), NewMCTS(MCTSConfig{Iters: 10}, 1)} {
		if _, err := a.Choose(context.Background(), seen(&nim{Pile: 0})); err == nil {
			t.Errorf("%s chose a move in a finished game", a.Name())
		}
	}
}

func TestNewParsesSpecs(t *testing.T) {
	g := nimGame{}
	good := map[string]string{
		"random": "random", "greedy": "greedy", "hard": "hard", "easy": "easy",
		"mcts:iters=500": "mcts:iters=500", "mcts:time=20ms": "mcts:time=20ms",
		"mcts:time=20ms:c=0.4,workers=2": "mcts:time=20ms:c=0.4,workers=2", "mcts": "mcts:time=1s",
		"hard:stall=off:rep=off:contempt=off": "hard:stall=off:rep=off:contempt=off", "mcts:stall=30:rep=on": "mcts:stall=30:rep=on", "mcts:stallat=playout": "mcts:stallat=playout",
		"hard:keep=all": "hard:keep=all", "hard:iters=100:keep=256": "hard:iters=100:keep=256",
		"hard:edges=all": "hard:edges=all", "mcts:edges=blocks": "mcts:edges=blocks",
		"hard:boost=4": "hard:boost=4", "hard:exchange=ahead:stuck=0.5": "hard:exchange=ahead:stuck=0.5",
	}
	for spec, name := range good {
		a, err := New(spec, g, 1)
		if err != nil {
			t.Errorf("New(%q): %v", spec, err)
			continue
		}
		if a.Name() != name {
			t.Errorf("New(%q).Name() = %q, want %q", spec, a.Name(), name)
		}
	}
	for _, spec := range []string{"", "nobody", "random:x=1", "mcts:iters=0", "mcts:time=-1s", "mcts:bogus=1", "mcts:c", "exec:", "hard:reuse=maybe",
		"mcts:c=NaN", "mcts:c=Inf", "mcts:c=abc", "mcts:bias=NaN", "mcts:contempt=NaN", "mcts:eps=NaN", "mcts:temp=+Inf",
		"mcts:stall=0", "mcts:stall=-3", "mcts:rep=maybe", "mcts:contempt=0.6", "mcts:keep=0", "mcts:keep=-1", "mcts:keep=1m", "mcts:edges=some", "mcts:stallat=end",
		"mcts:boost=0", "mcts:boost=1.5", "mcts:boost=-2", "mcts:stuck=1.5", "mcts:stuck=-0.1", "mcts:stuck=NaN", "mcts:stuck=half"} {
		if _, err := New(spec, g, 1); err == nil {
			t.Errorf("New(%q) accepted a bad spec", spec)
		}
	}
}

// TestUnknownParameterNamesEveryParameter: the refusal of an unknown
// parameter lists the ones there are, every one that a spec accepts.
func TestUnknownParameterNamesEveryParameter(t *testing.T) {
	_, err := New("mcts:bogus=1", nimGame{}, 1)
	if err == nil {
		t.Fatal("mcts:bogus=1 accepted")
	}
	for _, kv := range []string{"time=1s", "iters=1", "workers=1", "c=0.5", "temp=0", "eps=0", "playout=game", "k=2",
		"bias=0", "imb=0", "exchange=off", "contact=off", "contempt=off", "plies=3", "tt=on", "reuse=on", "edges=all",
		"keep=1", "solver=off", "solverkeep=off", "solvernodes=1", "stall=off", "stallat=tree", "boost=2", "stuck=0.5", "rep=on"} {
		if _, err := New("mcts:"+kv, nimGame{}, 1); err != nil {
			t.Errorf("mcts:%s: %v", kv, err)
		}
		key, _, _ := strings.Cut(kv, "=")
		if !strings.Contains(err.Error(), "("+key+",") && !strings.Contains(err.Error(), " "+key+",") && !strings.Contains(err.Error(), " "+key+")") {
			t.Errorf("the refusal does not name %s: %v", key, err)
		}
	}
}

func TestSplitList(t *testing.T) {
	got := SplitList("mcts:time=200ms,c=0.5, greedy,random")
	want := []string{"mcts:time=200ms,c=0.5", "greedy", "random"}
	if len(got) != len(want) {
		t.Fatalf("SplitList = %q, want %q", got, want)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Fatalf("SplitList = %q, want %q", got, want)
		}
	}
}

func TestRandomIsUniformEnough(t *testing.T) {
	r := NewRandom(3)
	counts := map[game.Move]int{}
	for i := 0; i < 3000; i++ {
		m, _ := r.Choose(context.Background(), seen(&nim{Pile: 10}))
		counts[m]++
	}
	for k := game.Move(1); k <= 3; k++ {
		if counts[k] < 850 || counts[k] > 1150 {
			t.Errorf("move %d chosen %d times of 3000", k, counts[k])
		}
	}
}

// In Nim every pile size is reached by many move orders: with the
// transposition table the tree shares them, needs far fewer nodes for the
// same iterations, and finds the winning move from a pile deep enough that
// the plain tree does not in that budget.
func TestTranspositionsShareNodes(t *testing.T) {
	ctx := context.Background()
	with := NewMCTS(MCTSConfig{Iters: 3000, NoReuse: true}, 1)
	without := NewMCTS(MCTSConfig{Iters: 3000, NoReuse: true, NoTT: true}, 1)
	s := &nim{Pile: 21}
	m1, _ := with.Choose(ctx, seen(s))
	without.Choose(ctx, seen(s))
	if m1 != 1 {
		t.Errorf("from 21 the search with a table took %d, want 1", m1)
	}
	n1, n2 := with.LastStats.Nodes, without.LastStats.Nodes
	// 21 stones, two seats to move: at most 42 distinct positions.
	if n1 > 44 || n2 < 5*n1 {
		t.Errorf("nodes with the table %d, without %d: want at most 44 and far fewer than without", n1, n2)
	}
}

// CoresOf is what a pool of search workers charges a decision: the search
// levels their workers, the one-ply bots nothing.
func TestCoresOf(t *testing.T) {
	want := map[string]int{"random": 0, "greedy": 0, "easy": 1, "medium": 1, "hard": 2, "mcts:iters=10:workers=3": 3, "exec:true": 1}
	for spec, n := range want {
		a, err := New(spec, nimGame{}, 1)
		if err != nil {
			t.Fatal(err)
		}
		if got := CoresOf(a); got != n {
			t.Errorf("CoresOf(%s) = %d, want %d", spec, got, n)
		}
		Close(a)
	}
	if a := NewSampling(SamplingLevels["hard"], 1); CoresOf(a) != SamplingLevels["hard"].Workers {
		t.Errorf("CoresOf(sampling hard) = %d", CoresOf(a))
	}
}

// leaning is nim with a heuristic and an exchange-seeking one that differ:
// what the search scores a position with shows which it asked. Seat 0 is
// ahead in every position, unless even says neither is.
type leaning struct {
	nim
	even bool
}

func (s *leaning) Clone() game.State       { c := *s; return &c }
func (s *leaning) CopyFrom(src game.State) { *s = *src.(*leaning) }
func (s *leaning) Evaluate(seat int) float64 {
	return []float64{0.2, -0.2}[seat]
}
func (s *leaning) EvaluateExchange(seat, searcher int) float64 {
	v := 0.6 - 0.1*float64(searcher) // seat 0's value as searcher weighs it
	return []float64{v, -v}[seat]
}
func (s *leaning) Ahead(seat int) bool { return !s.even && seat == 0 }

// The search scores positions with the game's ExchangeEvaluator, as its
// own seat weighs them, at every move with SeekOn, at the moves where
// its seat is ahead with SeekAhead and where it is not behind with
// SeekNotBehind; else with Evaluate.
func TestExchangeScoresWithTheExchangeEvaluator(t *testing.T) {
	for _, c := range []struct {
		mode SeekMode
		even bool
		me   int
		want float32
	}{
		{SeekOff, false, 0, 0.6}, {SeekOff, false, 1, 0.6},
		{SeekOn, false, 0, 0.8}, {SeekOn, false, 1, 0.75},
		{SeekAhead, false, 0, 0.8}, {SeekAhead, false, 1, 0.6},
		{SeekAhead, true, 0, 0.6}, {SeekAhead, true, 1, 0.6},
		{SeekNotBehind, false, 0, 0.8}, {SeekNotBehind, false, 1, 0.6},
		{SeekNotBehind, true, 0, 0.8}, {SeekNotBehind, true, 1, 0.75},
	} {
		s := &leaning{nim{Pile: 5}, c.even}
		cfg := &MCTSConfig{Exchange: c.mode}
		w := &searcher{cfg: cfg, me: c.me, exchange: cfg.seeksExchanges(s, c.me, false)}
		if got := w.leafValue(s); got != c.want {
			t.Errorf("exchange mode %d, even %v, searching seat %d: leaf value %v, want %v", c.mode, c.even, c.me, got, c.want)
		}
	}
	// A playout cut short is scored the same way: with the exchange-seeking
	// heuristic where the search seeks exchanges, else with Evaluate.
	for _, c := range []struct {
		exchange bool
		want     float64
	}{{false, 0.6}, {true, 0.8}} {
		w := &searcher{cfg: &MCTSConfig{}, me: 0, exchange: c.exchange, plies: 1}
		w.playout(&leaning{nim{Pile: 9}, false}, 2)
		if math.Abs(w.rewards[0]-c.want) > 1e-9 || math.Abs(w.rewards[1]-(1-c.want)) > 1e-9 {
			t.Errorf("a playout cut short, seeking exchanges %v: rewards %v, want %v for seat 0", c.exchange, w.rewards[:2], c.want)
		}
	}
	// A game without an exchange-seeking heuristic is scored with its own.
	if (&MCTSConfig{Exchange: SeekOn}).seeksExchanges(&nim{Pile: 5}, 0, true) {
		t.Error("nim has no ExchangeEvaluator, yet the search would seek exchanges in it")
	}
}

// touching is a nim position that also has a contact-seeking heuristic.
type touching struct{ leaning }

func (s *touching) Clone() game.State       { c := *s; return &c }
func (s *touching) CopyFrom(src game.State) { *s = *src.(*touching) }
func (s *touching) EvaluateContact(seat, searcher int) float64 {
	v := 0.4 + 0.2*float64(searcher) // seat 0's value as searcher weighs it
	return []float64{v, -v}[seat]
}

// With Contact the search scores positions with the game's
// ContactEvaluator, as its own seat weighs it, at the moves its mode says
// (the leaning position has seat 0 ahead), at the tree's leaves and at a
// playout's cut-off; a game without one is scored with Evaluate.
func TestContactScoresWithTheContactEvaluator(t *testing.T) {
	for _, c := range []struct {
		mode SeekMode
		me   int
		want float32
	}{
		{SeekOff, 0, 0.6}, {SeekOff, 1, 0.6}, {SeekOn, 0, 0.7}, {SeekOn, 1, 0.8},
		{SeekAhead, 0, 0.7}, {SeekAhead, 1, 0.6}, {SeekNotBehind, 0, 0.7}, {SeekNotBehind, 1, 0.6},
	} {
		s := &touching{leaning{nim{Pile: 5}, false}}
		cfg := &MCTSConfig{Contact: c.mode}
		w := &searcher{cfg: cfg, me: c.me, contact: cfg.seeksContact(s, c.me, false)}
		if got := w.leafValue(s); got != c.want {
			t.Errorf("contact %s, searching seat %d: leaf value %v, want %v", c.mode, c.me, got, c.want)
		}
	}
	w := &searcher{cfg: &MCTSConfig{}, me: 1, contact: true, plies: 1}
	w.playout(&touching{leaning{nim{Pile: 9}, false}}, 2)
	if math.Abs(w.rewards[0]-0.8) > 1e-9 || math.Abs(w.rewards[1]-0.2) > 1e-9 {
		t.Errorf("a playout cut short, seeking contact: rewards %v, want 0.8 and 0.2", w.rewards[:2])
	}
	if (&MCTSConfig{Contact: SeekOn}).seeksContact(&leaning{nim{Pile: 5}, false}, 0, true) {
		t.Error("a game without a ContactEvaluator, yet the search would seek contact in it")
	}
}

// contact=off|on|ahead|notbehind|stalled reaches the search's config, any other
// value is refused with the ones it takes, and contact with exchanges is
// refused: the two score the same positions two ways.
func TestContactSpec(t *testing.T) {
	g, err := game.Lookup("skjuub")
	if err != nil {
		t.Fatal(err)
	}
	for spec, want := range map[string]SeekMode{
		"mcts:iters=10": SeekOff, "mcts:contact=on": SeekOn, "mcts:contact=off": SeekOff, "hard:contact=ahead": SeekAhead,
		"mcts:contact=notbehind": SeekNotBehind, "hard:contact=off:exchange=on": SeekOff, "hard:contact=stalled:boost=4": SeekStalled,
	} {
		a, err := New(spec, g, 1)
		if err != nil {
			t.Fatalf("New(%q): %v", spec, err)
		}
		if got := a.(*MCTS).cfg.Contact; got != want {
			t.Errorf("%s: contact %s, want %s", spec, got, want)
		}
		Close(a)
	}
	for spec, want := range map[string]string{
		"mcts:contact=yes":               "off|on|ahead|notbehind|stalled",
		"mcts:contact=on:exchange=ahead": "contact=on and exchange=ahead",
		"hard:exchange=on:contact=ahead": "choose one",
	} {
		if _, err := New(spec, g, 1); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: error %v, want one saying %q", spec, err, want)
		}
	}
}

// TestSeekModeGivenAloneReplacesTheLevels: a level that seeks exchanges
// (or contact) by itself, given the other way of scoring alone, seeks that
// one instead; given both ways in one spec, it refuses.
func TestSeekModeGivenAloneReplacesTheLevels(t *testing.T) {
	for _, c := range []struct {
		level             MCTSConfig
		params            string
		exchange, contact SeekMode
		err               string
	}{
		{MCTSConfig{Exchange: SeekAhead}, "contact=on", SeekOff, SeekOn, ""},
		{MCTSConfig{Exchange: SeekAhead}, "contact=off", SeekAhead, SeekOff, ""},
		{MCTSConfig{Exchange: SeekAhead}, "iters=10", SeekAhead, SeekOff, ""},
		{MCTSConfig{Contact: SeekStalled}, "exchange=notbehind", SeekNotBehind, SeekOff, ""},
		{MCTSConfig{Exchange: SeekAhead}, "exchange=off:contact=ahead", SeekOff, SeekAhead, ""},
		{MCTSConfig{Exchange: SeekAhead}, "exchange=on:contact=ahead", 0, 0, "choose one"},
	} {
		cfg := c.level
		err := parseMCTSParams(&cfg, c.params)
		if c.err != "" {
			if err == nil || !strings.Contains(err.Error(), c.err) {
				t.Errorf("level exchange=%s contact=%s, %s: error %v, want one saying %q", c.level.Exchange, c.level.Contact, c.params, err, c.err)
			}
			continue
		}
		if err != nil || cfg.Exchange != c.exchange || cfg.Contact != c.contact {
			t.Errorf("level exchange=%s contact=%s, %s: exchange %s contact %s (%v), want %s and %s", c.level.Exchange, c.level.Contact, c.params, cfg.Exchange, cfg.Contact, err, c.exchange, c.contact)
		}
	}
}

// TestExchangeSpec: exchange=off|on|ahead|notbehind|stalled reaches the search's config
// (Skjuub's hard level seeks them where it is ahead, medium never unless
// told), and any other value is refused
// with the ones it takes.
func TestExchangeSpec(t *testing.T) {
	g, err := game.Lookup("skjuub")
	if err != nil {
		t.Fatal(err)
	}
	for spec, want := range map[string]SeekMode{
		"mcts:iters=10": SeekOff, "mcts:exchange=on": SeekOn, "mcts:exchange=ahead": SeekAhead,
		"mcts:exchange=notbehind": SeekNotBehind, "hard": SeekAhead, "hard:exchange=off": SeekOff, "hard:contact=on": SeekOff, "medium": SeekOff,
		"mcts:exchange=stalled": SeekStalled,
	} {
		a, err := New(spec, g, 1)
		if err != nil {
			t.Fatalf("New(%q): %v", spec, err)
		}
		if got := a.(*MCTS).cfg.Exchange; got != want {
			t.Errorf("%s: exchange mode %d, want %d", spec, got, want)
		}
		Close(a)
	}
	for m := range seekModeNames {
		if got, err := parseSeekMode(SeekMode(m).String()); got != SeekMode(m) || err != nil {
			t.Errorf("mode %d is named %q, which parses to %d (%v)", m, SeekMode(m), got, err)
		}
	}
	_, err = New("mcts:exchange=yes", g, 1)
	if err == nil || !strings.Contains(err.Error(), "off|on|ahead|notbehind|stalled") {
		t.Errorf("exchange=yes: error %v, want one naming off|on|ahead|notbehind|stalled", err)
	}
}
