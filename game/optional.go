package game

// The interfaces in this file are optional: a game implements the ones that
// fit it, and tools discover them with a type assertion. Perfect-information
// games pay nothing for chance and hidden cards.

// HiddenInfo is implemented by games in which some seats cannot see part of
// the state (Skyjo's face-down cards and deck order).
type HiddenInfo interface {
	// View returns the JSON view that seat may see (its public view). It is
	// the only thing bots, clients and the bot protocol ever receive, and it
	// never contains anything the seat cannot see. Seat Spectator asks for
	// what someone outside the game may see, which is never more than any
	// seat sees.
	View(seat int) ([]byte, error)
	// Determinize overwrites dst (a state of the same game) with a full state
	// consistent with what seat sees in the receiver: everything the seat can
	// see is copied, everything it cannot see is redrawn uniformly from what
	// is not visible anywhere, using rng. It must read nothing of the
	// receiver beyond View(seat), so that two states with the same view give
	// the same samples for the same rng.
	Determinize(dst State, seat int, rng *RNG)
}

// Configured is implemented by states that say which option values they are
// played under (every Tabula game's do): a position carries its options, so
// `tabula moves -o … --position` can check that the two agree.
type Configured interface {
	// Options returns every option of the game with the state's value.
	Options() Options
}

// Spectator is the seat number View takes for someone who watches a game
// without playing in it.
const Spectator = -1

// ChanceRecorder is implemented by games with chance (Skyjo's shuffles). It
// lists every chance outcome so far, as JSON, so that a finished game's
// record replays exactly and can be checked. It reveals everything hidden:
// it belongs in records of finished games only, never in anything a player
// sees while the game goes on.
type ChanceRecorder interface {
	ChanceJSON() ([]byte, error)
}

// Evaluator is implemented by games that offer a static heuristic: the value
// of the position for seat, in [-1, 1] (1 = seat has won). The greedy agent
// plays the move whose result it likes best; search may use it to guide
// playouts.
type Evaluator interface {
	Evaluate(seat int) float64
}

// ExchangeEvaluator is implemented by games whose search may seek
// exchanges: EvaluateExchange is the heuristic for seat as the searching
// seat searcher weighs it, the other side's pieces above its own, so that an
// even exchange gains for the searcher (still zero-sum: the two seats'
// values are each other's negatives). The greedy agent keeps Evaluate.
type ExchangeEvaluator interface {
	EvaluateExchange(seat, searcher int) float64
}

// ContactEvaluator is implemented by games whose search may seek contact:
// EvaluateContact is the heuristic for seat as the searching seat searcher
// weighs it, valuing positions where the two sides' pieces can meet (in
// Skjuub: share an axis, without which no capture can happen; still
// zero-sum). The greedy agent keeps Evaluate.
type ContactEvaluator interface {
	EvaluateContact(seat, searcher int) float64
}

// Leader is implemented by games that say who is ahead by the measure
// their exchange- and contact-seeking heuristics serve (Skjuub: more
// mobile pieces than the other side), for a search that seeks them only
// when ahead, or only when the other side is not.
type Leader interface {
	Ahead(seat int) bool
}

// Drawer is implemented by games that can draw their position for a
// terminal (`tabula show`).
type Drawer interface {
	Draw() string
}

// Scorer is implemented by games with numeric scores beyond win/loss (the
// Skyjo totals, the Sgolte group sizes), for display and records.
type Scorer interface {
	// Scores returns one number per seat; its meaning is the game's.
	Scores() []int
}

// Playouter is implemented by games with a specialised random-playout path
// on their concrete state type (no interface calls, no move list where the
// game can sample a legal move directly). It must play uniformly random legal
// moves from the receiver (modified in place) to the end of the game and
// return the number of plies: the same distribution of games as
// RandomPlayout (games are encouraged to test that it plays the very same
// moves for the same generator, which proves it).
type Playouter interface {
	Playout(rng *RNG) int
}

// RandomMover is implemented by games that can draw a uniformly random legal
// move without listing them all: search's cut-short playouts (a few plies,
// then the heuristic) play one at a time. RandomMove must draw from rng
// exactly as picking Legal's list at rng.IntN(len(list)) does — one IntN over
// the number of legal moves, the move at that index in Legal's order — so
// that search plays the same games either way; with no legal move it draws
// nothing and returns false.
type RandomMover interface {
	RandomMove(rng *RNG) (Move, bool)
}

// Policy is implemented by games whose simple heuristic is better expressed
// as a rule for choosing a move than as a position value (Skyjo, where a
// move's worth depends on cards not yet seen). The greedy agent prefers it to
// Evaluator. It must use only what the seat to move may see; rng breaks ties.
type Policy interface {
	PolicyMove(rng *RNG) Move
}

// Rounds is implemented by games played in rounds (Skyjo). Search may stop
// its look-ahead at the end of the current round and ask the game's
// Evaluator how the match stands, because play in later rounds depends on
// deals nobody can foresee.
type Rounds interface {
	Round() int
}

// SearchHints is implemented by games that know something about how search
// should treat them.
type SearchHints interface {
	// PlayoutPlies is how many random plies a search playout should play
	// before asking the game's Evaluator, or 0 to play to the end. Games
	// whose random play drifts for hundreds of plies without saying much
	// about the result (Skjuub) want short playouts.
	PlayoutPlies() int
}

// Progress is implemented by games in which a player who leads can let the
// game stall: both sides shuffle pieces without changing anything that
// decides it, until a house rule draws. Search counts a line that has made
// no progress for StallTurns turns as a draw, so that a leader feels the
// draw coming long before the rule's limit and looks for the lines that make
// progress (a chess engine gets the same push from the fifty-move rule).
type Progress interface {
	// Progress returns a summary that changes whenever the game makes
	// progress (Skjuub: each side's pieces, active pieces and pool) and
	// the number of turns played.
	Progress() (sig uint64, turns int)
	// StallTurns is how many turns without progress search treats as a
	// draw; 0 never.
	StallTurns() int
}

// Stuck is implemented by games that can tell when a side can make no
// progress (Progress) on its own, only wait for the other side to change
// something: search may value such positions nearer a draw (Skjuub:
// agent.MCTSConfig.Stuck).
type Stuck interface {
	// Stuck reports whether seat can make no progress on its own.
	Stuck(seat int) bool
}

// Repetition is implemented by games in which a repeated position draws
// (Skjuub's house rule draws at the third occurrence). Search scores a line
// that returns to a position already seen in the game or on the line as a
// draw, as chess engines do: the line can be played again and again, so it
// is worth no more than the draw it leads to.
type Repetition interface {
	// Repeated reports whether the position occurred earlier in the game.
	Repeated() bool
}

// DrawContempt is implemented by games in which a stronger player's draws
// are mostly leads not converted (Skjuub). Search counts a draw as that much
// less than an even share for the searching seat (and that much more for
// its opponents), so that the bot plays on for a win where a line is only
// as good as a draw, as chess engines do against weaker opponents.
type DrawContempt interface {
	// SearchContempt is in [0, 0.5].
	SearchContempt() float64
}

// SearchPlayouter is implemented by games that offer search a cheaper
// playout policy than uniform random play (Sgolte: a random cell, then a
// random way to play it, instead of a random move among all). It plays from
// the receiver (modified in place) to the end of the game and returns the
// number of plies. Search prefers it to Playouter; benchmarks of uniform
// playouts never use it.
type SearchPlayouter interface {
	SearchPlayout(rng *RNG) int
}
