package tournament

import (
	"errors"
	"fmt"
)

// ErrArena marks a request an arena cannot take in its state: pairing after
// the end, finishing a game that is not being played, pausing a player who
// is not in.
var ErrArena = errors.New("tournament: arena")

// Arena is the state of a running arena: who is in, who is free, who plays,
// the games finished. It holds no clock: the director says when the arena
// ends, and games still being played then are finished and counted after
// it. Every change is one method call, so a director that logs the calls
// rebuilds the same arena by replaying them.
type Arena struct {
	opt     ArenaOptions
	in      []bool // joined and not withdrawn
	seen    []bool // joined at some time
	paused  []bool
	rating  []int
	inGame  []bool
	lastOpp []int
	colour  []int
	playing map[[2]int]bool
	games   []ArenaGame
	tally   []arenaTally
	ended   bool
}

// NewArena starts an empty arena.
func NewArena(opt ArenaOptions) *Arena {
	return &Arena{opt: opt, playing: map[[2]int]bool{}}
}

func (a *Arena) grow(p int) {
	for len(a.in) <= p {
		n := len(a.in)
		a.in = append(a.in, false)
		a.seen = append(a.seen, false)
		a.paused = append(a.paused, false)
		a.rating = append(a.rating, 0)
		a.inGame = append(a.inGame, false)
		a.lastOpp = append(a.lastOpp, -1)
		a.colour = append(a.colour, 0)
		a.tally = append(a.tally, arenaTally{ArenaStanding: ArenaStanding{Player: n}})
	}
}

func (a *Arena) known(p int) error {
	if p < 0 || p >= len(a.in) || !a.seen[p] {
		return fmt.Errorf("%w: player %d has not joined", ErrArena, p+1)
	}
	return nil
}

// Join enters player p (from 0; a large number is refused) with a rating
// used to order players on equal points, or brings back a player who
// withdrew, with the points they had.
func (a *Arena) Join(p, rating int) error {
	if a.ended {
		return fmt.Errorf("%w: the arena is over", ErrArena)
	}
	if p < 0 || p > 1_000_000 {
		return fmt.Errorf("%w: player number %d", ErrArena, p)
	}
	a.grow(p)
	a.in[p], a.seen[p], a.paused[p] = true, true, false
	a.rating[p] = rating
	return nil
}

// Pause keeps player p out of the next pairings (a game in progress is
// played out) until Resume.
func (a *Arena) Pause(p int) error {
	if err := a.known(p); err != nil {
		return err
	}
	a.paused[p] = true
	return nil
}

// Resume makes a paused player available again.
func (a *Arena) Resume(p int) error {
	if err := a.known(p); err != nil {
		return err
	}
	a.paused[p] = false
	return nil
}

// Withdraw takes player p out of the arena; their points stay in the
// standings, and a game in progress is played out. Join brings them back.
func (a *Arena) Withdraw(p int) error {
	if err := a.known(p); err != nil {
		return err
	}
	a.in[p] = false
	return nil
}

// Pair pairs every free player (joined, not paused, not playing) by
// PairArena and marks them playing.
func (a *Arena) Pair() ([]Pairing, error) {
	if a.ended {
		return nil, fmt.Errorf("%w: the arena is over", ErrArena)
	}
	var w []ArenaWaiting
	for p := range a.in {
		if a.in[p] && !a.paused[p] && !a.inGame[p] {
			w = append(w, ArenaWaiting{Player: p, Points: a.tally[p].Points, Rating: a.rating[p], LastOpponent: a.lastOpp[p], Colour: a.colour[p]})
		}
	}
	prs := PairArena(w)
	for _, pr := range prs {
		a.inGame[pr.White], a.inGame[pr.Black] = true, true
		a.playing[[2]int{pr.White, pr.Black}] = true
	}
	return prs, nil
}

// Finish records a game that Pair started, with its result and who
// berserked; it counts even after End.
func (a *Arena) Finish(g ArenaGame) error {
	key := [2]int{g.White, g.Black}
	if !a.playing[key] {
		return fmt.Errorf("%w: no game %d-%d is being played", ErrArena, g.White+1, g.Black+1)
	}
	if g.Result < WhiteWins || g.Result > BlackWins {
		return fmt.Errorf("%w: game %d-%d finished without a result", ErrArena, g.White+1, g.Black+1)
	}
	if (g.WhiteBerserk || g.BlackBerserk) && !a.opt.Clock {
		return fmt.Errorf("%w: berserk in an arena without a clock", ErrArena)
	}
	delete(a.playing, key)
	a.games = append(a.games, g)
	ws := [...]int{WhiteWins: 2, Draw: 1, BlackWins: 0}[g.Result]
	a.tally[g.White].add(ws, g.WhiteBerserk)
	a.tally[g.Black].add(2-ws, g.BlackBerserk)
	a.inGame[g.White], a.inGame[g.Black] = false, false
	a.lastOpp[g.White], a.lastOpp[g.Black] = g.Black, g.White
	a.colour[g.White]++
	a.colour[g.Black]--
	return nil
}

// End stops the pairing; games in progress may still Finish.
func (a *Arena) End() { a.ended = true }

// Playing is the number of games in progress.
func (a *Arena) Playing() int { return len(a.playing) }

// Games returns the finished games in the order they finished.
func (a *Arena) Games() []ArenaGame { return append([]ArenaGame(nil), a.games...) }

// Standings are ArenaStandings over the players who joined, by their
// numbers.
func (a *Arena) Standings() []ArenaStanding {
	st, _ := ArenaStandings(len(a.in), a.games, a.opt) // Finish checked every game
	out := st[:0]
	for _, s := range st {
		if a.seen[s.Player] {
			out = append(out, s)
		}
	}
	return out
}
