package match

import (
	"time"

	"github.com/tabula-games/tabula/game"
	"github.com/tabula-games/tabula/rating"
)

// Verdict is how a game ended for its seats as a whole.
type Verdict string

// The verdicts.
const (
	Won   Verdict = "won"
	Drawn Verdict = "drawn"
)

// Reason is why a game ended.
type Reason string

// The reasons a game ends.
const (
	ReasonNormal  Reason = "normal"  // the rules ended it
	ReasonResign  Reason = "resign"  // a seat resigned
	ReasonTimeout Reason = "timeout" // a seat ran out of time
	ReasonAgreed  Reason = "agreed"  // the players agreed to a draw
	// ReasonAbandoned: the seat to move was away past the grace, and
	// another player claimed the win (presence.go); or nobody moved for
	// the idle expiry (expiry.go).
	ReasonAbandoned Reason = "abandoned"
)

// Result is how a game ended.
type Result struct {
	Status  Verdict `json:"status"`
	Winners []int   `json:"winners"`
	Reason  Reason  `json:"reason"`
	Scores  []int   `json:"scores,omitempty"` // for games with scores; nil otherwise
}

// Rating is one user's Glicko-2 rating in one game, as it is stored.
type Rating struct {
	UserID     int64
	Game       string
	Rating     float64
	Deviation  float64
	Volatility float64
	Games      int
	Updated    time.Time
}

// End finishes a game.
type End struct {
	Result   Result
	Finished time.Time
	// Rate, if set, is called inside the finishing transaction with the
	// current ratings in the game of RatedUsers (a user without a rating
	// yet has Games == 0 and zero values) and returns the ratings to store.
	// Doing it inside the transaction means two games ending at once can
	// never lose one of their updates.
	RatedUsers []int64
	Rate       func(current []Rating) []Rating
}

// endOf is the end of a game in m for an outcome of its rules (forfeit < 0;
// st is the final state, for scores), or for a seat that resigned or lost on
// time (forfeit >= 0): that seat loses and every other seat shares the win.
// A rated game between people also gets its rating update.
func endOf(m *Meta, out game.Outcome, reason Reason, st game.State, forfeit int, now time.Time) End {
	n := len(m.Seats)
	res := Result{Status: Drawn, Reason: reason, Winners: []int{}}
	winners := make([]bool, n)
	if forfeit >= 0 {
		res.Status = Won
		for i := range winners {
			winners[i] = i != forfeit
		}
	} else {
		if out.Status == game.Won {
			res.Status = Won
		}
		for i := range winners {
			winners[i] = out.Status == game.Won && out.IsWinner(i)
		}
		if sc, ok := st.(game.Scorer); ok {
			res.Scores = sc.Scores()
		}
	}
	for i, w := range winners {
		if w {
			res.Winners = append(res.Winners, i)
		}
	}
	// A forfeit is decided by who forfeited, not by the scores so far.
	places := rating.Places(n, winners, res.Scores)
	if forfeit >= 0 {
		places = rating.Places(n, winners, nil)
	}
	return withRating(m, End{Result: res, Finished: now}, places)
}

// agreedDraw is the end of a game whose players agreed to a draw: every
// seat shares the same place, whatever the scores so far.
func agreedDraw(m *Meta, now time.Time) End {
	n := len(m.Seats)
	end := End{Result: Result{Status: Drawn, Reason: ReasonAgreed, Winners: []int{}}, Finished: now}
	return withRating(m, end, rating.Places(n, make([]bool, n), nil))
}

// withRating adds to the end of a rated game between people its rating
// update, the seats finishing in places.
func withRating(m *Meta, end End, places []int) End {
	if !m.Rated {
		return end
	}
	var uids []int64
	for _, s := range m.Seats {
		if s.Kind != SeatHuman {
			return end
		}
		uids = append(uids, s.UserID)
	}
	now := end.Finished
	end.RatedUsers = uids
	end.Rate = func(cur []Rating) []Rating {
		in := make([]rating.Rating, len(cur))
		for i, c := range cur {
			in[i] = rating.Rating{R: c.Rating, RD: c.Deviation, Vol: c.Volatility}
			if c.Games == 0 {
				in[i] = rating.Default()
			}
		}
		updated := rating.UpdateGame(in, places, rating.Tau)
		out := make([]Rating, len(cur))
		for i, c := range cur {
			out[i] = Rating{UserID: c.UserID, Game: c.Game, Rating: updated[i].R, Deviation: updated[i].RD,
				Volatility: updated[i].Vol, Games: c.Games + 1, Updated: now}
		}
		return out
	}
	return end
}

// ResultOf is the result of an imported record whose last state is st:
// nil for a record that is not over.
func ResultOf(m *Meta, st game.State) *Result {
	out := st.Outcome()
	if !out.Over() {
		return nil
	}
	e := endOf(m, out, ReasonNormal, st, -1, time.Time{})
	return &e.Result
}
