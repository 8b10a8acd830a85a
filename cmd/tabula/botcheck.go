package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/tabula-games/tabula/agent"
	"github.com/tabula-games/tabula/game"
)

// This file is `tabula bot check`: it plays an engine through each game's
// awkward positions and whole games against random, and says what it got
// wrong. The positions are found by seeded random play, so every run asks
// the same questions.

// checkCase is one awkward kind of position of a game.
type checkCase struct {
	game string
	opts []string // game options, -o spelling
	what string   // what is awkward, for the report
	find func(p *probe) bool
}

// probe is a position met in random play, as a check case's predicate sees
// it.
type probe struct {
	s     game.State
	ply   int
	legal []string
	last  string         // the move that led here ("" at the start)
	view  map[string]any // what the seat to move sees (game.View), decoded
	prev  map[string]any // the same before the last move (nil at the start)
	g     game.Game
}

func (p *probe) has(f func(string) bool) bool { return slices.ContainsFunc(p.legal, f) }
func (p *probe) all(f func(string) bool) bool {
	return len(p.legal) > 0 && !slices.ContainsFunc(p.legal, func(m string) bool { return !f(m) })
}

// field reads a string field of a decoded view.
func field(v map[string]any, k string) string {
	s, _ := v[k].(string)
	return s
}

// sploofUpper is Sploof's balls above level 1, as the position JSON writes
// them: what a drop changes and a plain removal does not.
func sploofUpper(v map[string]any) string {
	levels, _ := v["levels"].([]any)
	if len(levels) < 2 {
		return ""
	}
	return fmt.Sprint(levels[1:])
}

// drops reports whether playing the move m in p's position moves balls
// above level 1 (a Sploof removal under a stack).
func (p *probe) drops(m string) bool {
	c := p.s.Clone()
	mv, err := c.ParseMove(m)
	if err != nil {
		return false
	}
	c.Play(mv)
	data, err := c.MarshalPosition()
	if err != nil {
		return false
	}
	var after map[string]any
	if json.Unmarshal(data, &after) != nil {
		return false
	}
	return sploofUpper(after) != sploofUpper(p.view)
}

// skyjoMine is the mover's grid in a Skyjo view.
func skyjoMine(p *probe) []any {
	players, _ := p.view["players"].([]any)
	seat := p.s.ToMove()
	if seat < 0 || seat >= len(players) {
		return nil
	}
	me, _ := players[seat].(map[string]any)
	grid, _ := me["grid"].([]any)
	return grid
}

func gridHas(grid []any, cell string) bool {
	for _, row := range grid {
		r, _ := row.([]any)
		for _, c := range r {
			if c == cell {
				return true
			}
		}
	}
	return false
}

