package cluster

import (
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/tabula-games/tabula/agent"
	"github.com/tabula-games/tabula/match"
)

// The nodes' wire format (busv1). Every message one node sends another on
// NATS — an event, a forwarded command and its answer, a request for
// missed events and its answer — is a message: a version, a type tag, and
// a body of the type's own shape, declared here field by field with its
// JSON name. Nothing is json.Marshal of a Go type of another package, so a
// field renamed or added in match changes nothing on the wire until it is
// added here (wire_test.go's round trip fails until it is).
//
// Versions, for a rolling upgrade (nodes of two releases running at once):
//   - Within version 1 a change is additive: a new field (older nodes
//     ignore it; newer nodes read its absence as its zero value) or a new
//     type (older nodes ignore a type they do not know, and log it once).
//   - A change that older nodes cannot read is version 2, made in two
//     releases: the first reads both versions and still writes 1; once no
//     node of an older release runs, the second writes 2.
//   - A node ignores a message of any version but its own (counted and
//     logged once per version, never decoded): an event it drops is a gap
//     its connections repair from a snapshot, and a forwarded command is
//     answered "unavailable", which the client may try again. A message
//     without a version is from a node older than busv1 (before this
//     format: json.Marshal of match's types), and is dropped the same way.

// wireVersion is the version this node reads and writes.
const wireVersion = 1

// The message types.
const (
	typeEvent         = "event"          // an event of a game (eventV1), on PREFIX.ev.GAME and PREFIX.user.UID
	typeCommand       = "command"        // a command to a game's owner (commandV1), on PREFIX.cmd.NODE
	typeCreate        = "create"         // a game to create and own (createV1), on PREFIX.cmd.NODE
	typeReply         = "reply"          // the answer to a command or a creation (replyV1)
	typeHistory       = "history"        // a request for missed events (historyV1), on PREFIX.hist.NODE
	typeHistoryRep    = "history-rep"    // its answer (historyRepV1)
	typeForget        = "forget"         // users whose cached name or ratings changed (forgetV1), on PREFIX.forget
	typeTournament    = "tournament"     // a tournament that changed (tournamentV1), on PREFIX.tournament
	typeAnalysis      = "analysis"       // a question about an analysis job (analysisV1), on PREFIX.an.NODE
	typeAnalysisRep   = "analysis-rep"   // its answer (analysisRepV1)
	typeAnalysisStart = "analysis-start" // a user started an analysis job (analysisStartV1), on PREFIX.anstart
)

// message is every message between nodes.
type message struct {
	V    int             `json:"v"`
	Type string          `json:"type"`
	Node string          `json:"node,omitempty"` // the sender
	Body json.RawMessage `json:"body,omitempty"`
}

// errVersion: a message of a version this node does not read.
var errVersion = errors.New("a message of another wire version")

// errType: a message of a type this node does not know (or not expected
// where it came).
var errType = errors.New("a message of an unknown type")

// encode is the message of type typ from node with body b.
func encode(typ, node string, b any) ([]byte, error) {
	body, err := json.Marshal(b)
	if err != nil {
		return nil, err
	}
	return json.Marshal(message{V: wireVersion, Type: typ, Node: node, Body: body})
}

// decode reads a message of type want into b. A message of another
// version is errVersion, of another type errType: neither is decoded.
func decode(data []byte, want string, b any) (message, error) {
	var m message
	if err := json.Unmarshal(data, &m); err != nil {
		return m, fmt.Errorf("unreadable: %w", err)
	}
	if m.V != wireVersion {
		return m, fmt.Errorf("%w: version %d (this node reads %d)", errVersion, m.V, wireVersion)
	}
	if m.Type != want {
		return m, fmt.Errorf("%w: %q, expected %q", errType, m.Type, want)
	}
	if err := json.Unmarshal(m.Body, b); err != nil {
		return m, fmt.Errorf("unreadable %s: %w", m.Type, err)
	}
	return m, nil
}

