package wire

import "encoding/json"

// The analysis board and the game review (docs/api.md, Analysis): a client
// starts one with a POST, then reads its events as Server-Sent Events.

// AnalysisRequest is POST /api/analysis: the position to analyse is a new
// game (Options, Seed), a Position, or a game of the site (From), with
// Moves played after it.
type AnalysisRequest struct {
	Game     string            `json:"game"`
	Options  map[string]string `json:"options,omitempty"`
	Seed     uint64            `json:"seed,omitempty"`
	Position json.RawMessage   `json:"position,omitempty"`
	From     *AnalysisFrom     `json:"from,omitempty"`
	Moves    []string          `json:"moves,omitempty"`
	// TimeMs is how long to search (default and most: the server's cap).
	TimeMs int64 `json:"timeMs,omitempty"`
}

// AnalysisFrom names a position of a game on the site: after its first Ply
// moves.
type AnalysisFrom struct {
	ID  string `json:"id"`
	Ply int    `json:"ply"`
}

// AnalysisStarted answers POST /api/analysis and POST
// /api/games/{id}/review: the job's id and where its events are read. A
// review the server has already made comes whole in Review, with no job.
type AnalysisStarted struct {
	ID     string  `json:"id,omitempty"`
	Kind   string  `json:"kind"` // "analysis" or "review"
	Events string  `json:"events,omitempty"`
	Review *Review `json:"review,omitempty"`
}

// The events of a job's stream (the SSE event field); each one's data is
// the JSON of the type named.
const (
	EventReport   = "report"   // Report
	EventProgress = "progress" // ReviewProgress
	EventReview   = "review"   // Review, the last event of a review
	EventEnd      = "end"      // AnalysisEnd, the last event of a stream
	EventError    = "error"    // ErrorBody
	EventQueued   = "queued"   // AnalysisQueued, while the job waits for a place
)

// AnalysisQueued tells a waiting job its place in the node's queue (1: it
// starts next).
type AnalysisQueued struct {
	Place int `json:"place"`
}

// ReviewProgress tells how far a review has got.
type ReviewProgress struct {
	Done  int `json:"done"`
	Total int `json:"total"`
}

// AnalysisEnd says why a job's stream ends: "done" (its budget spent or
// its work finished), "stopped" (its owner stopped it or started
// another), "yielded" (an analysis gave its place to a waiting job after
// its quantum; its last report stands), "shutdown".
type AnalysisEnd struct {
	Reason string `json:"reason"`
}

// Report is what the analysis board's search says of a position so far:
// an "report" event, the last one with Done set.
type Report struct {
	Game string `json:"game"`
	// ToMove is the seat to move and Seat how the notation names it.
	ToMove int    `json:"toMove"`
	Seat   string `json:"seat"`
	// Win is the side to move's win probability (a draw counts half): 1
	// or 0 when the position is proven, else the search's estimate.
	Win   float64      `json:"win"`
	Lines []ReportLine `json:"lines"`
	Exact *Proof       `json:"exact,omitempty"`
	// Solved is who wins, known ahead of time (Sploof's start: the proof
	// in docs/solving.md), when the position is among those solved.
	Solved *Solved `json:"solved,omitempty"`
	// Iterations and Millis are the search's work so far; SolverNodes the
	// exact solver's.
	Iterations  int   `json:"iterations"`
	Millis      int64 `json:"ms"`
	SolverNodes int64 `json:"solverNodes,omitempty"`
	Done        bool  `json:"done"`
}

// Solved is a result known ahead of time: who wins with best play (not in
// how many plies) and, where the winner is to move, the proof's move.
type Solved struct {
	Winner     int    `json:"winner"`
	WinnerName string `json:"winnerName"`
	Move       string `json:"move,omitempty"`
	Source     string `json:"source"`
}

// ReportLine is one of the best moves and what follows it.
type ReportLine struct {
	Move string `json:"move"`
	// Visits and Share: how often the search tried the move, and its part
	// of all tries at the root.
	Visits int     `json:"visits"`
	Share  float64 `json:"share"`
	// Win is the side to move's win probability after the move.
	Win float64 `json:"win"`
	// PV is the line: the move, then the expected replies.
	PV []string `json:"pv"`
	// Exact is the solver's proof of the position after the move.
	Exact *Proof `json:"exact,omitempty"`
}

// Proof is a proven result: who wins with best play, in how many plies,
// a line that proves it, and the verdict in English.
type Proof struct {
	Winner     int      `json:"winner"`
	WinnerName string   `json:"winnerName"`
	Plies      int      `json:"plies"`
	Line       []string `json:"line"`
	Text       string   `json:"text"`
}

// Review is a finished game's review: the "review" event, or the answer
// itself when the server has made it before.
type Review struct {
	Game string `json:"game"`
	// Hidden is set for a game with hidden information: every decision
	// was judged from its mover's own view only.
	Hidden bool `json:"hidden"`
	// Seats names the seats at the start.
	Seats []string `json:"seats"`
	// Points has one entry per position, the start first and the end
	// last: the win-probability graph.
	Points []ReviewPoint `json:"points"`
	// Moves has one entry per move of the game.
	Moves []Judgement `json:"moves"`
	// Counts is, per seat, how many inaccuracies, mistakes and blunders
	// it made.
	Counts []MarkCounts `json:"counts"`
}

// ReviewPoint is one position of the game as the review sees it.
type ReviewPoint struct {
	Ply int `json:"ply"`
	// Seat is the seat to move (-1 at the end); Win its win probability
	// with best play from here.
	Seat int     `json:"seat"`
	Win  float64 `json:"win"`
	// Result is each seat's share of the result, at the end only.
	Result []float64 `json:"result,omitempty"`
	Exact  *Proof    `json:"exact,omitempty"`
}

// Mark is how bad a move was: "" (good), "inaccuracy", "mistake" or
// "blunder".
type Mark string

// Judgement is the review of one move.
type Judgement struct {
	Ply  int    `json:"ply"`
	Seat int    `json:"seat"`
	Move string `json:"move"`
	// Before is the mover's win probability with the best move, After with
	// the move played; Loss = Before − After (never below 0).
	Before float64 `json:"before"`
	After  float64 `json:"after"`
	Loss   float64 `json:"loss"`
	Mark   Mark    `json:"mark,omitempty"`
	// Better is the engine's move where the move is marked, with the line
	// that follows it.
	Better     string   `json:"better,omitempty"`
	BetterLine []string `json:"betterLine,omitempty"`
}

// MarkCounts counts one seat's marked moves.
type MarkCounts struct {
	Inaccuracies int `json:"inaccuracies"`
	Mistakes     int `json:"mistakes"`
	Blunders     int `json:"blunders"`
}
