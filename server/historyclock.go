package server

import (
	"regexp"
	"strconv"

	"github.com/tabula-games/tabula/match"
	"github.com/tabula-games/tabula/store"
)

// The history's time-control filter (clock=): a kind of clock (none,
// realtime, correspondence), a speed of realtime games, or one exact
// realtime control as the site writes it ("5+3": minutes + seconds of
// increment, components/players.js clockText).

// historySpeeds are the speeds of realtime games by their estimated
// duration, initial + 40 × increment (store.EstimatedMoves): lichess's
// bounds, with its ultrabullet counted as bullet. Quick pairing's blitz
// (5+3, 7 min) and rapid (15+10, 21 min 40 s) fall in their own.
var historySpeeds = map[string]store.RealtimeFilter{
	"bullet":    {MaxMs: 3 * 60000},
	"blitz":     {MinMs: 3 * 60000, MaxMs: 8 * 60000},
	"rapid":     {MinMs: 8 * 60000, MaxMs: 25 * 60000},
	"classical": {MinMs: 25 * 60000},
}

// exactClock is "minutes+seconds": minutes with at most one decimal (0.5),
// whole seconds.
var exactClock = regexp.MustCompile(`^([0-9]{1,4}(?:\.[0-9])?)\+([0-9]{1,3})$`)

// Bounds of an exact control, as a game's clock may have (match/clock.go).
const (
	maxHistoryInitialMs   = 24 * 3600 * 1000
	maxHistoryIncrementMs = 600 * 1000
)

// readHistoryClock reads the clock parameter: the kind of clock it
// selects and, for a speed or an exact control, the realtime filter.
func readHistoryClock(v string) (match.ClockKind, *store.RealtimeFilter, error) {
	switch k := match.ClockKind(v); k {
	case "", match.ClockNone, match.ClockRealtime, match.ClockCorrespondence:
		return k, nil, nil
	}
	if sp, ok := historySpeeds[v]; ok {
		return match.ClockRealtime, &sp, nil
	}
	if m := exactClock.FindStringSubmatch(v); m != nil {
		minutes, err1 := strconv.ParseFloat(m[1], 64)
		secs, err2 := strconv.ParseInt(m[2], 10, 64)
		initial, inc := int64(minutes*60000+0.5), secs*1000
		if err1 == nil && err2 == nil && initial > 0 && initial <= maxHistoryInitialMs && inc <= maxHistoryIncrementMs {
			return match.ClockRealtime, &store.RealtimeFilter{Exact: true, InitialMs: initial, IncrementMs: inc}, nil
		}
	}
	return "", nil, historyBad("clock", "%q: want none, realtime, correspondence, a speed (bullet, blitz, rapid, classical) or a realtime control as minutes+seconds (5+3, 0.5+0)", v)
}
