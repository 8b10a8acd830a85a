package server

import (
	"context"
	"time"

	"github.com/tabula-games/tabula/game"
	"github.com/tabula-games/tabula/match"
)

// The JSON shapes of docs/api.md that more than one handler writes.

type seatJSON struct {
	Seat  int            `json:"seat"`
	Kind  match.SeatKind `json:"kind"`
	User  string         `json:"user,omitempty"`
	Level string         `json:"level,omitempty"`
	Name  string         `json:"name,omitempty"`
}

type summaryJSON struct {
	ID       string            `json:"id"`
	Game     string            `json:"game"`
	Title    string            `json:"title"`
	Options  map[string]string `json:"options"`
	Status   match.Status      `json:"status"`
	Seats    []seatJSON        `json:"seats"`
	Clock    match.Clock       `json:"clock"`
	Rated    bool              `json:"rated"`
	Creator  string            `json:"creator,omitempty"`
	Created  time.Time         `json:"created"`
	Started  *time.Time        `json:"started"`
	Finished *time.Time        `json:"finished"`
	Ply      int               `json:"ply"`
	ToMove   int               `json:"toMove"`
	Deadline *time.Time        `json:"deadline"`
	Result   *match.Result     `json:"result"`
}

type moveJSON struct {
	Ply  int       `json:"ply"`
	Seat int       `json:"seat"`
	Move string    `json:"move"`
	At   time.Time `json:"at"`
}

func movesJSON(ms []match.Move) []moveJSON {
	out := make([]moveJSON, len(ms))
	for i, m := range ms {
		out[i] = moveJSON{m.Ply, m.Seat, m.Text, m.At.UTC()}
	}
	return out
}

// summary describes a game; st (may be nil) names the seats as the game's
// notation does at this point of the game.
func (s *Server) summary(ctx context.Context, meta *match.Meta, st game.State) summaryJSON {
	title := meta.Game
	if g, err := game.Lookup(meta.Game); err == nil {
		title = g.Title()
		if st == nil {
			// Seat names from the start: good enough for listings.
			st, _ = initialState(g, meta)
		}
	}
	seats := make([]seatJSON, len(meta.Seats))
	for i, se := range meta.Seats {
		seats[i] = seatJSON{Seat: i, Kind: se.Kind, Level: se.Level, User: s.userName(ctx, se.UserID)}
		if st != nil && i < st.NumPlayers() {
			seats[i].Name = st.SeatName(i)
		}
	}
	toMove := meta.ToMove
	if meta.Status != match.Live {
		toMove = -1
	}
	sum := summaryJSON{
		ID: meta.ID, Game: meta.Game, Title: title, Options: meta.Options, Status: meta.Status, Seats: seats,
		Clock: meta.Clock, Rated: meta.Rated, Creator: s.userName(ctx, meta.CreatorID),
		Created: meta.Created.UTC(), Started: timePtr(meta.Started), Finished: timePtr(meta.Finished),
		Ply: meta.Ply, ToMove: toMove, Deadline: timePtr(meta.Deadline),
	}
	if meta.Status != match.Live {
		sum.Deadline = nil
	}
	if meta.Result != nil {
		r := *meta.Result
		if r.Winners == nil {
			r.Winners = []int{}
		}
		sum.Result = &r
	}
	return sum
}
