package tournament

// Colour preferences and allocation by the FIDE rules (C.04.1 and the
// Dutch system's article A.6 and section E). Only games played over the
// board have a colour; a bye or an absence has none.

// Strengths of a colour preference, weakest first.
const (
	prefNone     = 0
	prefMild     = 1
	prefStrong   = 2
	prefAbsolute = 3
)

// pref is a player's colour preference: the colour wanted (white, black or
// noColour) and how strongly.
type pref struct {
	want     int8
	strength int
}

// colourPref computes the preference from the colours of the rounds: the
// colour difference (whites minus blacks) and the last two played colours.
func colourPref(colours []int8) pref {
	var played []int8
	diff := 0
	for _, c := range colours {
		if c != noColour {
			played = append(played, c)
			diff += int(c)
		}
	}
	if len(played) == 0 {
		return pref{}
	}
	last := played[len(played)-1]
	twice := len(played) >= 2 && played[len(played)-2] == last
	switch {
	case diff < -1 || diff > 1 || twice:
		// The absolute limits: never a colour difference beyond 2, never
		// three of one colour in a row.
		want := -last
		if diff < -1 {
			want = white
		} else if diff > 1 {
			want = black
		}
		return pref{want, prefAbsolute}
	case diff == 1:
		return pref{black, prefStrong}
	case diff == -1:
		return pref{white, prefStrong}
	}
	return pref{-last, prefMild}
}

// compatible reports whether two players may meet as far as colours go:
// never two with the same absolute preference (the Dutch criterion C3; the
// FIDE exception for topscorers in the last round is the engine's,
// swissEngine.allowed).
func compatible(a, b pref) bool {
	return !(a.strength == prefAbsolute && b.strength == prefAbsolute && a.want == b.want)
}

// allocate decides whether a plays White against b (section E). rankA and
// rankB are their places in the ranking before the round (score, then
// pairing number; lower is better); tpnA and tpnB their pairing numbers
// (from 1); firstWhite is the colour the top seed had in round 1.
func allocate(a, b pref, ca, cb []int8, rankA, rankB, tpnA, tpnB int, firstWhite bool) bool {
	switch {
	case a.want != noColour && b.want != noColour && a.want != b.want: // E.1
		return a.want == white
	case a.want != noColour && b.want == noColour:
		return a.want == white
	case b.want != noColour && a.want == noColour:
		return b.want == black
	case a.want != noColour: // the same colour wanted
		if a.strength == prefAbsolute && b.strength == prefAbsolute { // topscorers: the wider imbalance
			if ia, ib := imbalance(ca), imbalance(cb); ia != ib {
				if ia > ib {
					return a.want == white
				}
				return b.want == black
			}
		}
		if a.strength != b.strength { // E.2
			if a.strength > b.strength {
				return a.want == white
			}
			return b.want == black
		}
		// E.3: alternate from the latest time they had different
		// colours, each player's games over the board counted back from
		// her last one (a round without a game is skipped, as
		// bbpPairings does, not matched against the other's game of that
		// round).
		x, y := len(ca)-1, len(cb)-1
		for {
			for x >= 0 && ca[x] == noColour {
				x--
			}
			for y >= 0 && cb[y] == noColour {
				y--
			}
			if x < 0 || y < 0 {
				break
			}
			if ca[x] != cb[y] {
				return ca[x] == black
			}
			x, y = x-1, y-1
		}
		if rankA < rankB { // E.4
			return a.want == white
		}
		return b.want == black
	}
	// E.5: nobody has a preference: the higher ranked player takes the
	// initial colour with an odd pairing number, the other one otherwise.
	hiTPN, aIsHi := tpnA, rankA < rankB
	if !aIsHi {
		hiTPN = tpnB
	}
	hiWhite := (hiTPN%2 == 1) == firstWhite
	return hiWhite == aIsHi
}

// satisfied reports whether p's preference is met by getting white.
func (p pref) satisfied(gotWhite bool) bool {
	return p.want == noColour || (p.want == white) == gotWhite
}

// imbalance is the difference between a player's games with White and
// with Black, either way.
func imbalance(colours []int8) int {
	d := 0
	for _, c := range colours {
		d += int(c)
	}
	return max(d, -d)
}

// repeated is the colour of a player's last two games over the board when
// they had the same one, or noColour.
func repeated(colours []int8) int8 {
	var last []int8
	for x := len(colours) - 1; x >= 0 && len(last) < 2; x-- {
		if colours[x] != noColour {
			last = append(last, colours[x])
		}
	}
	if len(last) == 2 && last[0] == last[1] {
		return last[0]
	}
	return noColour
}
