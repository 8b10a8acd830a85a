package server

import (
	"time"

	"github.com/tabula-games/tabula/agent"
	"github.com/tabula-games/tabula/analysis"
	"github.com/tabula-games/tabula/match"
	"github.com/tabula-games/tabula/server/wire"
)

// The one place where the engines' values become the protocol's (package
// wire imports none of the engines, so that a Go client of the API does
// not either): one function per kind of value, used by every message that
// carries it. wireof_internal_test.go checks that each writes the same
// JSON as the value it converts, field for field.

// wireMoves is the list form of committed moves.
func wireMoves(ms []match.Move) []wire.Move {
	out := make([]wire.Move, len(ms))
	for i, m := range ms {
		out[i] = wire.Move{Ply: m.Ply, Seat: m.Seat, Move: m.Text, At: m.At.UTC()}
	}
	return out
}

// wireClocks is the seats' realtime clocks (nil without a realtime clock).
func wireClocks(cs []match.ClockState) []wire.Clock {
	if cs == nil {
		return nil
	}
	out := make([]wire.Clock, len(cs))
	for i, c := range cs {
		out[i] = wire.Clock{Seat: c.Seat, RemainingMs: c.RemainingMs}
	}
	return out
}

// wireTimeControl is a game's time control.
func wireTimeControl(c match.Clock) wire.TimeControl {
	return wire.TimeControl{Kind: wire.ClockKind(c.Kind), InitialMs: c.InitialMs, IncrementMs: c.IncrementMs, Days: c.Days, Berserk: c.Berserk}
}

// wireResult is how a game ended; Winners is never null.
func wireResult(r *match.Result) *wire.Result {
	if r == nil {
		return nil
	}
	out := &wire.Result{Status: wire.Verdict(r.Status), Winners: r.Winners, Reason: wire.Reason(r.Reason), Scores: r.Scores}
	if out.Winners == nil {
		out.Winners = []int{}
	}
	return out
}

// wireOffers is the pending offers.
func wireOffers(os []match.Offer) []wire.Offer {
	out := make([]wire.Offer, len(os))
	for i, o := range os {
		out[i] = wire.Offer{Kind: wire.OfferKind(o.Kind), Seat: o.Seat, Ply: o.Ply, Accepted: o.Accepted}
	}
	return out
}

// wireNote is what happened to an offer.
func wireNote(n match.OfferNote) wire.Note {
	return wire.Note{Kind: wire.OfferKind(n.Kind), Seat: n.Seat, Action: wire.NoteAction(n.Action)}
}

// wireLine is a line of chat.
func wireLine(l match.ChatLine) wire.ChatLine {
	return wire.ChatLine{N: l.N, Seat: l.Seat, Text: l.Text, At: l.At.UTC()}
}

// wireAways is the players away at now, with how long until the others
// may claim.
func wireAways(as []match.Away, now time.Time) []wire.Away {
	out := make([]wire.Away, len(as))
	for i, a := range as {
		out[i] = wire.Away{Seat: a.Seat, Since: a.Since.UTC()}
		if !a.ClaimAt.IsZero() {
			ms := max(a.ClaimAt.Sub(now).Milliseconds(), 0)
			out[i].ClaimInMs = &ms
		}
	}
	return out
}

// wireBotRequest is the bot protocol's request.
func wireBotRequest(r agent.Request) wire.BotRequest {
	return wire.BotRequest{Type: r.Type, Game: r.Game, Seat: r.Seat, View: r.View, Legal: r.Legal, TimeMs: r.TimeMs}
}

// wireProof is a solver's proven result.
func wireProof(v *analysis.Verdict) *wire.Proof {
	if v == nil {
		return nil
	}
	return &wire.Proof{Winner: v.Winner, WinnerName: v.WinnerName, Plies: v.Plies, Line: v.Line, Text: v.Text}
}

// wireReport is the analysis board's report.
func wireReport(r analysis.Report) wire.Report {
	out := wire.Report{Game: r.Game, ToMove: r.ToMove, Seat: r.Seat, Win: r.Win, Exact: wireProof(r.Exact),
		Iterations: r.Iterations, Millis: r.Millis, SolverNodes: r.SolverNodes, Done: r.Done}
	if v := r.Solved; v != nil {
		out.Solved = &wire.Solved{Winner: v.Winner, WinnerName: v.WinnerName, Move: v.Move, Source: v.Source}
	}
	if r.Lines != nil {
		out.Lines = make([]wire.ReportLine, len(r.Lines))
	}
	for i, l := range r.Lines {
		out.Lines[i] = wire.ReportLine{Move: l.Move, Visits: l.Visits, Share: l.Share, Win: l.Win, PV: l.PV, Exact: wireProof(l.Exact)}
	}
	return out
}

// wireReview is a game's review.
func wireReview(r *analysis.Review) *wire.Review {
	if r == nil {
		return nil
	}
	out := &wire.Review{Game: r.Game, Hidden: r.Hidden, Seats: r.Seats}
	if r.Points != nil {
		out.Points = make([]wire.ReviewPoint, len(r.Points))
	}
	for i, p := range r.Points {
		out.Points[i] = wire.ReviewPoint{Ply: p.Ply, Seat: p.Seat, Win: p.Win, Result: p.Result, Exact: wireProof(p.Exact)}
	}
	if r.Moves != nil {
		out.Moves = make([]wire.Judgement, len(r.Moves))
	}
	for i, j := range r.Moves {
		out.Moves[i] = wire.Judgement{Ply: j.Ply, Seat: j.Seat, Move: j.Move, Before: j.Before, After: j.After, Loss: j.Loss,
			Mark: wire.Mark(j.Mark), Better: j.Better, BetterLine: j.BetterLine}
	}
	if r.Counts != nil {
		out.Counts = make([]wire.MarkCounts, len(r.Counts))
	}
	for i, c := range r.Counts {
		out.Counts[i] = wire.MarkCounts{Inaccuracies: c.Inaccuracies, Mistakes: c.Mistakes, Blunders: c.Blunders}
	}
	return out
}
