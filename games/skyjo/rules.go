package skyjo

import "github.com/tabula-games/tabula/game"

// Moves. A flip is its position (0–11), a swap moveSwap+position.
const (
	moveSwap game.Move = 16
	moveTake game.Move = 32
	moveDraw game.Move = 33
)

// fullDeck is the 150 cards in a fixed order; every round shuffles a copy.
// Starting each round from the same order (rather than from wherever the
// previous round left the cards) changes nothing about the distribution and
// makes a round's deal depend on the generator alone.
var fullDeck = func() (d [deckSize]int8) {
	i := 0
	add := func(v int8, k int) {
		for ; k > 0; k-- {
			d[i] = v
			i++
		}
	}
	add(-2, 5)
	add(-1, 10)
	add(0, 15)
	for v := int8(1); v <= 12; v++ {
		add(v, 10)
	}
	return d
}()

// shuffle is a Fisher–Yates shuffle drawing from rng.
func shuffle(a []int8, rng *game.RNG) {
	for i := len(a) - 1; i > 0; i-- {
		j := rng.IntN(i + 1)
		a[i], a[j] = a[j], a[i]
	}
}

// deal starts a round: shuffle the 150 cards, deal 12 face down to each
// player (seat 0 first, positions in index order, from the top of the
// deck), turn the next card up as the discard pile.
func (s *State) deal() {
	n := int(s.cfg.players)
	s.deck = fullDeck
	shuffle(s.deck[:], &s.rng)
	s.rec.addDeal(s.round, &s.deck)
	top := deckSize
	for p := 0; p < n; p++ {
		for i := 0; i < gridCards; i++ {
			top--
			s.cards[p][i] = s.deck[top]
		}
		s.up[p], s.gone[p] = 0, 0
	}
	top--
	s.disc[0] = s.deck[top]
	s.discN = 1
	s.deckN = uint8(top)
	s.phase = phaseFlips
	s.toMove = 0
	s.ender = -1
	s.turn = 0
	s.reshuffles = 0
	s.held = noCard
}

// Legal implements game.State. Order: flips and swaps by position; after a
// draw all swaps, then all flips; take before draw.
func (s *State) Legal(dst []game.Move) []game.Move {
	p := int(s.toMove)
	switch s.phase {
	case phaseFlips:
		dst = appendPositions(dst, s.down(p), 0)
	case phaseChoose:
		dst = append(dst, moveTake, moveDraw)
	case phaseTook:
		dst = appendPositions(dst, s.present(p), moveSwap)
	case phaseDrawn:
		dst = appendPositions(dst, s.present(p), moveSwap)
		dst = appendPositions(dst, s.down(p), 0)
	}
	return dst
}

func appendPositions(dst []game.Move, m uint16, base game.Move) []game.Move {
	for ; m != 0; m &= m - 1 {
		dst = append(dst, base+game.Move(trailingZeros(m)))
	}
	return dst
}

// Play implements game.State. Round ends, scoring and the next deal happen
// inside the ply that ends a round, so every ply is a decision of the seat
// to move.
func (s *State) Play(m game.Move) {
	p := int(s.toMove)
	switch {
	case m == moveTake:
		s.discN--
		s.held = s.disc[s.discN]
		s.phase = phaseTook
	case m == moveDraw:
		s.deckN--
		s.held = s.deck[s.deckN]
		s.phase = phaseDrawn
	case m >= moveSwap:
		pos := int(m - moveSwap)
		out := s.cards[p][pos]
		s.cards[p][pos] = s.held
		s.up[p] |= 1 << pos
		s.held = noCard
		s.push(out)
		s.checkColumn(p, pos)
		s.endTurn()
	default:
		pos := int(m)
		s.up[p] |= 1 << pos
		if s.phase == phaseFlips {
			s.initialFlip(p)
			return
		}
		s.push(s.held)
		s.held = noCard
		s.checkColumn(p, pos)
		s.endTurn()
	}
}

func (s *State) push(v int8) {
	s.disc[s.discN] = v
	s.discN++
}

// initialFlip moves the initial flips on once seat p has flipped two cards;
// after the last seat the first turn begins.
func (s *State) initialFlip(p int) {
	if popcount(s.up[p]) < 2 {
		return
	}
	if p+1 < int(s.cfg.players) {
		s.toMove++
		return
	}
	if s.starter < 0 {
		// Round 1: the highest sum of the two revealed cards starts; the
		// earliest seat wins a tie.
		best := int32(-1 << 30)
		for q := 0; q < int(s.cfg.players); q++ {
			if sum := s.sumUp(q); sum > best {
				best, s.starter = sum, int8(q)
			}
		}
	}
	s.toMove = s.starter
	s.phase = phaseChoose
}

