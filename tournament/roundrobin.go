package tournament

import "fmt"

// MaxRoundRobinPlayers is the largest round robin: 15 rounds is an
// evening's limit, and FIDE publishes Berger tables up to 16.
const MaxRoundRobinPlayers = 16

// RoundRobinRounds is the number of rounds of a round robin of n players:
// n-1 for an even n, n for an odd one (each player sits out once), twice
// that for a double round robin.
func RoundRobinRounds(n int, double bool) int {
	r := n - 1
	if n%2 == 1 {
		r = n
	}
	if double {
		r *= 2
	}
	return r
}

// RoundRobinRound returns round r (from 0) of a round robin of n players
// (2 to 16) by FIDE's Berger tables: players are numbered 0…n-1 by their
// draw numbers; with an odd n the highest number of the table is the bye.
// A double round robin plays the table twice, colours reversed the second
// time, with the first cycle's last two rounds swapped (FIDE's advice, so
// that nobody has one colour three times in a row across the cycles).
func RoundRobinRound(n, r int, double bool) (Round, error) {
	if n < 2 || n > MaxRoundRobinPlayers {
		return Round{}, fmt.Errorf("%w: a round robin of %d players (2 to %d)", ErrInput, n, MaxRoundRobinPlayers)
	}
	total := RoundRobinRounds(n, double)
	if r < 0 || r >= total {
		return Round{}, fmt.Errorf("%w: round %d of a round robin of %d rounds", ErrInput, r+1, total)
	}
	m := n + n%2 // the table's size
	cycle := m - 1
	second := r >= cycle
	r %= cycle
	if double && !second && cycle >= 2 && r >= cycle-2 {
		r = 2*cycle - 3 - r // swap the last two rounds of the first cycle
	}
	// Berger: in round r the last number meets a = 1 + r·m/2 (mod m-1),
	// White in odd rounds (counting from 1); the others pair a+k with a-k,
	// a+k White.
	wrap := func(x int) int { return ((x-1)%cycle+cycle)%cycle + 1 }
	a := wrap(1 + r*m/2)
	var boards [][2]int
	if r%2 == 0 {
		boards = append(boards, [2]int{a, m})
	} else {
		boards = append(boards, [2]int{m, a})
	}
	for k := 1; k < m/2; k++ {
		boards = append(boards, [2]int{wrap(a + k), wrap(a - k)})
	}
	var out Round
	for _, b := range boards {
		w, bl := b[0]-1, b[1]-1
		if second {
			w, bl = bl, w
		}
		switch {
		case w >= n:
			out.Byes = append(out.Byes, bl)
		case bl >= n:
			out.Byes = append(out.Byes, w)
		default:
			out.Pairings = append(out.Pairings, Pairing{White: w, Black: bl})
		}
	}
	return out, nil
}