// checkCases are the awkward positions of every game (issue 26): Sgolte's pie
// and multi-stone flips, Sploof's removals and drops, Skjuub's bonus chains,
// Skyjo's two-step turns and hidden cards, and a few more of each.
var checkCases = []checkCase{
	{"sgolte", nil, "the pie rule: White's first move, where swap is legal", func(p *probe) bool {
		return slices.Contains(p.legal, "swap")
	}},
	{"sgolte", nil, "just after a swap: the first player now plays White", func(p *probe) bool { return p.last == "swap" }},
	{"sgolte", nil, "a merge that flips a chain of two or more stones", func(p *probe) bool {
		return p.has(func(m string) bool { return strings.Contains(m, ",") })
	}},
	{"sgolte", nil, "a forced pass (pass is the only legal move)", func(p *probe) bool {
		return len(p.legal) == 1 && p.legal[0] == "pass"
	}},
	{"sgolte", []string{"size=7"}, "the size 7 board, mid-game", func(p *probe) bool { return p.ply >= 20 }},
	{"sploof", nil, "the start: placements and removals of reds", func(p *probe) bool { return p.ply == 0 }},
	{"sploof", nil, "an empty stock: only removals are legal", func(p *probe) bool {
		return p.all(func(m string) bool { return strings.HasPrefix(m, "*") })
	}},
	{"sploof", nil, "a removal under a stack, which makes balls drop", func(p *probe) bool {
		return p.has(func(m string) bool { return strings.HasPrefix(m, "*") && p.drops(m) })
	}},
	{"sploof", nil, "just after balls dropped", func(p *probe) bool {
		return strings.HasPrefix(p.last, "*") && p.prev != nil && sploofUpper(p.prev) != sploofUpper(p.view)
	}},
	{"sploof", nil, "placements on a higher level", func(p *probe) bool {
		return p.has(func(m string) bool { return m[0] >= '2' && m[0] <= '4' })
	}},
	{"sploof", nil, "no removal allowed (placements only)", func(p *probe) bool {
		return p.ply > 0 && p.all(func(m string) bool { return !strings.HasPrefix(m, "*") })
	}},
	{"skjuub", nil, "a bonus action after a sacrifice (the same player moves again)", func(p *probe) bool {
		return field(p.view, "phase") == "bonus"
	}},
	{"skjuub", nil, "a bonus chain: a second bonus action in one turn", func(p *probe) bool {
		return field(p.view, "phase") == "bonus" && p.prev != nil && field(p.prev, "phase") == "bonus"
	}},
	{"skjuub", nil, "a main action after a turn of several actions", func(p *probe) bool {
		return field(p.view, "phase") != "bonus" && p.prev != nil && field(p.prev, "phase") == "bonus"
	}},
	{"skjuub", nil, "an empty pool: no placement left", func(p *probe) bool {
		return p.ply > 0 && p.all(func(m string) bool { return strings.ContainsAny(m, "-~^<>") || m == "pass" })
	}},
	{"skyjo", nil, "the initial flips: every card face down", func(p *probe) bool {
		return field(p.view, "phase") == "initial_flips"
	}},
	{"skyjo", nil, "a drawn card: keep it (swap) or discard it and flip", func(p *probe) bool {
		return field(p.view, "phase") == "drawn"
	}},
	{"skyjo", nil, "a taken discard: it must be swapped", func(p *probe) bool { return field(p.view, "phase") == "took" }},
	{"skyjo", nil, "a removed column (\"x\") in the mover's grid", func(p *probe) bool {
		return gridHas(skyjoMine(p), "x") && field(p.view, "phase") != "initial_flips"
	}},
	{"skyjo", nil, "the final lap, after someone turned their last card", func(p *probe) bool {
		return p.view["finalLap"] == true
	}},
	{"skyjo", nil, "a later round", func(p *probe) bool {
		r, _ := p.view["round"].(float64)
		return r >= 2 && field(p.view, "phase") == "choose"
	}},
	{"skyjo", []string{"players=4"}, "four players", func(p *probe) bool {
		return field(p.view, "phase") == "choose" && p.ply >= 12
	}},
}

// findCase plays seeded random games of c's game until a position c wants
// turns up, and returns it.
func findCase(c checkCase) (game.State, error) {
	g, err := game.Lookup(c.game)
	if err != nil {
		return nil, err
	}
	o, err := game.ParseOptions(g, c.opts)
	if err != nil {
		return nil, err
	}
	for seed := uint64(1); seed <= 300; seed++ {
		s, err := g.New(o, seed)
		if err != nil {
			return nil, err
		}
		rng := game.NewRNG(seed * 7919)
		p := &probe{g: g}
		var buf []game.Move
		for ply := 0; ply < 3000 && !s.Outcome().Over(); ply++ {
			view, err := game.View(s, s.ToMove())
			if err != nil {
				return nil, err
			}
			p.prev, p.view = p.view, nil
			if err := json.Unmarshal(view, &p.view); err != nil {
				return nil, err
			}
			p.s, p.ply, p.legal = s, ply, game.LegalTexts(s)
			if c.find(p) {
				return s, nil
			}
			buf = s.Legal(buf[:0])
			m := buf[rng.IntN(len(buf))]
			p.last = s.FormatMove(m)
			s.Play(m)
		}
	}
	return nil, fmt.Errorf("no position found for %q", c.what)
}

// checkReport collects what a check found.
type checkReport struct {
	w      io.Writer
	failed map[string]int
	games  []string
	checks int
}

func (r *checkReport) ok(g, what string) {
	r.checks++
	fmt.Fprintf(r.w, "%-7s ok    %s\n", g+":", what)
}

