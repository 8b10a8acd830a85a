package sqlstore

import (
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"time"

	"github.com/tabula-games/tabula/match"
	"github.com/tabula-games/tabula/store"
)

var _ store.Arenas = (*DB)(nil)

// CreateArena implements store.Arenas.
func (db *DB) CreateArena(ctx context.Context, t *store.Tournament, a store.Arena) error {
	opts, err := json.Marshal(t.Options)
	if err != nil {
		return db.wrap("create arena", err)
	}
	clock, err := json.Marshal(t.Clock)
	if err != nil {
		return db.wrap("create arena", err)
	}
	t.Status, t.Owner, t.Epoch = store.TournamentUpcoming, "", 0
	err = db.tx(ctx, func(tx *sql.Tx) error {
		if _, err := tx.ExecContext(ctx, db.d.Rebind(`INSERT INTO tournaments (`+tournamentColumns+`, lease_expires, current_round)
			VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 0, 0)`),
			t.ID, t.Name, t.Format, t.Game, string(opts), string(clock), t.Rounds, b2i(t.Double), ms(t.Start), b2i(t.Rated), t.PasswordHash,
			t.MinRatedGames, b2i(t.Bots), t.MaxPlayers, t.CreatorID, ms(t.Created), string(t.Status), ms(t.Finished), t.Note, t.Owner, t.Epoch); err != nil {
			return err
		}
		_, err := tx.ExecContext(ctx, db.d.Rebind("INSERT INTO tournament_arenas (tournament_id, duration_ms, berserk) VALUES (?, ?, ?)"),
			t.ID, a.Duration.Milliseconds(), b2i(a.Berserk))
		return err
	})
	return db.wrap("create arena", err)
}

// Arena implements store.Arenas.
func (db *DB) Arena(ctx context.Context, id string) (store.Arena, error) {
	var a store.Arena
	var d int64
	var b int
	err := db.r.QueryRowContext(ctx, db.d.Rebind("SELECT duration_ms, berserk FROM tournament_arenas WHERE tournament_id = ?"), id).Scan(&d, &b)
	a.Duration, a.Berserk = time.Duration(d)*time.Millisecond, b != 0
	return a, db.wrap("arena", err)
}

// SetArenaPaused implements store.Arenas.
func (db *DB) SetArenaPaused(ctx context.Context, id string, uid int64, paused bool) error {
	err := db.tx(ctx, func(tx *sql.Tx) error {
		var n int
		if err := tx.QueryRowContext(ctx, db.d.Rebind("SELECT COUNT(*) FROM tournament_players WHERE tournament_id = ? AND user_id = ?"), id, uid).Scan(&n); err != nil {
			return err
		}
		if n == 0 {
			return fmt.Errorf("user %d is not in tournament %s: %w", uid, id, store.ErrNotFound)
		}
		if _, err := tx.ExecContext(ctx, db.d.Rebind("DELETE FROM tournament_arena_players WHERE tournament_id = ? AND user_id = ?"), id, uid); err != nil {
			return err
		}
		if !paused {
			return nil
		}
		_, err := tx.ExecContext(ctx, db.d.Rebind("INSERT INTO tournament_arena_players (tournament_id, user_id, paused) VALUES (?, ?, 1)"), id, uid)
		return err
	})
	return db.wrap("pause in arena", err)
}

// ArenaPaused implements store.Arenas.
func (db *DB) ArenaPaused(ctx context.Context, id string) (map[int64]bool, error) {
	ids, err := collect(ctx, db, db.r, func(sc scanner) (int64, error) {
		var uid int64
		return uid, sc.Scan(&uid)
	}, "SELECT user_id FROM tournament_arena_players WHERE tournament_id = ? AND paused <> 0", id)
	if err != nil {
		return nil, db.wrap("arena paused", err)
	}
	out := make(map[int64]bool, len(ids))
	for _, uid := range ids {
		out[uid] = true
	}
	return out, nil
}

// ArenaGames implements store.Arenas.
func (db *DB) ArenaGames(ctx context.Context, id string) ([]store.ArenaGame, error) {
	out, err := collect(ctx, db, db.r, func(sc scanner) (store.ArenaGame, error) {
		var g store.ArenaGame
		var ended int64
		var wb, bb int
		err := sc.Scan(&g.Round, &g.Board, &ended, &wb, &bb)
		g.Ended, g.WhiteBerserk, g.BlackBerserk = fromMs(ended), wb != 0, bb != 0
		return g, err
	}, "SELECT round, board, ended, white_berserk, black_berserk FROM tournament_arena_games WHERE tournament_id = ? ORDER BY ended, round, board", id)
	return out, db.wrap("arena games", err)
}

// SetArenaResultFenced implements store.Arenas.
func (db *DB) SetArenaResultFenced(ctx context.Context, epoch int64, id string, result string, g store.ArenaGame) error {
	return db.fenced(ctx, "set arena result", id, epoch, func(tx *sql.Tx) error {
		res, err := tx.ExecContext(ctx, db.d.Rebind("UPDATE tournament_boards SET result = ? WHERE tournament_id = ? AND round = ? AND board = ? AND result = ''"),
			result, id, g.Round, g.Board)
		if err != nil {
			return err
		}
		if n, err := res.RowsAffected(); err != nil {
			return err
		} else if n != 1 {
			return fmt.Errorf("board %d of round %d has a result already or does not exist: %w", g.Board, g.Round, store.ErrConflict)
		}
		_, err = tx.ExecContext(ctx, db.d.Rebind(`INSERT INTO tournament_arena_games (tournament_id, round, board, white_berserk, black_berserk, ended)
			VALUES (?, ?, ?, ?, ?, ?)`), id, g.Round, g.Board, b2i(g.WhiteBerserk), b2i(g.BlackBerserk), ms(g.Ended))
		return err
	})
}

// ArenaOfGame implements store.Arenas.
func (db *DB) ArenaOfGame(ctx context.Context, gameID string) (string, store.TournamentBoard, error) {
	var id string
	var b store.TournamentBoard
	err := db.r.QueryRowContext(ctx, db.d.Rebind(`SELECT b.tournament_id, b.board, b.white, b.black, b.game_id, b.result
		FROM tournament_boards b JOIN tournament_arenas a ON a.tournament_id = b.tournament_id WHERE b.game_id = ? AND b.game_id <> ''`), gameID).
		Scan(&id, &b.Board, &b.White, &b.Black, &b.GameID, &b.Result)
	return id, b, db.wrap("arena of game", err)
}

// SetGameBerserk implements store.Arenas.
func (db *DB) SetGameBerserk(ctx context.Context, gameID string, seat int) error {
	if seat < 0 || seat >= 64 {
		return db.wrap("set game berserk", fmt.Errorf("seat %d: %w", seat, store.ErrNotFound))
	}
	err := db.tx(ctx, func(tx *sql.Tx) error {
		var text string
		if err := tx.QueryRowContext(ctx, db.d.Rebind("SELECT clock FROM games WHERE id = ? AND status = ?"+db.d.ForUpdate), gameID, string(match.Live)).Scan(&text); err != nil {
			return err
		}
		var c match.Clock
		if err := json.Unmarshal([]byte(text), &c); err != nil {
			return fmt.Errorf("game %s clock: %w", gameID, err)
		}
		c.Berserk |= 1 << uint(seat)
		b, err := json.Marshal(c)
		if err != nil {
			return err
		}
		_, err = tx.ExecContext(ctx, db.d.Rebind("UPDATE games SET clock = ? WHERE id = ?"), string(b), gameID)
		return err
	})
	return db.wrap("set game berserk", err)
}
