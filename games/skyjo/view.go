package skyjo

import (
	"strconv"

	"github.com/tabula-games/tabula/game"
)

// public is everything every seat may see, and nothing else: face-up
// values (never a face-down one), the discard pile, the deck's size (never
// its order), the held card, the totals and the public counters of the
// round. View writes it as JSON; Determinize and the policy are functions of
// it alone, which is what keeps them honest.
type public struct {
	cfg        config
	round      int32
	turn       int32
	phase      phase
	toMove     int8
	starter    int8
	ender      int8
	reshuffles uint8
	held       int8
	winners    uint8
	totals     [MaxPlayers]int32
	face       [MaxPlayers][gridCards]int8 // face-up values; 0 where up is clear
	up         [MaxPlayers]uint16
	gone       [MaxPlayers]uint16
	deckN      uint8
	discN      uint8
	disc       [deckSize]int8
}

// public copies the public part of s.
func (s *State) public() (v public) {
	v.cfg = s.cfg
	v.round, v.turn, v.phase = s.round, s.turn, s.phase
	v.toMove, v.starter, v.ender = s.toMove, s.starter, s.ender
	v.reshuffles, v.held, v.winners = s.reshuffles, s.held, s.winners
	v.totals = s.totals
	v.up, v.gone = s.up, s.gone
	for p := 0; p < int(s.cfg.players); p++ {
		for m := s.up[p]; m != 0; m &= m - 1 {
			i := trailingZeros(m)
			v.face[p][i] = s.cards[p][i]
		}
	}
	v.deckN, v.discN = s.deckN, s.discN
	copy(v.disc[:s.discN], s.disc[:s.discN])
	return v
}

// View implements game.HiddenInfo: the spec's public view, the same for
// every seat (nobody, not even a card's owner, knows a face-down card).
//
// Beyond the spec's fields it carries three public facts that decide the
// round's future and that a player at the table knows: "starter" (who takes
// the round's first turn once the initial flips are done; -1 in round 1
// until they are), "turn" (turns completed this round) and "reshuffles"
// (deck reshuffles this round), the counters of the house rule.
func (s *State) View(seat int) ([]byte, error) {
	v := s.public()
	return v.appendJSON(make([]byte, 0, 1024)), nil
}

func (v *public) appendJSON(b []byte) []byte {
	n := int(v.cfg.players)
	b = append(b, `{"game":"skyjo","round":`...)
	b = strconv.AppendInt(b, int64(v.round), 10)
	b = append(b, `,"toMove":`...)
	b = strconv.AppendInt(b, int64(v.toMove), 10)
	b = append(b, `,"phase":"`...)
	b = append(b, phaseNames[v.phase]...)
	b = append(b, `","players":[`...)
	for p := 0; p < n; p++ {
		if p > 0 {
			b = append(b, ',')
		}
		b = append(b, `{"grid":[`...)
		for r := 0; r < 3; r++ {
			if r > 0 {
				b = append(b, ',')
			}
			b = append(b, '[')
			for c := 0; c < 4; c++ {
				if c > 0 {
					b = append(b, ',')
				}
				i := c*3 + r
				switch bit := uint16(1) << i; {
				case v.gone[p]&bit != 0:
					b = append(b, `"x"`...)
				case v.up[p]&bit != 0:
					b = strconv.AppendInt(b, int64(v.face[p][i]), 10)
				default:
					b = append(b, `"?"`...)
				}
			}
			b = append(b, ']')
		}
		b = append(b, `],"total":`...)
		b = strconv.AppendInt(b, int64(v.totals[p]), 10)
		b = append(b, `,"ended":`...)
		b = strconv.AppendBool(b, int(v.ender) == p)
		b = append(b, '}')
	}
	b = append(b, `],"discard":`...)
	b = appendCards(b, v.disc[:v.discN])
	b = append(b, `,"deck":`...)
	b = strconv.AppendInt(b, int64(v.deckN), 10)
	b = append(b, `,"held":`...)
	b = appendHeld(b, v.held)
	b = append(b, `,"finalLap":`...)
	b = strconv.AppendBool(b, v.ender >= 0 && v.phase != phaseOver)
	b = append(b, `,"starter":`...)
	b = strconv.AppendInt(b, int64(v.starter), 10)
	b = append(b, `,"turn":`...)
	b = strconv.AppendInt(b, int64(v.turn), 10)
	b = append(b, `,"reshuffles":`...)
	b = strconv.AppendInt(b, int64(v.reshuffles), 10)
	b = append(b, `,"options":`...)
	b = appendOptions(b, v.cfg)
	return append(b, '}')
}