// eventV1 is an event of a game, numbered on the bus: N counts the events
// of the game its sender published in one stream (Stream, unique to the
// sender), from 1 with no gaps, so that a receiver sees a gap and can ask
// the sender for what it missed (history.go).
type eventV1 struct {
	Stream uint64 `json:"stream"`
	N      uint64 `json:"n"`

	Game   string            `json:"game"`
	Seq    int64             `json:"seq"`
	Kind   string            `json:"kind"`
	Meta   metaV1            `json:"meta"`
	Names  []string          `json:"names,omitempty"`
	Move   *moveV1           `json:"move,omitempty"`
	Views  []json.RawMessage `json:"views,omitempty"`
	Legal  []string          `json:"legal,omitempty"`
	Clocks []clockStateV1    `json:"clocks,omitempty"`
	Prompt *promptV1         `json:"prompt,omitempty"`
	Room   *roomV1           `json:"room,omitempty"`
	Note   *noteV1           `json:"note,omitempty"`
	Chat   *chatV1           `json:"chat,omitempty"`
	Answer *answerV1         `json:"answer,omitempty"`
}

// answerV1 is what became of a challenge (match.Answer).
type answerV1 struct {
	Kind   string `json:"kind"`
	UserID int64  `json:"user,omitempty"`
	Reason string `json:"reason,omitempty"`
}

// metaV1 is a game's Meta without what never goes on the bus: its seed
// and its start position (starts.go), of which Start says only whether
// there is one.
type metaV1 struct {
	ID        string            `json:"id"`
	Game      string            `json:"game"`
	Options   map[string]string `json:"options,omitempty"`
	Start     bool              `json:"start,omitempty"`
	Origin    string            `json:"origin,omitempty"`
	KeepDeal  bool              `json:"keepDeal,omitempty"`
	Status    string            `json:"status"`
	Seats     []seatV1          `json:"seats,omitempty"`
	Clock     clockV1           `json:"clock"`
	Rated     bool              `json:"rated,omitempty"`
	CreatorID int64             `json:"creator,omitempty"`
	Created   time.Time         `json:"created"`
	Started   time.Time         `json:"started"`
	Finished  time.Time         `json:"finished"`
	Result    *resultV1         `json:"result,omitempty"`
	Ply       int               `json:"ply"`
	ToMove    int               `json:"toMove"`
	Deadline  time.Time         `json:"deadline"`
	Version   int64             `json:"version"`
	// Expires: when an open challenge is aborted unanswered (zero: not
	// a challenge).
	Expires time.Time `json:"expires,omitzero"`
}

type seatV1 struct {
	Kind   string `json:"kind"`
	UserID int64  `json:"user,omitempty"`
	Level  string `json:"level,omitempty"`
}

type clockV1 struct {
	Kind        string `json:"kind,omitempty"`
	InitialMs   int64  `json:"initialMs,omitempty"`
	IncrementMs int64  `json:"incrementMs,omitempty"`
	Days        int    `json:"days,omitempty"`
	Berserk     uint64 `json:"berserk,omitempty"` // the seats that berserked in an arena's game
}

type resultV1 struct {
	Status  string `json:"status"`
	Winners []int  `json:"winners"`
	Reason  string `json:"reason"`
	Scores  []int  `json:"scores,omitempty"`
}

type moveV1 struct {
	Ply     int       `json:"ply"`
	Seat    int       `json:"seat"`
	Text    string    `json:"text"`
	At      time.Time `json:"at"`
	ClockMs int64     `json:"clockMs,omitempty"`
}

type clockStateV1 struct {
	Seat        int   `json:"seat"`
	RemainingMs int64 `json:"remainingMs"`
}

type promptV1 struct {
	UserID   int64     `json:"user"`
	Ply      int       `json:"ply"`
	Deadline time.Time `json:"deadline"`
	// The bot protocol's request (agent.Request).
	Type   string          `json:"type"`
	Game   string          `json:"game"`
	Seat   int             `json:"seat"`
	View   json.RawMessage `json:"view,omitempty"`
	Legal  []string        `json:"legal,omitempty"`
	TimeMs int64           `json:"timeMs,omitempty"`
}

type roomV1 struct {
	N      int64     `json:"n"`
	Offers []offerV1 `json:"offers,omitempty"`
	Chat   []chatV1  `json:"chat,omitempty"`
	Away   []awayV1  `json:"away,omitempty"`
}

