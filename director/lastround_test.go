package director_test

import (
	"testing"

	"github.com/tabula-games/tabula/director"
	"github.com/tabula-games/tabula/store"
)

// TestSwissLastRoundException: the director pairs a Swiss's last round
// with FIDE's topscorer exception (tournament.SwissOptions.LastRound), and
// the rounds before it without. The history is the tournament package's
// TestDutchTopscorersMeetInTheLastRound (bbpPairings' tournament 54 up to
// round 8, whose top seed began with Black) with every colour mirrored, so
// that the director's default initial colour (White) fits it: in the last
// round players 2 and 10 meet although both must have the same colour;
// in any other round they may not. The director passed no options, so the
// site never applied the exception.
func TestSwissLastRoundException(t *testing.T) {
	played := [][][3]int{ // white, black, result (1: white wins, 0: draw, -1: black wins), as in bbpPairings' colours
		{{1, 13, 1}, {3, 15, 1}, {5, 17, 1}, {7, 19, 1}, {9, 21, 1}, {11, 23, 1}, {12, 0, 0}, {14, 2, -1}, {16, 4, -1}, {18, 6, -1}, {20, 8, -1}, {22, 10, -1}},
		{{0, 11, 1}, {2, 7, 1}, {4, 9, 0}, {6, 1, -1}, {8, 3, -1}, {10, 5, 0}, {13, 12, -1}, {15, 20, 0}, {17, 22, 0}, {19, 14, -1}, {21, 16, -1}, {23, 18, -1}},
		{{1, 2, 1}, {3, 4, 0}, {5, 0, 0}, {7, 14, 1}, {9, 6, 1}, {11, 18, 1}, {12, 10, 0}, {16, 8, -1}, {20, 17, -1}, {21, 13, 0}, {22, 15, -1}, {23, 19, -1}},
		{{0, 7, 1}, {2, 9, 0}, {3, 1, 1}, {4, 12, 1}, {6, 19, 0}, {8, 5, 0}, {10, 11, -1}, {13, 20, 0}, {14, 16, 0}, {15, 17, 1}, {18, 21, 0}, {22, 23, 1}},
		{{1, 0, -1}, {5, 15, 1}, {7, 10, 1}, {8, 2, 0}, {9, 3, -1}, {11, 4, -1}, {12, 14, 1}, {16, 22, 1}, {17, 6, -1}, {19, 18, 1}, {20, 21, -1}, {23, 13, -1}},
		{{0, 3, -1}, {1, 8, 1}, {2, 12, 1}, {4, 5, -1}, {6, 11, 1}, {9, 7, -1}, {13, 19, -1}, {14, 22, 0}, {15, 16, 1}, {18, 17, 1}, {20, 23, 0}, {21, 10, 0}},
		{{3, 5, 1}, {4, 0, -1}, {7, 1, 0}, {10, 18, 1}, {11, 8, 0}, {12, 9, -1}, {14, 20, 1}, {15, 6, -1}, {16, 13, 0}, {17, 23, 1}, {19, 2, -1}, {22, 21, -1}},
		{{0, 6, 0}, {2, 3, 1}, {5, 1, 0}, {7, 4, 0}, {8, 9, -1}, {10, 14, 0}, {17, 16, 1}, {18, 13, -1}, {19, 11, -1}, {20, 22, -1}, {21, 15, 0}, {23, 12, -1}},
	}
	const n = 24
	id := func(i int) int64 { return int64(100 + i) }
	var players []store.TournamentPlayer
	for i := range n {
		players = append(players, store.TournamentPlayer{UserID: id(i), Number: i})
	}
	var rounds []store.TournamentRound
	for r, games := range played {
		sr := store.TournamentRound{Number: r + 1}
		for b, g := range games {
			// Mirrored: the game's Black is White here, and its result turns with it.
			res := map[int]string{1: store.BoardBlackWins, 0: store.BoardDraw, -1: store.BoardWhiteWins}[g[2]]
			sr.Boards = append(sr.Boards, store.TournamentBoard{Board: b, White: id(g[1]), Black: id(g[0]), GameID: "g", Result: res})
		}
		rounds = append(rounds, sr)
	}
	meet := func(total int) bool {
		t.Helper()
		tr := &store.Tournament{ID: "t", Format: director.Swiss, Rounds: total}
		next, err := director.NextRound(tr, players, rounds, nil)
		if err != nil {
			t.Fatalf("round 9 of %d: %v", total, err)
		}
		if next.Number != 9 || len(next.Boards) != n/2 {
			t.Fatalf("round 9 of %d: round %d with %d boards", total, next.Number, len(next.Boards))
		}
		for _, b := range next.Boards {
			if min(b.White, b.Black) == id(1) && max(b.White, b.Black) == id(9) {
				return true
			}
		}
		return false
	}
	if !meet(9) {
		t.Error("the last round (9 of 9): players 2 and 10 do not meet — paired without the topscorer exception")
	}
	if meet(10) {
		t.Error("round 9 of 10: players 2 and 10 meet, which only the last round allows")
	}
}
