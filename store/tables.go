package store

import "context"

// BoardPlaced is the result of a table (a board of a Skyjo table
// tournament) whose game has ended: each seat's placement points and Skyjo
// total are in its TableSeats.
const BoardPlaced = "placed"

// TableSeat is one seat at a table of a table tournament. A table is a
// board of its round (TournamentBoard: White its first seat, Black its
// second, for the pages that list games) with up to eight seats here.
type TableSeat struct {
	Round, Board int
	Seat         int // from 0, the seat in the table's game
	UserID       int64
	// HalfPoints is twice the seat's placement points and Total its Skyjo
	// total at the end of the game: both 0 until the board has a result.
	HalfPoints int
	Total      int
}

// Tables is the table part of the tournaments (Tournaments holds the
// rest: a table tournament's rounds are rounds of boards, one a table).
type Tables interface {
	// AddTableRoundFenced stores round r (as AddRoundFenced) and the seats
	// of its tables in the same transaction: seats[i] are the users of
	// r.Boards[i], in seat order (at least the two of the board).
	AddTableRoundFenced(ctx context.Context, epoch int64, id string, r TournamentRound, seats [][]int64) error
	// TableSeats lists every seat of tournament id by round, board and
	// seat.
	TableSeats(ctx context.Context, id string) ([]TableSeat, error)
	// SetTableResultFenced records a table's result (as
	// SetBoardResultFenced) with each seat's half points and total, in
	// seat order, in the same transaction. ErrConflict if the board has a
	// result already.
	SetTableResultFenced(ctx context.Context, epoch int64, id string, round, board int, result string, halfPoints, totals []int) error
}