type offerV1 struct {
	Kind     string `json:"kind"`
	Seat     int    `json:"seat"`
	Ply      int    `json:"ply"`
	Accepted []int  `json:"accepted,omitempty"`
}

type awayV1 struct {
	Seat    int       `json:"seat"`
	Since   time.Time `json:"since"`
	ClaimAt time.Time `json:"claimAt"`
}

type noteV1 struct {
	Kind   string `json:"kind"`
	Seat   int    `json:"seat"`
	Action string `json:"action"`
}

type chatV1 struct {
	N    int64     `json:"n"`
	Seat int       `json:"seat"`
	Text string    `json:"text"`
	At   time.Time `json:"at"`
	// User says who said a line (a spectator's has no seat to): older
	// nodes leave it out, and a line without it names nobody.
	User int64 `json:"user,omitempty"`
}

// commandV1 is a command forwarded to its game's owner.
type commandV1 struct {
	Game       string `json:"game"`
	Kind       string `json:"kind"`
	UserID     int64  `json:"user"`
	Guest      bool   `json:"guest,omitempty"`
	Seat       int    `json:"seat"`
	Ply        int    `json:"ply"`
	Move       string `json:"move,omitempty"`
	Offer      string `json:"offer,omitempty"`
	Text       string `json:"text,omitempty"`
	Here       bool   `json:"here,omitempty"`
	Source     string `json:"source,omitempty"`
	AcceptDeal bool   `json:"acceptDeal,omitempty"`
	Key        string `json:"key,omitempty"`
	Retry      bool   `json:"retry,omitempty"`
}

// createV1 is a new game for another node to create and own: its Meta as
// its creator asked for it, and the start position the creator gave (their
// own, before any dealing: the node that creates the game deals the
// hidden part, chooses the seed, and keeps both off the bus).
type createV1 struct {
	UserID        int64  `json:"user"`
	Guest         bool   `json:"guest,omitempty"`
	Meta          metaV1 `json:"meta"`
	StartPosition []byte `json:"startPosition,omitempty"`
}

// replyV1 is an owner's answer: the command's acknowledgement, its
// refusal, or Closed when the game has no owner on that node.
type replyV1 struct {
	Ack    *ackV1   `json:"ack,omitempty"`
	Err    *errorV1 `json:"err,omitempty"`
	Closed bool     `json:"closed,omitempty"`
}

type ackV1 struct {
	Meta  metaV1   `json:"meta"`
	Names []string `json:"names,omitempty"`
	Move  *moveV1  `json:"move,omitempty"`
	Room  *roomV1  `json:"room,omitempty"`
}

type errorV1 struct {
	Code    string `json:"code"`
	Message string `json:"message"`
}

// historyV1 asks a game's publisher for the events From to To (both
// included) of its stream Stream.
type historyV1 struct {
	Game   string `json:"game"`
	Stream uint64 `json:"stream"`
	From   uint64 `json:"from"`
	To     uint64 `json:"to"`
}

// historyRepV1 is the events asked for, in order, each a whole event
// message as it went on the bus; none when the publisher no longer has
// all of them.
type historyRepV1 struct {
	Events []json.RawMessage `json:"events,omitempty"`
}

// forgetV1 names the users whose name or ratings changed: every node
// drops what it caches of them.
type forgetV1 struct {
	Users []int64 `json:"users"`
}

// Conversions. A nil slice stays nil both ways, so that an event read
// back equals the one sent.

func metaToWire(m *match.Meta) metaV1 {
	w := metaV1{ID: m.ID, Game: m.Game, Options: m.Options, Start: len(m.StartPosition) > 0, Origin: string(m.Origin),
		KeepDeal: m.KeepDeal, Status: string(m.Status), Clock: clockV1{string(m.Clock.Kind), m.Clock.InitialMs, m.Clock.IncrementMs, m.Clock.Days, m.Clock.Berserk},
		Rated: m.Rated, CreatorID: m.CreatorID, Created: m.Created, Started: m.Started, Finished: m.Finished,
		Ply: m.Ply, ToMove: m.ToMove, Deadline: m.Deadline, Version: m.Version, Expires: m.Expires}
	if m.Seats != nil {
		w.Seats = make([]seatV1, len(m.Seats))
		for i, s := range m.Seats {
			w.Seats[i] = seatV1{string(s.Kind), s.UserID, s.Level}
		}
	}
	if r := m.Result; r != nil {
		w.Result = &resultV1{string(r.Status), r.Winners, string(r.Reason), r.Scores}
	}
	return w
}

