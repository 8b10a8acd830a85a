package skjuub

import (
	"maps"

	"github.com/tabula-games/tabula/game"
)

// core is everything of a state except the repetition history; CopyFrom
// copies it whole and only the used part of the history.
type core struct {
	b     board
	r     *rules
	pool  [2]int8
	turns [2]int16 // completed turns of each player
	mover int8     // seat 0 = player 1
	// last is the last action (passes ignored) of each player's most recent
	// completed turn; its reverse is what the no-backtracking rule forbids.
	last [2]game.Move
	// restrict[p] = reverse(last[p]), the forbidden reversal, and rkey[p]
	// its share of the key: kept beside last so the hot path need not
	// recompute them.
	restrict [2]game.Move
	rkey     [2]uint64
	// pending is, in the bonus phase, the slide or tumble that sacrificed a
	// piece and earned the bonus (its destination is the sacrificed piece,
	// which may not be picked up); 0 in the main phase.
	pending game.Move
	out     game.Outcome
	// key is the incremental Zobrist key of board, pools, side to move,
	// backtracking restrictions and pending bonus: the position as the
	// repetition house rule compares it.
	key uint64
	// filter counts history keys per low byte (saturating), so that the
	// repetition check scans the history only when a third occurrence is
	// possible.
	filter [256]uint8
	nhist  int16
}

// State is a Skjuub position with what is needed to continue the game.
//
// The repetition history is a fixed array of the keys of every turn start of
// the game (one per turn, and a game has at most maxTurnsLimit turns), so a
// playout never allocates. Nothing in Skjuub is irreversible (a pick-up
// refills the pool, and inactive pieces become active again when their
// partner leaves), so the whole history is kept rather than the part since
// the last irreversible change.
type State struct {
	core
	// mk caches the masks of the board while mkValid; every board change
	// clears it. It is not part of core: a copy recomputes it.
	mk      masks
	mkValid bool
	// lazy (set only inside Playout) defers judging a turn start to the
	// next move generation; unjudged marks the deferred turn start.
	lazy, unjudged bool
	hist           [maxTurnsLimit + 1]uint64
}

func (s *State) reset(r *rules) {
	s.core = core{r: r, pool: [2]int8{poolSize, poolSize}}
	s.mkValid = false
	s.key = s.computeKey()
	s.beginTurn()
}

// computeKey recomputes the key from scratch (for parsing and tests); play
// keeps it up to date incrementally.
func (s *State) computeKey() uint64 {
	var k uint64
	for p := 0; p < 2; p++ {
		for d := 0; d < 4; d++ {
			for bb := s.b.dirs[d] & s.b.own[p]; bb != 0; bb &= bb - 1 {
				k ^= zPiece[p][d][lowBit(bb)]
			}
		}
		k ^= zPool[p][s.pool[p]]
		k ^= restrictKey(p, s.restrict[p])
	}
	if s.mover == 1 {
		k ^= zMover
	}
	return k ^ pendingKey(s.pending)
}

// Game returns the Skjuub game.
func (s *State) Game() game.Game { return Game }

// NumPlayers is 2.
func (s *State) NumPlayers() int { return 2 }

// ToMove is the seat that acts next (bonus actions are plies of the same
// seat), or -1 once the game is over.
func (s *State) ToMove() int {
	if s.out.Over() {
		return -1
	}
	return int(s.mover)
}

// Outcome reports the result.
func (s *State) Outcome() game.Outcome { return s.out }

// Clone returns an independent copy.
func (s *State) Clone() game.State {
	c := &State{}
	c.copyFrom(s)
	return c
}

// CopyFrom overwrites s with src, copying only the used history.
func (s *State) CopyFrom(src game.State) { s.copyFrom(src.(*State)) }

func (s *State) copyFrom(src *State) {
	s.core = src.core
	s.mkValid = false
	copy(s.hist[:src.nhist], src.hist[:src.nhist])
}

// Hash covers everything the key does plus the turn counters (which decide
// the second-turn loss rule and maxturns). The repetition history is left
// out, as is usual for transposition tables.
func (s *State) Hash() uint64 {
	return s.key ^ mix(uint64(uint16(s.turns[0]))<<16|uint64(uint16(s.turns[1]))|1<<40)
}

// SeatName is "1" or "2", as the notation and position JSON name players.
// Options implements game.Configured.
func (s *State) Options() game.Options { return maps.Clone(s.r.opts) }

func (s *State) SeatName(seat int) string {
	if seat == 1 {
		return "2"
	}
	return "1"
}

// inBonus reports whether the mover is taking a bonus action.
func (s *State) inBonus() bool { return s.pending != 0 }

// sacrificed is the square of the piece just sacrificed, or noSquare.
func (s *State) sacrificed() int {
	if s.pending == 0 {
		return noSquare
	}
	return mTo(s.pending)
}

func (s *State) push(k uint64) {
	if int(s.nhist) < len(s.hist) {
		s.hist[s.nhist] = k
		s.nhist++
	}
	if f := &s.filter[k&255]; *f < 255 {
		*f++
	}
}

// occurrences counts how often the current key is in the history, exactly
// once the filter says the count may reach 3.
// Repeated implements game.Repetition: the position at the start of this
// turn occurred at the start of an earlier one.
func (s *State) Repeated() bool {
	if s.pending != 0 || s.filter[s.key&255] < 2 {
		return false
	}
	n := 0
	for _, k := range s.hist[:s.nhist] {
		if k == s.key {
			if n++; n == 2 {
				return true
			}
		}
	}
	return false
}

func (s *State) occurrences() int {
	if n := int(s.filter[s.key&255]); n < 3 {
		return n
	}
	n := 0
	for _, k := range s.hist[:s.nhist] {
		if k == s.key {
			n++
		}
	}
	return n
}
