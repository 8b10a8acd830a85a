package tournament

import (
	"errors"
	"fmt"
)

// Result is a game's result, from White's side. In games that are not
// chess, White is the first seat.
type Result int8

// The results of a board.
const (
	Pending   Result = iota // not yet played
	WhiteWins               // 1-0
	Draw                    // ½-½
	BlackWins               // 0-1
	// WhiteForfeit and BlackForfeit are a board not played: the named
	// side wins by forfeit (the other did not come). The winner scores a
	// win; for pairing and tie-breaks the round is one without a game —
	// no colour, no opponent met (the two may be paired again), a
	// downfloat for the winner, who may no longer get the pairing-allocated
	// bye (FIDE's Dutch rules, C.2) — and Buchholz counts it as FIDE's
	// dummy opponent.
	WhiteForfeit // +/- (TRF), White wins by forfeit
	BlackForfeit // -/+ (TRF), Black wins by forfeit
)

// Pairing is one board of a round: two players (indexes into the
// tournament's players), White first.
type Pairing struct {
	White, Black int
	Result       Result
}

// Round is one round of a Swiss or round robin: its boards, and the player
// given the bye (the pairing-allocated bye of an odd number, worth a win).
// Active players who appear in neither were absent that round and score
// nothing for it.
type Round struct {
	Pairings []Pairing
	Byes     []int
	// HalfByes are the players who asked, before the round was paired,
	// to sit it out for half a point (a requested half-point bye, "H" in
	// TRF): they are not paired (leave them out of the active players),
	// play no game, and may still get the pairing-allocated bye later.
	HalfByes []int
}

// ErrInput marks a tournament history or request that cannot be right:
// a player out of range, or paired twice in one round.
var ErrInput = errors.New("tournament: invalid input")

// checkRounds validates rounds for n players; with finished, every result
// must be known (the pairing of the next round needs them all).
func checkRounds(n int, rounds []Round, finished bool) error {
	for r, rd := range rounds {
		seen := make(map[int]bool)
		use := func(p int) error {
			if p < 0 || p >= n {
				return fmt.Errorf("%w: round %d names player %d of %d", ErrInput, r+1, p+1, n)
			}
			if seen[p] {
				return fmt.Errorf("%w: round %d pairs player %d twice", ErrInput, r+1, p+1)
			}
			seen[p] = true
			return nil
		}
		for _, pr := range rd.Pairings {
			if err := use(pr.White); err != nil {
				return err
			}
			if err := use(pr.Black); err != nil {
				return err
			}
			if pr.Result < Pending || pr.Result > BlackForfeit {
				return fmt.Errorf("%w: round %d has result %d", ErrInput, r+1, pr.Result)
			}
			if finished && pr.Result == Pending {
				return fmt.Errorf("%w: round %d: %d–%d has no result yet", ErrInput, r+1, pr.White+1, pr.Black+1)
			}
		}
		for _, b := range rd.Byes {
			if err := use(b); err != nil {
				return err
			}
		}
		for _, b := range rd.HalfByes {
			if err := use(b); err != nil {
				return err
			}
		}
	}
	return nil
}

// Colours as a player saw them in one round.
const (
	noColour int8 = 0
	white    int8 = 1
	black    int8 = -1
)

// record is one player's history: what pairing and tie-breaks need.
type record struct {
	score  int    // in half points
	colour []int8 // per round: white, black, or noColour (not played over the board)
	opp    []int  // per round: the opponent, or -1
	pts    []int  // per round: half points scored
	float  []int8 // per round: +1 floated up, -1 floated down (or a bye), 0 neither
	byes   int
	// forfeitWin: a win by forfeit, which rules out the
	// pairing-allocated bye as a bye does.
	forfeitWin bool
	wins       int // games won over the board
	met        map[int]bool
}

// histories replays the rounds for n players. Results still pending count
// nothing.
func histories(n int, rounds []Round) []record {
	h := make([]record, n)
	for i := range h {
		h[i].met = make(map[int]bool)
	}
	for r, rd := range rounds {
		before := make([]int, n)
		for i := range h {
			before[i] = h[i].score
			h[i].colour = append(h[i].colour, noColour)
			h[i].opp = append(h[i].opp, -1)
			h[i].pts = append(h[i].pts, 0)
			h[i].float = append(h[i].float, 0)
		}
		for _, pr := range rd.Pairings {
			w, b := &h[pr.White], &h[pr.Black]
			if pr.Result == WhiteForfeit || pr.Result == BlackForfeit {
				// Not played: no colour, no opponent, no meeting.
				win := w
				if pr.Result == BlackForfeit {
					win = b
				}
				win.pts[r], win.float[r], win.forfeitWin = 2, -1, true
				win.score += 2
				continue
			}
			w.colour[r], b.colour[r] = white, black
			w.opp[r], b.opp[r] = pr.Black, pr.White
			w.met[pr.Black], b.met[pr.White] = true, true
			switch {
			case before[pr.White] > before[pr.Black]:
				w.float[r], b.float[r] = -1, 1
			case before[pr.White] < before[pr.Black]:
				w.float[r], b.float[r] = 1, -1
			}
			var pw, pb int
			switch pr.Result {
			case WhiteWins:
				pw = 2
				w.wins++
			case Draw:
				pw, pb = 1, 1
			case BlackWins:
				pb = 2
				b.wins++
			}
			w.pts[r], b.pts[r] = pw, pb
			w.score += pw
			b.score += pb
		}
		for _, p := range rd.Byes {
			h[p].byes++
			h[p].float[r] = -1
			h[p].pts[r] = 2
			h[p].score += 2
		}
		for _, p := range rd.HalfByes {
			h[p].pts[r] = 1
			h[p].score++
		}
	}
	return h
}
