package match

import (
	"reflect"
	"testing"
	"time"

	"github.com/tabula-games/tabula/game"
)

// scored is a finished state with scores, for endOf.
type scored struct {
	game.State
	scores []int
}

func (s scored) Scores() []int { return s.scores }

func TestEndOf(t *testing.T) {
	now := time.Date(2026, 11, 2, 10, 0, 0, 0, time.UTC)
	humans := func(n int) []Seat {
		s := make([]Seat, n)
		for i := range s {
			s[i] = Seat{Kind: SeatHuman, UserID: int64(10 + i)}
		}
		return s
	}
	for _, tc := range []struct {
		name    string
		seats   []Seat
		rated   bool
		out     game.Outcome
		reason  Reason
		scores  []int
		forfeit int
		want    Result
		rate    bool
	}{
		{name: "seat 1 wins", seats: humans(2), out: game.WinOutcome(1), reason: ReasonNormal, forfeit: -1,
			want: Result{Status: Won, Winners: []int{1}, Reason: ReasonNormal}},
		{name: "a draw", seats: humans(2), out: game.Outcome{Status: game.Drawn}, reason: ReasonNormal, forfeit: -1,
			want: Result{Status: Drawn, Winners: []int{}, Reason: ReasonNormal}},
		{name: "a shared win with scores", seats: humans(3), out: game.WinOutcome(0, 2), reason: ReasonNormal, scores: []int{12, 40, 12}, forfeit: -1,
			want: Result{Status: Won, Winners: []int{0, 2}, Reason: ReasonNormal, Scores: []int{12, 40, 12}}},
		{name: "a resignation of three", seats: humans(3), reason: ReasonResign, scores: []int{5, 1, 9}, forfeit: 1,
			want: Result{Status: Won, Winners: []int{0, 2}, Reason: ReasonResign}},
		{name: "a loss on time, rated", seats: humans(2), rated: true, reason: ReasonTimeout, forfeit: 0,
			want: Result{Status: Won, Winners: []int{1}, Reason: ReasonTimeout}, rate: true},
		{name: "rated, normal", seats: humans(2), rated: true, out: game.WinOutcome(0), reason: ReasonNormal, forfeit: -1,
			want: Result{Status: Won, Winners: []int{0}, Reason: ReasonNormal}, rate: true},
		{name: "rated but with a bot: no ratings", seats: []Seat{{Kind: SeatHuman, UserID: 10}, {Kind: SeatBot, Level: "easy"}}, rated: true,
			out: game.WinOutcome(0), reason: ReasonNormal, forfeit: -1, want: Result{Status: Won, Winners: []int{0}, Reason: ReasonNormal}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			m := &Meta{Game: "x", Seats: tc.seats, Rated: tc.rated}
			var st game.State
			if tc.scores != nil {
				st = scored{scores: tc.scores}
			}
			end := endOf(m, tc.out, tc.reason, st, tc.forfeit, now)
			if !reflect.DeepEqual(end.Result, tc.want) || !end.Finished.Equal(now) {
				t.Fatalf("result %+v at %v, want %+v", end.Result, end.Finished, tc.want)
			}
			if (end.Rate != nil) != tc.rate {
				t.Fatalf("rating update: %v, want %v", end.Rate != nil, tc.rate)
			}
			if !tc.rate {
				return
			}
			if len(end.RatedUsers) != 2 || end.RatedUsers[0] != 10 || end.RatedUsers[1] != 11 {
				t.Fatalf("rated users %v", end.RatedUsers)
			}
			// Two new players: the winner goes up, the loser down by as
			// much, each with one more game and a smaller deviation.
			got := end.Rate([]Rating{{UserID: 10, Game: "x"}, {UserID: 11, Game: "x"}})
			w, l := got[tc.want.Winners[0]], got[1-tc.want.Winners[0]]
			if w.Rating <= 1500 || l.Rating >= 1500 || w.Rating-1500 < 1500-l.Rating-0.01 || w.Rating-1500 > 1500-l.Rating+0.01 {
				t.Fatalf("ratings after the game: winner %.1f, loser %.1f", w.Rating, l.Rating)
			}
			for _, r := range got {
				if r.Games != 1 || r.Deviation >= 350 || !r.Updated.Equal(now) || r.Game != "x" {
					t.Fatalf("rating %+v", r)
				}
			}
			// An established rating moves less than a new one.
			again := end.Rate([]Rating{{UserID: 10, Game: "x", Rating: 1500, Deviation: 60, Volatility: 0.06, Games: 30},
				{UserID: 11, Game: "x", Rating: 1500, Deviation: 60, Volatility: 0.06, Games: 30}})
			if d := again[tc.want.Winners[0]].Rating - 1500; d <= 0 || d >= w.Rating-1500 {
				t.Fatalf("an established winner gained %.1f (a new one %.1f)", d, w.Rating-1500)
			}
		})
	}
}