func (r *checkReport) fail(g, what, why string, req []byte) {
	r.checks++
	if r.failed[g] == 0 {
		r.games = append(r.games, g)
	}
	r.failed[g]++
	fmt.Fprintf(r.w, "%-7s FAIL  %s: %s\n", g+":", what, why)
	if req != nil {
		fmt.Fprintf(r.w, "        request: %s\n", clipText(string(req), 400))
	}
}

func clipText(s string, n int) string {
	if len(s) > n {
		return s[:n] + "…"
	}
	return s
}

// whyFailed is an agent's error without the agent's name, which the report
// has already said.
func whyFailed(err error) string {
	msg := err.Error()
	if _, after, ok := strings.Cut(msg, agent.ErrForfeit.Error()+": "); ok {
		return after
	}
	return msg
}

// checkEngine runs every check of the given games (nil: the games the
// engine says it plays, or all of them) and reports on w. It returns an
// error naming the games that failed.
func checkEngine(ctx context.Context, spec string, games []string, seed uint64, w io.Writer) error {
	all := game.Names()
	for _, g := range games {
		if !slices.Contains(all, g) {
			return fmt.Errorf("--game: unknown game %q (games: %s)", g, strings.Join(all, ", "))
		}
	}
	// Meet the engine first: its hello says which games to check.
	probeGame, _ := game.Lookup(all[0])
	if len(games) > 0 {
		probeGame, _ = game.Lookup(games[0])
	}
	a, err := agent.New(spec, probeGame, seed)
	if err != nil {
		return err
	}
	v1 := false
	if e, ok := a.(*agent.Exec); ok {
		e.Game = "" // the probe only listens to the hello
		err := e.Start(ctx)
		h, v2 := e.Hello()
		if err == nil && !v2 {
			// Without a hello, only a move says the program runs at all
			// (a command that is not found "starts" as a shell that ends).
			err = probeMove(ctx, e, probeGame, seed)
		}
		e.Close()
		switch {
		case err != nil:
			fmt.Fprintf(w, "engine %s: FAIL  start-up: %s\n", spec, whyFailed(err))
			return fmt.Errorf("check failed: the engine did not start (or, without a hello, did not answer a first move)")
		case v2:
			plays := "every game"
			if len(h.Games) > 0 {
				plays = strings.Join(h.Games, ", ")
			}
			fmt.Fprintf(w, "engine %s: %q, protocol %d, plays %s\n", spec, h.Name, h.Protocol, plays)
			for _, g := range h.Games {
				if !slices.Contains(all, g) {
					fmt.Fprintf(w, "engine: note: it says it plays %q, which this tabula does not know\n", g)
				}
			}
			if len(games) == 0 {
				for _, g := range all {
					if h.Plays(g) {
						games = append(games, g)
					}
				}
			}
		default:
			fmt.Fprintf(w, "engine %s: no hello (protocol 1), checked on every game\n", spec)
			v1 = true
		}
	} else {
		agent.Close(a)
		fmt.Fprintf(w, "engine %s: built in\n", spec)
	}
	if len(games) == 0 {
		games = all
	}
	// Every check starts the engine afresh; one known to have no hello is
	// not made to wait for it each time.
	newEngine := func(g game.Game) (agent.Agent, error) {
		a, err := agent.New(spec, g, seed)
		if e, ok := a.(*agent.Exec); ok && v1 {
			e.NoHello = true
		}
		return a, err
	}
	r := &checkReport{w: w, failed: map[string]int{}}
	for _, name := range games {
		for _, c := range checkCases {
			if c.game != name {
				continue
			}
			checkPosition(ctx, newEngine, c, r)
		}
		checkGames(ctx, newEngine, name, seed, r)
		if ctx.Err() != nil {
			return ctx.Err()
		}
	}
	if len(r.games) == 0 {
		fmt.Fprintf(w, "passed: %d checks\n", r.checks)
		return nil
	}
	var what []string
	for _, g := range r.games {
		what = append(what, fmt.Sprintf("%s (%d)", g, r.failed[g]))
	}
	fmt.Fprintf(w, "failed: %d of %d checks\n", r.total(), r.checks)
	return fmt.Errorf("check failed: %s", strings.Join(what, ", "))
}