// metaFromWire is w as a Meta, without a seed or start position.
func metaFromWire(w *metaV1) match.Meta {
	m := match.Meta{ID: w.ID, Game: w.Game, Options: w.Options, Origin: match.Origin(w.Origin), KeepDeal: w.KeepDeal,
		Status: match.Status(w.Status), Clock: match.Clock{Kind: match.ClockKind(w.Clock.Kind), InitialMs: w.Clock.InitialMs, IncrementMs: w.Clock.IncrementMs, Days: w.Clock.Days, Berserk: w.Clock.Berserk},
		Rated: w.Rated, CreatorID: w.CreatorID, Created: w.Created, Started: w.Started, Finished: w.Finished,
		Ply: w.Ply, ToMove: w.ToMove, Deadline: w.Deadline, Version: w.Version, Expires: w.Expires}
	if w.Seats != nil {
		m.Seats = make([]match.Seat, len(w.Seats))
		for i, s := range w.Seats {
			m.Seats[i] = match.Seat{Kind: match.SeatKind(s.Kind), UserID: s.UserID, Level: s.Level}
		}
	}
	if r := w.Result; r != nil {
		m.Result = &match.Result{Status: match.Verdict(r.Status), Winners: r.Winners, Reason: match.Reason(r.Reason), Scores: r.Scores}
	}
	return m
}

func moveToWire(mv *match.Move) *moveV1 {
	if mv == nil {
		return nil
	}
	return &moveV1{mv.Ply, mv.Seat, mv.Text, mv.At, mv.ClockMs}
}

func moveFromWire(w *moveV1) *match.Move {
	if w == nil {
		return nil
	}
	return &match.Move{Ply: w.Ply, Seat: w.Seat, Text: w.Text, At: w.At, ClockMs: w.ClockMs}
}

func roomToWire(r *match.Room) *roomV1 {
	if r == nil {
		return nil
	}
	w := &roomV1{N: r.N}
	if r.Offers != nil {
		w.Offers = make([]offerV1, len(r.Offers))
		for i, o := range r.Offers {
			w.Offers[i] = offerV1{string(o.Kind), o.Seat, o.Ply, o.Accepted}
		}
	}
	if r.Chat != nil {
		w.Chat = make([]chatV1, len(r.Chat))
		for i, l := range r.Chat {
			w.Chat[i] = chatV1{l.N, l.Seat, l.Text, l.At, l.User}
		}
	}
	if r.Away != nil {
		w.Away = make([]awayV1, len(r.Away))
		for i, a := range r.Away {
			w.Away[i] = awayV1{a.Seat, a.Since, a.ClaimAt}
		}
	}
	return w
}

func roomFromWire(w *roomV1) *match.Room {
	if w == nil {
		return nil
	}
	r := &match.Room{N: w.N}
	if w.Offers != nil {
		r.Offers = make([]match.Offer, len(w.Offers))
		for i, o := range w.Offers {
			r.Offers[i] = match.Offer{Kind: match.OfferKind(o.Kind), Seat: o.Seat, Ply: o.Ply, Accepted: o.Accepted}
		}
	}
	if w.Chat != nil {
		r.Chat = make([]match.ChatLine, len(w.Chat))
		for i, l := range w.Chat {
			r.Chat[i] = match.ChatLine{N: l.N, Seat: l.Seat, User: l.User, Text: l.Text, At: l.At}
		}
	}
	if w.Away != nil {
		r.Away = make([]match.Away, len(w.Away))
		for i, a := range w.Away {
			r.Away[i] = match.Away{Seat: a.Seat, Since: a.Since, ClaimAt: a.ClaimAt}
		}
	}
	return r
}

