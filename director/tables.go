package director

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"slices"
	"strconv"

	"github.com/tabula-games/tabula/game"
	"github.com/tabula-games/tabula/match"
	"github.com/tabula-games/tabula/store"
	"github.com/tabula-games/tabula/tournament"
)

// Skyjo table tournaments (issue 25): each round seats the players still
// in at tables of 3 to 8 by the standings (tournament.SeatTables), plays
// one game of Skyjo a table, and scores each table by placement
// (tournament.PlacementPoints, ties split); the total of Skyjo points
// breaks ties, the lower first. A table is a board of its round; its seats
// are the store's (store.Tables).

// Tables is the format of Skyjo table tournaments.
const Tables = "tables"

// TablesGame is the game a table tournament plays: the only one of more
// than two seats whose scores place its players.
const TablesGame = "skyjo"

// MaxTablesPlayers is the most players of a table tournament.
const MaxTablesPlayers = MaxSwissPlayers

// TablesStore is the store of a director that runs table tournaments.
type TablesStore interface {
	Store
	store.Tables
}

// checkTables checks a table tournament's settings: Skyjo, whose players
// option is the most players at a table (8 unless given in asked, the
// options the user gave), a number of rounds.
func checkTables(t *store.Tournament, asked map[string]string) error {
	if t.Game != TablesGame {
		return refuse(match.CodeBadOption, "tables are for Skyjo (3 to %d a table); %s is played in a Swiss, round robin or arena", tournament.MaxTable, t.Game)
	}
	if _, ok := asked[game.PlayersOption]; !ok {
		t.Options[game.PlayersOption] = strconv.Itoa(tournament.MaxTable)
	}
	if n := MaxTable(t); n < tournament.MinTable || n > tournament.MaxTable {
		return refuse(match.CodeBadOption, "tables seat %d to %d: the option players is the most at a table", tournament.MinTable, tournament.MaxTable)
	}
	if t.Rounds < 1 || t.Rounds > MaxRounds {
		return refuse(match.CodeBadRequest, "rounds: 1 to %d", MaxRounds)
	}
	if t.Double {
		return refuse(match.CodeBadRequest, "double is for a round robin")
	}
	if t.MaxPlayers == 0 {
		t.MaxPlayers = MaxTablesPlayers
	}
	if t.MaxPlayers < tournament.MinTable || t.MaxPlayers > MaxTablesPlayers {
		return refuse(match.CodeBadRequest, "maxPlayers: %d to %d in a table tournament", tournament.MinTable, MaxTablesPlayers)
	}
	return nil
}

// MaxTable is the most players at a table of table tournament t: its
// game's players option.
func MaxTable(t *store.Tournament) int {
	n, _ := strconv.Atoi(t.Options[game.PlayersOption])
	return n
}

// TableStandings ranks a table tournament's players (by their pairing
// numbers, as players lists them) after the tables that have a result:
// placement points, then the total of Skyjo points, the lower first.
func TableStandings(players []store.TournamentPlayer, rounds []store.TournamentRound, seats []store.TableSeat) ([]tournament.TableStanding, error) {
	hist, err := tableHistory(players, rounds, seats)
	if err != nil {
		return nil, err
	}
	return tournament.TableStandings(len(players), hist)
}

// tableHistory is the placed tables of the stored rounds as package
// tournament reads them.
func tableHistory(players []store.TournamentPlayer, rounds []store.TournamentRound, seats []store.TableSeat) ([][]tournament.TableGame, error) {
	idx := make(map[int64]int, len(players))
	for i, p := range players {
		idx[p.UserID] = i
	}
	placed := map[[2]int]bool{}
	for _, r := range rounds {
		for _, b := range r.Boards {
			placed[[2]int{r.Number, b.Board}] = b.Result == store.BoardPlaced
		}
	}
	out := make([][]tournament.TableGame, len(rounds))
	games := map[[2]int]int{} // (round, board) → index in out[round-1]
	for _, s := range seats {
		k := [2]int{s.Round, s.Board}
		if !placed[k] || s.Round < 1 || s.Round > len(rounds) {
			continue
		}
		p, ok := idx[s.UserID]
		if !ok {
			return nil, fmt.Errorf("round %d table %d: user %d is not a player", s.Round, s.Board, s.UserID)
		}
		gi, ok := games[k]
		if !ok {
			gi = len(out[s.Round-1])
			games[k] = gi
			out[s.Round-1] = append(out[s.Round-1], tournament.TableGame{Points: []float64{}})
		}
		g := &out[s.Round-1][gi]
		g.Players = append(g.Players, p)
		g.Totals = append(g.Totals, s.Total)
		g.Points = append(g.Points, float64(s.HalfPoints)/2)
	}
	return out, nil
}

