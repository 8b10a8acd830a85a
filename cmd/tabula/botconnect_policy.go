package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"slices"
	"strings"
	"time"

	"github.com/tabula-games/tabula/game"
	"github.com/tabula-games/tabula/server/wire"
)

// This file is the policy of `tabula bot`: which invitations it accepts.
// The fields are documented in docs/bots.md ("Connecting to a server"); a
// config file is this struct as JSON, unknown fields refused.

// botPolicy says which challenges (invitations to a seat) the connector
// accepts. The zero value of every field accepts everything it is about.
type botPolicy struct {
	// Games are the games accepted (empty: every game the engine plays).
	Games []string `json:"games,omitempty"`
	// Options are, per game and option, the values accepted (an option
	// not listed: any value).
	Options map[string]map[string][]string `json:"options,omitempty"`
	// Clocks are the kinds of time control accepted: none, realtime,
	// correspondence (empty: all three).
	Clocks []string `json:"clocks,omitempty"`
	// MinInitialMs and MaxInitialMs bound a realtime clock's starting
	// time; MinIncrementMs its increment (0: no bound).
	MinInitialMs   int64 `json:"minInitialMs,omitempty"`
	MaxInitialMs   int64 `json:"maxInitialMs,omitempty"`
	MinIncrementMs int64 `json:"minIncrementMs,omitempty"`
	// Rated is "any" (the default), "rated" or "unrated".
	Rated string `json:"rated,omitempty"`
	// MaxGames is how many games the account may have at once, open ones
	// it has joined included (default 2).
	MaxGames int `json:"maxGames,omitempty"`
	// Users, if not empty, are the only users whose challenges are
	// accepted; IgnoreUsers are never accepted.
	Users       []string `json:"users,omitempty"`
	IgnoreUsers []string `json:"ignoreUsers,omitempty"`
	// KeptDeal accepts a game that keeps its creator's hidden cards (the
	// creator may know them); declined by default.
	KeptDeal bool `json:"keptDeal,omitempty"`
	// OnStop is what SIGINT or SIGTERM does with the games in progress:
	// "finish" (the default) or "resign"; --on-stop overrides it.
	OnStop string `json:"onStop,omitempty"`
}

// defaultMaxGames is MaxGames when the policy does not say.
const defaultMaxGames = 2

// readPolicy reads a policy file ("": the default policy) and checks it.
func readPolicy(path string) (botPolicy, error) {
	var p botPolicy
	if path != "" {
		data, err := os.ReadFile(path)
		if err != nil {
			return p, fmt.Errorf("--config: %w", err)
		}
		dec := json.NewDecoder(bytes.NewReader(data))
		dec.DisallowUnknownFields()
		if err := dec.Decode(&p); err != nil {
			return p, fmt.Errorf("--config %s: %v", path, err)
		}
	}
	if err := p.check(); err != nil {
		if path != "" {
			return p, fmt.Errorf("--config %s: %w", path, err)
		}
		return p, err
	}
	return p, nil
}

// check refuses a policy that names what does not exist.
func (p *botPolicy) check() error {
	all := game.Names()
	for _, g := range p.Games {
		if !slices.Contains(all, g) {
			return fmt.Errorf("games: unknown game %q (games: %s)", g, strings.Join(all, ", "))
		}
	}
	for g, opts := range p.Options {
		gm, err := game.Lookup(g)
		if err != nil {
			return fmt.Errorf("options: unknown game %q", g)
		}
		for name, values := range opts {
			for _, v := range values {
				if _, err := game.ParseOptions(gm, []string{name + "=" + v}); err != nil {
					return fmt.Errorf("options: %s: %v", g, err)
				}
			}
		}
	}
	for _, k := range p.Clocks {
		if k != string(wire.ClockNone) && k != string(wire.ClockRealtime) && k != string(wire.ClockCorrespondence) {
			return fmt.Errorf("clocks: %q: want none, realtime or correspondence", k)
		}
	}
	switch p.Rated {
	case "", "any", "rated", "unrated":
	default:
		return fmt.Errorf("rated: %q: want any, rated or unrated", p.Rated)
	}
	switch p.OnStop {
	case "", "finish", "resign":
	default:
		return fmt.Errorf("onStop: %q: want finish or resign", p.OnStop)
	}
	if p.MaxGames < 0 {
		return fmt.Errorf("maxGames: %d: want 1 or more", p.MaxGames)
	}
	if p.MaxGames == 0 {
		p.MaxGames = defaultMaxGames
	}
	if p.MinInitialMs < 0 || p.MaxInitialMs < 0 || p.MinIncrementMs < 0 {
		return fmt.Errorf("minInitialMs, maxInitialMs, minIncrementMs: want 0 or more milliseconds")
	}
	return nil
}