// eventToWire is e on the bus, without its game's seed or start position.
func eventToWire(e *match.Event) eventV1 {
	w := eventV1{Game: e.Game, Seq: e.Seq, Kind: string(e.Kind), Meta: metaToWire(&e.Meta), Names: e.Names,
		Move: moveToWire(e.Move), Views: e.Views, Legal: e.Legal, Room: roomToWire(e.Room)}
	if e.Clocks != nil {
		w.Clocks = make([]clockStateV1, len(e.Clocks))
		for i, c := range e.Clocks {
			w.Clocks[i] = clockStateV1{c.Seat, c.RemainingMs}
		}
	}
	if p := e.Prompt; p != nil {
		w.Prompt = &promptV1{UserID: p.UserID, Ply: p.Ply, Deadline: p.Deadline, Type: p.Request.Type, Game: p.Request.Game,
			Seat: p.Request.Seat, View: p.Request.View, Legal: p.Request.Legal, TimeMs: p.Request.TimeMs}
	}
	if n := e.Note; n != nil {
		w.Note = &noteV1{string(n.Kind), n.Seat, string(n.Action)}
	}
	if c := e.Chat; c != nil {
		w.Chat = &chatV1{c.N, c.Seat, c.Text, c.At, c.User}
	}
	if a := e.Answer; a != nil {
		w.Answer = &answerV1{string(a.Kind), a.UserID, a.Reason}
	}
	return w
}

// eventFromWire is the event w, without a start position (Meta.Start says
// whether it has one).
func eventFromWire(w *eventV1) match.Event {
	e := match.Event{Game: w.Game, Seq: w.Seq, Kind: match.EventKind(w.Kind), Meta: metaFromWire(&w.Meta), Names: w.Names,
		Move: moveFromWire(w.Move), Views: w.Views, Legal: w.Legal, Room: roomFromWire(w.Room)}
	if w.Clocks != nil {
		e.Clocks = make([]match.ClockState, len(w.Clocks))
		for i, c := range w.Clocks {
			e.Clocks[i] = match.ClockState{Seat: c.Seat, RemainingMs: c.RemainingMs}
		}
	}
	if p := w.Prompt; p != nil {
		e.Prompt = &match.Prompt{UserID: p.UserID, Ply: p.Ply, Deadline: p.Deadline, Request: agent.Request{Type: p.Type, Game: p.Game,
			Seat: p.Seat, View: p.View, Legal: p.Legal, TimeMs: p.TimeMs}}
	}
	if n := w.Note; n != nil {
		e.Note = &match.OfferNote{Kind: match.OfferKind(n.Kind), Seat: n.Seat, Action: match.NoteAction(n.Action)}
	}
	if c := w.Chat; c != nil {
		e.Chat = &match.ChatLine{N: c.N, Seat: c.Seat, User: c.User, Text: c.Text, At: c.At}
	}
	if a := w.Answer; a != nil {
		e.Answer = &match.Answer{Kind: match.AnswerKind(a.Kind), UserID: a.UserID, Reason: a.Reason}
	}
	return e
}

func commandToWire(game string, c *match.Command) commandV1 {
	return commandV1{Game: game, Kind: string(c.Kind), UserID: c.User.ID, Guest: c.User.Guest, Seat: c.Seat, Ply: c.Ply, Move: c.Move,
		Offer: string(c.Offer), Text: c.Text, Here: c.Here, Source: c.Source, AcceptDeal: c.AcceptDeal, Key: c.Key, Retry: c.Retry}
}

func commandFromWire(w *commandV1) match.Command {
	return match.Command{Kind: match.CommandKind(w.Kind), User: match.User{ID: w.UserID, Guest: w.Guest}, Seat: w.Seat, Ply: w.Ply,
		Move: w.Move, Offer: match.OfferKind(w.Offer), Text: w.Text, Here: w.Here, Source: w.Source, AcceptDeal: w.AcceptDeal,
		Key: w.Key, Retry: w.Retry}
}

func ackToWire(a *match.Ack) *ackV1 {
	return &ackV1{Meta: metaToWire(&a.Meta), Names: a.Names, Move: moveToWire(a.Move), Room: roomToWire(a.Room)}
}

func ackFromWire(w *ackV1) match.Ack {
	return match.Ack{Meta: metaFromWire(&w.Meta), Names: w.Names, Move: moveFromWire(w.Move), Room: roomFromWire(w.Room)}
}