func appendCards(b []byte, cards []int8) []byte {
	b = append(b, '[')
	for i, c := range cards {
		if i > 0 {
			b = append(b, ',')
		}
		b = strconv.AppendInt(b, int64(c), 10)
	}
	return append(b, ']')
}

func appendHeld(b []byte, held int8) []byte {
	if held == noCard {
		return append(b, "null"...)
	}
	return strconv.AppendInt(b, int64(held), 10)
}

// appendOptions writes the options as a JSON object with sorted keys.
func appendOptions(b []byte, c config) []byte {
	b = append(b, `{"columns":"`...)
	b = append(b, pick(c.columns, "on", "off")...)
	b = append(b, `","double":"`...)
	b = append(b, pick(c.always, "always", "positive")...)
	b = append(b, `","maxturns":"`...)
	b = strconv.AppendInt(b, int64(c.maxTurns), 10)
	b = append(b, `","players":"`...)
	b = strconv.AppendInt(b, int64(c.players), 10)
	b = append(b, `","starter":"`...)
	b = append(b, pick(c.finisher, "finisher", "winner")...)
	b = append(b, `","target":"`...)
	b = strconv.AppendInt(b, int64(c.target), 10)
	return append(b, `"}`...)
}

func pick(b bool, yes, no string) string {
	if b {
		return yes
	}
	return no
}

// Determinize implements game.HiddenInfo. It reads the receiver only through
// public() — the information View(seat) writes — and builds dst from that
// alone: first the public part, then every face-down card and the deck drawn
// uniformly from the cards visible nowhere, then a generator reseeded from
// rng, so that future reshuffles and deals leak nothing of the true state
// either. Every seat sees the same, so seat does not matter.
func (s *State) Determinize(dst game.State, seat int, rng *game.RNG) {
	v := s.public()
	v.sample(dst.(*State), rng)
}

// sample overwrites d with a full state consistent with v.
func (v *public) sample(d *State, rng *game.RNG) {
	*d = State{}
	d.cfg = v.cfg
	d.round, d.turn, d.phase = v.round, v.turn, v.phase
	d.toMove, d.starter, d.ender = v.toMove, v.starter, v.ender
	d.reshuffles, d.held, d.winners = v.reshuffles, v.held, v.winners
	d.totals = v.totals
	d.up, d.gone = v.up, v.gone
	d.cards = v.face
	d.discN = v.discN
	copy(d.disc[:v.discN], v.disc[:v.discN])
	d.rec.forget()

	// The unseen cards: the 150 minus every visible one.
	pool, k := v.unseen()
	shuffle(pool[:k], rng)
	for p := 0; p < int(v.cfg.players); p++ {
		for m := gridMask &^ (v.up[p] | v.gone[p]); m != 0; m &= m - 1 {
			k--
			d.cards[p][trailingZeros(m)] = pool[k]
		}
	}
	// What is left is the deck (k == deckN for a consistent view).
	d.deckN = uint8(k)
	copy(d.deck[:k], pool[:k])
	d.rng = game.NewRNG(rng.Uint64())
}

// unseen lists the cards visible nowhere in v (in value order).
func (v *public) unseen() (pool [deckSize]int8, k int) {
	count, _ := v.unseenCounts()
	for i, c := range count {
		for ; c > 0; c-- {
			pool[k] = int8(i - 2)
			k++
		}
	}
	return pool, k
}

// fullCounts is the deck by value (index value+2): −2 ×5, −1 ×10, 0 ×15,
// 1…12 ×10 each.
var fullCounts = func() (c [15]int) {
	for _, x := range fullDeck {
		c[x+2]++
	}
	return c
}()

// unseenCounts counts the cards visible nowhere, by value (index value+2),
// and their number. The policy needs only these counts, and building them
// without listing the cards keeps it fast.
func (v *public) unseenCounts() (count [15]int, k int) {
	count = fullCounts
	k = deckSize
	for p := 0; p < int(v.cfg.players); p++ {
		for m := v.up[p]; m != 0; m &= m - 1 {
			count[v.face[p][trailingZeros(m)]+2]--
			k--
		}
	}
	for _, c := range v.disc[:v.discN] {
		count[c+2]--
	}
	k -= int(v.discN)
	if v.held != noCard {
		count[v.held+2]--
		k--
	}
	return count, k
}
