package wire

import (
	"encoding/json"

	"github.com/tabula-games/tabula/analysis"
)

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
	ID     string           `json:"id,omitempty"`
	Kind   string           `json:"kind"` // "analysis" or "review"
	Events string           `json:"events,omitempty"`
	Review *analysis.Review `json:"review,omitempty"`
}

// The events of a job's stream (the SSE event field); each one's data is
// the JSON of the type named.
const (
	EventReport   = "report"   // analysis.Report
	EventProgress = "progress" // ReviewProgress
	EventReview   = "review"   // analysis.Review, the last event of a review
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
