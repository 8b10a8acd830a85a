package agent

import (
	"time"

	"github.com/tabula-games/tabula/game"
)

// The calibrated levels (issue 26, point 6). easy, medium and hard were
// three steps too far apart to tell a player where they stand, so there
// are finer steps: beginner below easy, casual, club and strong between
// easy and medium. Every one of the new levels, like easy, is an iteration
// budget and not a time: it plays the same on a quiet and on a loaded
// machine, which is what lets a ladder run on a shared machine measure it
// (a time budget measured under load is a weaker bot than the one a player
// meets). What spaces them is mostly noise, not search: at a few hundred
// iterations picking moves in proportion to visits (temperature) costs far
// more than a smaller budget does, so the steps lower the temperature as
// they raise the budget; the lowest plays a random move seven times in
// ten. Their ratings are measured, not chosen: docs/ai.md (Calibration)
// and ladder.Calibrated.

// LevelOrder lists every built-in level from the weakest to the strongest:
// the order in which the lobby offers them.
var LevelOrder = []string{"beginner", "easy", "casual", "club", "strong", "medium", "hard"}

// calibratedLevels are the new levels for the games searched by UCT (easy
// is 300 iterations at temperature 1 with a tenth of its moves random).
var calibratedLevels = map[string]MCTSConfig{
	"beginner": {Iters: 20, Temperature: 1, Epsilon: 0.7},
	"casual":   {Iters: 300, Temperature: 0.4},
	"club":     {Iters: 500, Temperature: 0.3},
	"strong":   {Iters: 1000, Temperature: 0.2},
}

// calibratedSamplingLevels are the new levels for the games with hidden
// information (sampled worlds per decision; easy samples 10 with a
// quarter of its moves random, medium 40). beginner's share of random
// moves was measured into place: at 80% it stood 470 points below easy, at
// 32% about 225 (docs/ai.md, Calibration).
var calibratedSamplingLevels = map[string]MCTSConfig{
	"beginner": {Iters: 5, Epsilon: 0.32},
	"casual":   {Iters: 10, Epsilon: 0.1},
	"club":     {Iters: 14, Epsilon: 0.05},
	"strong":   {Iters: 20},
}

// topLevels are medium and hard in the games searched by UCT, per game:
// the iterations a quiet core of the calibration machine made in the time
// these two levels used to think (250 ms; 1 s on each of two workers), so
// that they too play the same on any machine and their ratings could be
// measured on a loaded one (docs/ai.md, Calibration). The games' searches
// run at different speeds, so the budgets differ. Each has a time cap, at
// twice that time: on a slower or busier machine the level answers a
// little late and then plays weaker, rather than keeping its player waiting.
var topLevels = map[string]map[string]MCTSConfig{
	// Sgolte's and Skjuub's heuristics, backed up as minimax beside the
	// playouts' means, won self-play by far (docs/ai.md, "Implicit minimax
	// backups"); Sploof's did not gain.
	"sgolte": {
		"medium": {Iters: 14000, Time: 500 * time.Millisecond, Minimax: minimaxWeight},
		"hard":   {Iters: 56000, Workers: 2, Time: 2 * time.Second, Minimax: minimaxWeight},
	},
	"sploof": {
		"medium": {Iters: 75000, Time: 500 * time.Millisecond},
		"hard":   {Iters: 300000, Workers: 2, Time: 2 * time.Second, Solver: true},
	},
	// Skjuub's positions have so many moves that a tree getting all of a
	// node's moves at once stops expanding early in these budgets; a block
	// at a time it keeps growing, and self-play shows it no weaker
	// (docs/ai.md, "Skjuub's tree stops expanding"). Its heuristic sees
	// what three random plies blur, and its minimax backups (as Sgolte's)
	// won self-play by far. Hard trades down where it is ahead and values
	// its stuck positions halfway to a draw: against greedy at its budget it
	// drew 9 games of 400 where it drew 17 before, and was no weaker in
	// self-play (docs/ai.md, Measurements, "Stuck").
	"skjuub": {
		"medium": {Iters: 68000, Time: 500 * time.Millisecond, EdgeBlocks: true, Minimax: minimaxWeight},
		"hard": {Iters: 272000, Workers: 2, Time: 2 * time.Second, EdgeBlocks: true, Minimax: minimaxWeight,
			Exchange: SeekAhead, Stuck: 0.5},
	},
}

// minimaxWeight is the weight of the implicit minimax backups in Sgolte's
// and Skjuub's medium and hard levels (MCTSConfig.Minimax).
const minimaxWeight = 0.3

// levelConfig is the search of a built-in level (or of plain mcts, when
// name is not one) for game: the game's own budget where it has one.
func levelConfig(game, name string, hidden bool) MCTSConfig {
	if hidden {
		if lv, ok := SamplingLevels[name]; ok {
			return lv
		}
		return MCTSConfig{Iters: SamplingLevels["hard"].Iters}
	}
	if lv, ok := topLevels[game][name]; ok {
		return lv
	}
	if lv, ok := Levels[name]; ok {
		return lv
	}
	return MCTSConfig{Time: time.Second}
}

// LevelConfig is the search a built-in level makes in the named game, and
// false when level is not one (the calibration's check reads medium's and
// hard's iteration budgets from it).
func LevelConfig(gameName, level string) (MCTSConfig, bool) {
	if !IsLevel(level) {
		return MCTSConfig{}, false
	}
	hidden := false
	if g, err := game.Lookup(gameName); err == nil {
		hidden = isHidden(g)
	}
	return levelConfig(gameName, level, hidden), true
}

func init() {
	for name, cfg := range calibratedLevels {
		Levels[name] = cfg
	}
	for name, cfg := range calibratedSamplingLevels {
		SamplingLevels[name] = cfg
	}
}

// IsLevel reports whether name is one of the built-in levels.
func IsLevel(name string) bool {
	_, ok := Levels[name]
	return ok
}