// sumUp is the sum of seat p's face-up cards.
func (s *State) sumUp(p int) int32 {
	var sum int32
	for m := s.up[p]; m != 0; m &= m - 1 {
		sum += int32(s.cards[p][trailingZeros(m)])
	}
	return sum
}

// checkColumn removes the column holding pos if its three cards are face up
// and equal (columns=on). The cards go on the discard pile on top of the
// card just discarded, so the next player may take one.
func (s *State) checkColumn(p, pos int) {
	if !s.cfg.columns {
		return
	}
	c := pos / 3 * 3
	m := uint16(colMask) << c
	if s.up[p]&m != m {
		return
	}
	g := &s.cards[p]
	v := g[c]
	if g[c+1] != v || g[c+2] != v {
		return
	}
	s.up[p] &^= m
	s.gone[p] |= m
	s.disc[s.discN] = v
	s.disc[s.discN+1] = v
	s.disc[s.discN+2] = v
	s.discN += 3
}

// endTurn finishes seat toMove's turn: it may end the round (the player has
// no face-down card left), close the final lap, hit the house-rule limits,
// or reshuffle the deck.
func (s *State) endTurn() {
	p := s.toMove
	s.turn++
	if s.ender < 0 && s.down(int(p)) == 0 {
		s.ender = p
	}
	next := p + 1
	if next == s.cfg.players {
		next = 0
	}
	switch {
	case next == s.ender:
		s.endRound(true)
		return
	case s.turn >= int32(s.cfg.maxTurns)*int32(s.cfg.players):
		s.endRound(false)
		return
	case s.deckN == 0:
		if s.reshuffles > 0 {
			s.endRound(false)
			return
		}
		s.reshuffle()
	}
	s.toMove = next
	s.phase = phaseChoose
}

// reshuffle turns the discard pile except its top card into a new deck.
func (s *State) reshuffle() {
	k := int(s.discN) - 1
	top := s.disc[k]
	copy(s.deck[:k], s.disc[:k])
	shuffle(s.deck[:k], &s.rng)
	s.deckN = uint8(k)
	s.disc[0] = top
	s.discN = 1
	s.reshuffles++
	s.rec.addReshuffle(s.round, s.deck[:k])
}

// reveal reveals every face-down card (seat by seat, removing the
// columns the reveal completes) and returns each seat's sum, before doubling.
func (s *State) reveal() (score [MaxPlayers]int32) {
	for p := 0; p < int(s.cfg.players); p++ {
		d := s.down(p)
		s.up[p] |= d
		if s.cfg.columns {
			for c := 0; c < gridCards; c += 3 {
				if d&(colMask<<c) != 0 {
					s.checkColumn(p, c)
				}
			}
		}
		score[p] = s.sumUp(p)
	}
	return score
}

// roundHook, when set (by statistics tests only), sees every round's raw
// and doubled scores as the round is scored.
// It takes values only, so that nothing of the state escapes through it.
var roundHook func(players int, raw, scored [MaxPlayers]int32)

// endRound reveals and scores the round. normal is false when the house rule
// cut the round short, in which case nobody is doubled. Then the game ends
// or the next round is dealt.
func (s *State) endRound(normal bool) {
	n := int(s.cfg.players)
	score := s.reveal()
	raw := score
	if e := int(s.ender); normal && e >= 0 {
		lowest := true
		for q := 0; q < n; q++ {
			if q != e && score[q] <= score[e] {
				lowest = false
			}
		}
		if !lowest && (score[e] > 0 || s.cfg.always) {
			score[e] *= 2
		}
	}
	if roundHook != nil {
		roundHook(n, raw, score)
	}
	winner := 0
	over := false
	for p := 0; p < n; p++ {
		if score[p] < score[winner] {
			winner = p
		}
		s.totals[p] += score[p]
		if s.totals[p] >= s.cfg.target {
			over = true
		}
	}
	if over {
		s.finish()
		return
	}
	if s.cfg.finisher && s.ender >= 0 {
		s.starter = s.ender
	} else {
		s.starter = int8(winner)
	}
	s.round++
	s.deal()
}

// finish ends the game: the lowest totals share the win.
func (s *State) finish() {
	n := int(s.cfg.players)
	low := s.totals[0]
	for p := 1; p < n; p++ {
		low = min(low, s.totals[p])
	}
	s.winners = 0
	for p := 0; p < n; p++ {
		if s.totals[p] == low {
			s.winners |= 1 << p
		}
	}
	s.phase = phaseOver
	s.toMove = -1
	s.held = noCard
}