// verdict is the policy's answer to an invitation: accepted, or declined
// for why (a log line's words) with reason, the code POST
// /api/challenges/{id}/decline takes (match.DeclineReasons), which the
// challenger's client translates.
type verdict struct {
	ok          bool
	why, reason string
}

// Decline reasons (docs/api.md, Challenges) the policy's refusals map to.
const (
	reasonGeneric = "generic"
	reasonLater   = "later"
	reasonTooFast = "too_fast"
	reasonTooSlow = "too_slow"
	reasonRated   = "rated"
	reasonCasual  = "casual"
	reasonGame    = "game"
	reasonOptions = "options"
)

func declined(reason, format string, args ...any) verdict {
	return verdict{why: fmt.Sprintf(format, args...), reason: reason}
}

// decide says whether to accept the invitation to g, and if not why. plays
// says whether the engine plays a game; playing is how many games the
// account has at once now.
func (p *botPolicy) decide(g *wire.Summary, plays func(string) bool, playing int) (bool, string) {
	v := p.judge(g, plays, playing)
	return v.ok, v.why
}

// judge is decide with the decline reason to tell the challenger.
func (p *botPolicy) judge(g *wire.Summary, plays func(string) bool, playing int) verdict {
	for _, u := range p.IgnoreUsers {
		if strings.EqualFold(u, g.Creator) {
			return declined(reasonGeneric, "challenges from %s are ignored", g.Creator)
		}
	}
	if len(p.Users) > 0 && !slices.ContainsFunc(p.Users, func(u string) bool { return strings.EqualFold(u, g.Creator) }) {
		return declined(reasonGeneric, "only challenges from %s are accepted", strings.Join(p.Users, ", "))
	}
	if len(p.Games) > 0 && !slices.Contains(p.Games, g.Game) {
		return declined(reasonGame, "%s is not among the games accepted (%s)", g.Game, strings.Join(p.Games, ", "))
	}
	if !plays(g.Game) {
		return declined(reasonGame, "the engine does not play %s", g.Game)
	}
	for _, name := range sortedKeys(p.Options[g.Game]) {
		allowed := p.Options[g.Game][name]
		if v, ok := g.Options[name]; ok && !slices.Contains(allowed, v) {
			return declined(reasonOptions, "option %s=%s is not accepted (accepted: %s)", name, v, strings.Join(allowed, ", "))
		}
	}
	kind := string(g.Clock.Kind)
	if kind == "" {
		kind = string(wire.ClockNone)
	}
	if len(p.Clocks) > 0 && !slices.Contains(p.Clocks, kind) {
		// A realtime clock refused is too fast for the bot, a
		// correspondence one too slow; no clock at all is neither.
		reason := reasonGeneric
		switch g.Clock.Kind {
		case wire.ClockRealtime:
			reason = reasonTooFast
		case wire.ClockCorrespondence:
			reason = reasonTooSlow
		}
		return declined(reason, "clock %s is not accepted (accepted: %s)", kind, strings.Join(p.Clocks, ", "))
	}
	if g.Clock.Kind == wire.ClockRealtime {
		c := g.Clock
		switch {
		case p.MinInitialMs > 0 && c.InitialMs < p.MinInitialMs:
			return declined(reasonTooFast, "clock %s: less than %s to start with", clockText(c), ms(p.MinInitialMs))
		case p.MaxInitialMs > 0 && c.InitialMs > p.MaxInitialMs:
			return declined(reasonTooSlow, "clock %s: more than %s to start with", clockText(c), ms(p.MaxInitialMs))
		case c.IncrementMs < p.MinIncrementMs:
			return declined(reasonTooFast, "clock %s: an increment below %s", clockText(c), ms(p.MinIncrementMs))
		}
	}
	switch {
	case p.Rated == "rated" && !g.Rated:
		return declined(reasonRated, "only rated games are accepted")
	case p.Rated == "unrated" && g.Rated:
		return declined(reasonCasual, "only unrated games are accepted")
	}
	if g.Start != nil && g.Start.KeepDeal && !p.KeptDeal {
		return declined(reasonOptions, "the game keeps its creator's hidden cards (keptDeal is off)")
	}
	if playing >= p.MaxGames {
		return declined(reasonLater, "already %d games at once (maxGames %d)", playing, p.MaxGames)
	}
	return verdict{ok: true}
}

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}

// clockText is a time control for a log line: "none", "realtime 5m+3s",
// "correspondence 3 days".
func clockText(c wire.TimeControl) string {
	switch c.Kind {
	case wire.ClockRealtime:
		return fmt.Sprintf("realtime %s+%s", ms(c.InitialMs), ms(c.IncrementMs))
	case wire.ClockCorrespondence:
		return fmt.Sprintf("correspondence %d days", c.Days)
	}
	return "none"
}

func ms(n int64) string { return (time.Duration(n) * time.Millisecond).String() }
