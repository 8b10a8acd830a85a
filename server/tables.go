package server

import (
	"context"
	"net/http"

	"github.com/tabula-games/tabula/director"
	"github.com/tabula-games/tabula/store"
)

// Skyjo table tournaments (issue 25): a table tournament's part of its
// page — its standings with placement points and Skyjo totals, and each
// round's tables with their seats and games. The director
// (director/tables.go) seats and scores; this file reads and answers.

// tableLineJSON is one line of a table tournament's standings.
type tableLineJSON struct {
	Rank   int     `json:"rank"`
	Name   string  `json:"name"`
	Points float64 `json:"points"`
	// SkyjoTotal is the sum of the player's Skyjo totals: the tie-break,
	// the lower first.
	SkyjoTotal int  `json:"skyjoTotal"`
	Games      int  `json:"games"`
	Wins       int  `json:"wins"`
	Withdrawn  bool `json:"withdrawn,omitempty"`
}

// tableSeatJSON is one seat at a table; Points and Total once the table
// has its result.
type tableSeatJSON struct {
	Name   string   `json:"name"`
	Points *float64 `json:"points,omitempty"`
	Total  *int     `json:"total,omitempty"`
}

// tableJSON is one table of a round.
type tableJSON struct {
	Table  int             `json:"table"` // from 1
	GameID string          `json:"gameId"`
	Result string          `json:"result"` // "" while played, "placed", "-" not played
	Seats  []tableSeatJSON `json:"seats"`
}

type tableRoundJSON struct {
	Number int         `json:"number"`
	Tables []tableJSON `json:"tables"`
}

// tablesJSON is a table tournament's own part of its page.
type tablesJSON struct {
	MaxTable  int              `json:"maxTable"`
	Standings []tableLineJSON  `json:"standings"`
	Rounds    []tableRoundJSON `json:"rounds"`
}

// tablesStore is the store's tables, or 501 when this server's store keeps
// none.
func (s *Server) tablesStore() (store.Tables, error) {
	ts, ok := s.store.(store.Tables)
	if !ok {
		return nil, errf(http.StatusNotImplemented, "not_implemented", "this server's store keeps no Skyjo tables")
	}
	return ts, nil
}

func (s *Server) tablesDetail(ctx context.Context, t *store.Tournament, players []store.TournamentPlayer, rounds []store.TournamentRound) (*tablesJSON, error) {
	tb, err := s.tablesStore()
	if err != nil {
		return nil, err
	}
	seats, err := tb.TableSeats(ctx, t.ID)
	if err != nil {
		return nil, s.internal("table seats", err)
	}
	lines, err := director.TableStandings(players, rounds, seats)
	if err != nil {
		return nil, s.internal("table standings", err)
	}
	out := &tablesJSON{MaxTable: director.MaxTable(t), Standings: []tableLineJSON{}, Rounds: []tableRoundJSON{}}
	for _, l := range lines {
		p := players[l.Player]
		out.Standings = append(out.Standings, tableLineJSON{Rank: l.Rank, Name: p.Name, Points: l.Points, SkyjoTotal: l.SkyjoTotal,
			Games: l.Games, Wins: l.Wins, Withdrawn: p.Withdrawn})
	}
	names := map[int64]string{}
	for _, p := range players {
		names[p.UserID] = p.Name
	}
	at := map[[2]int]*tableJSON{}
	for _, r := range rounds {
		rj := tableRoundJSON{Number: r.Number, Tables: make([]tableJSON, len(r.Boards))}
		for i, b := range r.Boards {
			rj.Tables[i] = tableJSON{Table: b.Board + 1, GameID: b.GameID, Result: b.Result, Seats: []tableSeatJSON{}}
		}
		out.Rounds = append(out.Rounds, rj)
		for i, b := range r.Boards {
			at[[2]int{r.Number, b.Board}] = &out.Rounds[len(out.Rounds)-1].Tables[i]
		}
	}
	for _, st := range seats {
		tj := at[[2]int{st.Round, st.Board}]
		if tj == nil {
			continue
		}
		sj := tableSeatJSON{Name: names[st.UserID]}
		if tj.Result == store.BoardPlaced {
			pts, total := float64(st.HalfPoints)/2, st.Total
			sj.Points, sj.Total = &pts, &total
		}
		tj.Seats = append(tj.Seats, sj)
	}
	return out, nil
}
