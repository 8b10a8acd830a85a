package match

import "time"

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