// probeMove asks a for a move in the start position of g.
func probeMove(ctx context.Context, a agent.Agent, g game.Game, seed uint64) error {
	s, err := g.New(nil, seed)
	if err != nil {
		return err
	}
	_, err = agent.Ask(ctx, a, s)
	return err
}

func (r *checkReport) total() int {
	n := 0
	for _, k := range r.failed {
		n += k
	}
	return n
}

// checkPosition asks a fresh engine for a move in one awkward position.
func checkPosition(ctx context.Context, newEngine func(game.Game) (agent.Agent, error), c checkCase, r *checkReport) {
	what := c.what
	if len(c.opts) > 0 {
		what += " (-o " + strings.Join(c.opts, " -o ") + ")"
	}
	s, err := findCase(c)
	if err != nil {
		r.fail(c.game, what, "tabula could not set up the position: "+err.Error(), nil)
		return
	}
	a, err := newEngine(s.Game())
	if err != nil {
		r.fail(c.game, what, err.Error(), nil)
		return
	}
	defer agent.Close(a)
	obs, err := game.Observe(s, s.ToMove())
	if err != nil {
		r.fail(c.game, what, err.Error(), nil)
		return
	}
	var req []byte
	budget := agent.DefaultExecBudget
	if e, ok := a.(*agent.Exec); ok {
		budget = e.Budget()
	}
	if rq, err := agent.NewRequest(obs, budget); err == nil {
		req, _ = json.Marshal(rq)
	}
	if err := agent.Start(ctx, a); err != nil {
		r.fail(c.game, what, "start-up: "+whyFailed(err), nil)
		return
	}
	m, err := a.Choose(ctx, obs)
	if err != nil {
		r.fail(c.game, what, whyFailed(err), req)
		return
	}
	// The engine chose in its seat's world; the move must be legal in the
	// game itself.
	if _, err := s.ParseMove(obs.World().FormatMove(m)); err != nil {
		r.fail(c.game, what, fmt.Sprintf("the move %q: %v", obs.World().FormatMove(m), err), req)
		return
	}
	r.ok(c.game, what)
}

// checkGames plays a whole game against random from each seat of a
// two-seat game.
func checkGames(ctx context.Context, newEngine func(game.Game) (agent.Agent, error), name string, seed uint64, r *checkReport) {
	g, _ := game.Lookup(name)
	o, _ := game.ParseOptions(g, nil)
	seats, err := game.NumPlayers(g, o)
	if err != nil {
		r.fail(name, "a whole game", err.Error(), nil)
		return
	}
	for seat := 0; seat < seats; seat++ {
		what := fmt.Sprintf("a whole game as seat %d against random", seat)
		plies, err := checkGame(ctx, newEngine, g, o, seed+uint64(seat), seat)
		if err != nil {
			r.fail(name, what, fmt.Sprintf("at ply %d: %s", plies, whyFailed(err)), nil)
			continue
		}
		r.ok(name, fmt.Sprintf("%s (%d plies)", what, plies))
	}
}

func checkGame(ctx context.Context, newEngine func(game.Game) (agent.Agent, error), g game.Game, o game.Options, seed uint64, seat int) (int, error) {
	s, err := g.New(o, seed)
	if err != nil {
		return 0, err
	}
	a, err := newEngine(g)
	if err != nil {
		return 0, err
	}
	defer agent.Close(a)
	if err := agent.Start(ctx, a); err != nil {
		return 0, err
	}
	other := agent.NewRandom(seed)
	plies := 0
	for ; !s.Outcome().Over(); plies++ {
		if plies > 100000 {
			return plies, errors.New("the game did not end")
		}
		who := agent.Agent(other)
		if s.ToMove() == seat {
			who = a
		}
		m, err := agent.Ask(ctx, who, s)
		if err != nil {
			return plies, err
		}
		if !slices.Contains(s.Legal(nil), m) {
			return plies, fmt.Errorf("an illegal move %q", s.FormatMove(m))
		}
		s.Play(m)
	}
	return plies, nil
}