// advanceTables moves table tournament t, started, on: it records the
// results of the current round's tables, and seats the next round or
// finishes the tournament.
func (d *Director) advanceTables(ctx context.Context, t *store.Tournament, epoch int64, players []store.TournamentPlayer,
	rounds []store.TournamentRound, finish func(note string) (bool, error)) (done bool, err error) {
	st, ok := d.cfg.Store.(TablesStore)
	if !ok {
		return false, fmt.Errorf("tournament %s is played at tables, and this director's store keeps none", t.ID)
	}
	seats, err := st.TableSeats(ctx, t.ID)
	if err != nil {
		return false, err
	}
	if len(rounds) > 0 {
		pending, err := d.playTables(ctx, st, t, epoch, rounds[len(rounds)-1], seats)
		if err != nil || pending {
			return false, err
		}
		if rounds, err = st.TournamentRounds(ctx, t.ID); err != nil {
			return false, err
		}
		if seats, err = st.TableSeats(ctx, t.ID); err != nil {
			return false, err
		}
	}
	if len(rounds) >= t.Rounds {
		return finish("")
	}
	next, tables, err := nextTables(t, players, rounds, seats)
	if errors.Is(err, tournament.ErrInput) {
		// Fewer than three players, or (at tables of at most 3) four or
		// five, whom no tables of 3 seat.
		why := "fewer than three players"
		if n := activePlayers(players); n >= tournament.MinTable {
			why = fmt.Sprintf("%d players do not fill tables of 3 to %d", n, MaxTable(t))
		}
		if len(rounds) == 0 {
			return finish("cancelled: " + why)
		}
		if why == "fewer than three players" {
			why += " left"
		}
		return finish(fmt.Sprintf("ended after round %d: %s", len(rounds), why))
	} else if err != nil {
		return false, err
	}
	if err := st.AddTableRoundFenced(ctx, epoch, t.ID, next, tables); errors.Is(err, store.ErrConflict) {
		return false, nil // seated already: the next step reads it
	} else if err != nil {
		return false, err
	}
	d.cfg.Log.Info("tournament tables seated", "tournament", t.ID, "round", next.Number, "tables", len(next.Boards))
	if seats, err = st.TableSeats(ctx, t.ID); err != nil {
		return false, err
	}
	_, err = d.playTables(ctx, st, t, epoch, next, seats)
	return false, err
}

// nextTables seats the round after rounds: the players not withdrawn in
// the order of the standings (pairing number among equals) at tables of
// tournament.TableSizes, the leaders at table 1. It returns the round's
// boards and each table's users in seat order; tournament.ErrInput when
// the players left fill no tables (fewer than three, or four or five at
// tables of at most 3).
func nextTables(t *store.Tournament, players []store.TournamentPlayer, rounds []store.TournamentRound, seats []store.TableSeat) (store.TournamentRound, [][]int64, error) {
	r := store.TournamentRound{Number: len(rounds) + 1}
	standings, err := TableStandings(players, rounds, seats)
	if err != nil {
		return r, nil, err
	}
	var order []int
	for _, s := range standings {
		if !players[s.Player].Withdrawn {
			order = append(order, s.Player)
		}
	}
	tables, err := tournament.SeatTables(order, MaxTable(t))
	if err != nil {
		return r, nil, err
	}
	users := make([][]int64, len(tables))
	for i, tb := range tables {
		for _, p := range tb {
			users[i] = append(users[i], players[p].UserID)
		}
		r.Boards = append(r.Boards, store.TournamentBoard{Board: i, White: users[i][0], Black: users[i][1], GameID: GameID(t.ID, r.Number, i)})
	}
	return r, users, nil
}

// playTables makes sure every table of round r has its game with its
// players seated, and records the placements of the games that have
// ended. pending reports that some table has no result yet.
func (d *Director) playTables(ctx context.Context, st TablesStore, t *store.Tournament, epoch int64, r store.TournamentRound, seats []store.TableSeat) (pending bool, err error) {
	users := map[int][]int64{}
	for _, s := range seats {
		if s.Round == r.Number {
			users[s.Board] = append(users[s.Board], s.UserID)
		}
	}
	for _, b := range r.Boards {
		if b.Result != store.BoardPending {
			continue
		}
		us := users[b.Board]
		opts := maps.Clone(t.Options)
		opts[game.PlayersOption] = strconv.Itoa(len(us))
		m, err := d.seatGame(ctx, t, r.Number, b.Board, b.GameID, opts, us) // games.go
		if err != nil {
			return true, err
		}
		switch {
		case m.Status == match.Open || m.Status == match.Live || (m.Status == match.Finished && m.Result == nil):
			pending = true
			continue
		case m.Status == match.Finished:
			half, totals := tablePlacement(m.Result, len(us))
			err = st.SetTableResultFenced(ctx, epoch, t.ID, r.Number, b.Board, store.BoardPlaced, half, totals)
		default:
			// Aborted: nobody at the table scores.
			err = st.SetBoardResultFenced(ctx, epoch, t.ID, r.Number, b.Board, store.BoardNotPlayed)
		}
		if err != nil && !errors.Is(err, store.ErrConflict) {
			return true, err
		}
	}
	return pending, nil
}

// tablePlacement is the half placement points and Skyjo totals of the n
// seats of a finished table game. A game played out places by its totals;
// one that ended without them (a resignation, a player out of time, a draw
// agreed) places its winners together above the others, and adds nothing
// to anyone's total.
func tablePlacement(res *match.Result, n int) (half, totals []int) {
	totals = make([]int, n)
	if len(res.Scores) == n {
		copy(totals, res.Scores)
	}
	rank := slices.Clone(totals)
	if len(res.Scores) != n {
		for i := range rank {
			if res.Status != match.Won || !slices.Contains(res.Winners, i) {
				rank[i] = 1
			}
		}
		if res.Status != match.Won {
			clear(rank) // a draw: everyone equal
		}
	}
	half = make([]int, n)
	for i, p := range tournament.PlacementPoints(rank) {
		half[i] = int(p * 2)
	}
	return half, totals
}
