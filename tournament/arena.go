package tournament

import (
	"fmt"
	"sort"
)

// Arena scoring, as lichess scores its arenas: a win 2 points, a draw 1, a
// loss 0; after two wins in a row a player is "on fire" and every game
// counts double (a win 4, a draw 2) until one is not won; a berserk win —
// the player halved their own clock at the start — adds 1 point, never
// doubled. Berserk needs a clock.

// ArenaGame is one finished arena game. An arena's games are kept in the
// order they finished, which is the order a streak runs in.
type ArenaGame struct {
	White, Black int
	Result       Result
	// WhiteBerserk and BlackBerserk: the player berserked.
	WhiteBerserk, BlackBerserk bool
}

// ArenaOptions describe an arena.
type ArenaOptions struct {
	// Clock: its games are played with a clock, so berserk is allowed.
	Clock bool
}

// ArenaStanding is one line of an arena's standings.
type ArenaStanding struct {
	Player int
	// Rank is the place from 1; players on equal points share it (lichess
	// breaks such ties by performance rating; Tabula does not yet).
	Rank   int
	Points int
	// OnFire: the player's last two games were won, so the next counts
	// double.
	OnFire bool
	// Sheet is the points of each of the player's games, in order.
	Sheet                                []int
	Games, Wins, Draws, Losses, Berserks int
}

// ArenaPoints is what one game is worth to a player: score is 2 for a win,
// 1 for a draw, 0 for a loss; onFire doubles it; a berserk win adds 1.
func ArenaPoints(score int, onFire, berserk bool) int {
	p := score
	if onFire {
		p *= 2
	}
	if berserk && score == 2 {
		p++
	}
	return p
}

// arenaTally is one player's running score.
type arenaTally struct {
	ArenaStanding
	streak int // games won in a row, up to now
}

func (t *arenaTally) add(score int, berserk bool) {
	p := ArenaPoints(score, t.streak >= 2, berserk)
	t.Points += p
	t.Sheet = append(t.Sheet, p)
	t.Games++
	switch score {
	case 2:
		t.Wins++
		t.streak++
	case 1:
		t.Draws++
		t.streak = 0
	default:
		t.Losses++
		t.streak = 0
	}
	if berserk {
		t.Berserks++
	}
	t.OnFire = t.streak >= 2
}

func tallyArena(n int, games []ArenaGame, opt ArenaOptions) ([]arenaTally, error) {
	t := make([]arenaTally, n)
	for p := range t {
		t[p].Player = p
	}
	for i, g := range games {
		if g.White < 0 || g.White >= n || g.Black < 0 || g.Black >= n || g.White == g.Black {
			return nil, fmt.Errorf("%w: arena game %d between players %d and %d of %d", ErrInput, i+1, g.White+1, g.Black+1, n)
		}
		if g.Result < WhiteWins || g.Result > BlackWins {
			return nil, fmt.Errorf("%w: arena game %d has no result", ErrInput, i+1)
		}
		if (g.WhiteBerserk || g.BlackBerserk) && !opt.Clock {
			return nil, fmt.Errorf("%w: arena game %d: berserk without a clock", ErrInput, i+1)
		}
		ws := [...]int{WhiteWins: 2, Draw: 1, BlackWins: 0}[g.Result]
		t[g.White].add(ws, g.WhiteBerserk)
		t[g.Black].add(2-ws, g.BlackBerserk)
	}
	return t, nil
}

// ArenaStandings ranks n players by their arena points after the games,
// given in the order they finished.
func ArenaStandings(n int, games []ArenaGame, opt ArenaOptions) ([]ArenaStanding, error) {
	t, err := tallyArena(n, games, opt)
	if err != nil {
		return nil, err
	}
	out := make([]ArenaStanding, n)
	for p := range t {
		out[p] = t[p].ArenaStanding
	}
	sort.SliceStable(out, func(a, b int) bool { return out[a].Points > out[b].Points })
	for i := range out {
		if i > 0 && out[i].Points == out[i-1].Points {
			out[i].Rank = out[i-1].Rank
		} else {
			out[i].Rank = i + 1
		}
	}
	return out, nil
}

// ArenaWaiting is a player free to start a game.
type ArenaWaiting struct {
	Player, Points, Rating int
	// LastOpponent is the opponent of the player's last game, or -1.
	LastOpponent int
	// Colour is the player's whites minus blacks so far.
	Colour int
}

// arenaWindow bounds one matching: waiting players are matched among the
// window of neighbours in the standings, which keeps a wave of 1,000
// players to milliseconds and opponents near in score anyway.
const arenaWindow = 32

// PairArena pairs waiting players as an arena does: by standings (points,
// then rating), each with someone near, never with the opponent of their
// last game when another pairing of the same players avoids it; the one
// who has had fewer whites takes White. With an odd number one player is
// left to wait for the next to finish.
func PairArena(waiting []ArenaWaiting) []Pairing {
	var w []ArenaWaiting
	seen := map[int]bool{}
	for _, x := range waiting { // a player listed twice is paired once
		if !seen[x.Player] {
			seen[x.Player] = true
			w = append(w, x)
		}
	}
	sort.SliceStable(w, func(i, j int) bool {
		if w[i].Points != w[j].Points {
			return w[i].Points > w[j].Points
		}
		if w[i].Rating != w[j].Rating {
			return w[i].Rating > w[j].Rating
		}
		return w[i].Player < w[j].Player
	})
	var out []Pairing
	for lo := 0; lo < len(w); lo += arenaWindow {
		win := w[lo:min(lo+arenaWindow, len(w))]
		var edges []Edge
		for i := range win {
			for j := i + 1; j < len(win); j++ {
				d := int64(j - i)
				// Distance in the standings first (squared: two short
				// pairings beat a long and a neighbour); then, of
				// pairings as near, the one that leaves a lower-ranked
				// player waiting (each matched player adds a bonus that
				// falls with rank, less than one step of distance).
				cost := d*d*4*arenaWindow - int64(2*arenaWindow-i-j)
				if win[i].LastOpponent == win[j].Player || win[j].LastOpponent == win[i].Player {
					cost += 1 << 24 // far more than any distance within a window
				}
				edges = append(edges, Edge{i, j, 1<<30 - cost})
			}
		}
		mate := MaxWeightMatching(len(win), edges, true)
		for i, j := range mate {
			if j <= i {
				continue
			}
			a, b := win[i], win[j]
			if b.Colour < a.Colour {
				a, b = b, a
			}
			out = append(out, Pairing{White: a.Player, Black: b.Player})
		}
	}
	return out
}
