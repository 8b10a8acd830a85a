package server

import (
	"encoding/json"
	"testing"

	"github.com/tabula-games/tabula/agent"
	"github.com/tabula-games/tabula/analysis"
	"github.com/tabula-games/tabula/match"
	"github.com/tabula-games/tabula/server/wire"
)

// sameJSON fails unless engine and protocol values encode alike.
func sameJSON(t *testing.T, what string, engine, protocol any) {
	t.Helper()
	a, err := json.Marshal(engine)
	if err != nil {
		t.Fatal(err)
	}
	b, err := json.Marshal(protocol)
	if err != nil {
		t.Fatal(err)
	}
	if string(a) != string(b) {
		t.Errorf("%s: the protocol writes\n%s\nwhere the engine's value is\n%s", what, b, a)
	}
}

// TestWireOfKeepsTheJSON: package wire defines the protocol's values
// itself (it imports no engine), and the server converts into them in
// wireof.go. Where wire once carried an engine's value as it was, the
// conversion writes the same JSON, every field filled, so no client sees
// a difference — and a field added to the engine's value but not to the
// protocol's shows here.
func TestWireOfKeepsTheJSON(t *testing.T) {
	proof := &analysis.Verdict{Winner: 1, WinnerName: "black", Plies: 7, Line: []string{"a1", "b2"}, Text: "Black wins in 7 plies"}
	rep := analysis.Report{Game: "sploof", ToMove: 1, Seat: "black", Win: 0.75, Exact: proof, Iterations: 9, Millis: 12, SolverNodes: 40, Done: true,
		Lines: []analysis.Line{{Move: "a1", Visits: 3, Share: 0.5, Win: 0.25, PV: []string{"a1", "c3"}, Exact: proof}}}
	sameJSON(t, "report", rep, wireReport(rep))
	sameJSON(t, "report without lines", analysis.Report{}, wireReport(analysis.Report{}))
	rv := &analysis.Review{Game: "skyjo", Hidden: true, Seats: []string{"1", "2"},
		Points: []analysis.Point{{Ply: 0, Seat: 0, Win: 0.5, Exact: proof}, {Ply: 1, Seat: -1, Win: 1, Result: []float64{1, 0}}},
		Moves:  []analysis.Judgement{{Ply: 0, Seat: 0, Move: "flip a1", Before: 0.6, After: 0.3, Loss: 0.3, Mark: analysis.Blunder, Better: "draw", BetterLine: []string{"draw", "swap a1"}}},
		Counts: []analysis.MarkCounts{{Inaccuracies: 1, Mistakes: 2, Blunders: 3}, {}}}
	sameJSON(t, "review", rv, wireReview(rv))
	sameJSON(t, "empty review", &analysis.Review{}, wireReview(&analysis.Review{}))

	req := agent.Request{Type: "move", Game: "sgolte", Seat: 1, View: json.RawMessage(`{"x":1}`), Legal: []string{"a1"}, TimeMs: 500}
	sameJSON(t, "bot request", req, wireBotRequest(req))

	res := &match.Result{Status: match.Won, Winners: []int{0, 2}, Reason: match.ReasonTimeout, Scores: []int{3, 40, 9}}
	sameJSON(t, "result", res, wireResult(res))
	if r := wireResult(&match.Result{Status: match.Drawn, Reason: match.ReasonAgreed}); r.Winners == nil {
		t.Error("a draw's winners are null, not []")
	}
	for _, c := range []match.Clock{{Kind: match.ClockRealtime, InitialMs: 60000, IncrementMs: 2000}, {Kind: match.ClockCorrespondence, Days: 3}, {Kind: match.ClockNone}} {
		sameJSON(t, "clock", c, wireTimeControl(c))
	}
}

// TestWireValuesAreTheEngines: every word the engines use for a status, a
// seat, a time control, a result, an offer and an offer's fate is one the
// protocol names (docs/api.md lists the same).
func TestWireValuesAreTheEngines(t *testing.T) {
	has := func(what string, engine string, protocol ...string) {
		for _, p := range protocol {
			if p == engine {
				return
			}
		}
		t.Errorf("%s %q has no constant in wire", what, engine)
	}
	for _, s := range match.Statuses {
		has("status", string(s), string(wire.StatusOpen), string(wire.StatusLive), string(wire.StatusFinished), string(wire.StatusAborted), string(wire.StatusImported))
	}
	for _, k := range []match.SeatKind{match.SeatOpen, match.SeatInvite, match.SeatHuman, match.SeatBot, match.SeatImported} {
		has("seat kind", string(k), string(wire.SeatOpen), string(wire.SeatInvite), string(wire.SeatHuman), string(wire.SeatBot), string(wire.SeatImported))
	}
	for _, o := range []match.Origin{match.OriginPosition, match.OriginRecord} {
		has("origin", string(o), string(wire.OriginPosition), string(wire.OriginRecord))
	}
	for _, k := range []match.ClockKind{match.ClockNone, match.ClockRealtime, match.ClockCorrespondence} {
		has("clock", string(k), string(wire.ClockNone), string(wire.ClockRealtime), string(wire.ClockCorrespondence))
	}
	for _, v := range []match.Verdict{match.Won, match.Drawn} {
		has("verdict", string(v), string(wire.Won), string(wire.Drawn))
	}
	for _, r := range []match.Reason{match.ReasonNormal, match.ReasonResign, match.ReasonTimeout, match.ReasonAgreed, match.ReasonAbandoned} {
		has("reason", string(r), string(wire.ReasonNormal), string(wire.ReasonResign), string(wire.ReasonTimeout), string(wire.ReasonAgreed), string(wire.ReasonAbandoned))
	}
	for _, k := range []match.OfferKind{match.OfferDraw, match.OfferTakeback} {
		has("offer", string(k), string(wire.OfferDraw), string(wire.OfferTakeback))
	}
	for _, a := range []match.NoteAction{match.NoteOffered, match.NoteAccepted, match.NoteDeclined, match.NoteWithdrawn} {
		has("note", string(a), string(wire.NoteOffered), string(wire.NoteAccepted), string(wire.NoteDeclined), string(wire.NoteWithdrawn))
	}
}
