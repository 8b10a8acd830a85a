package sqlstore

import (
	"context"
	"database/sql"
	"fmt"
	"time"

	"github.com/tabula-games/tabula/store"
)

var _ store.TournamentBots = (*DB)(nil)

// AddTournamentBot implements store.TournamentBots: one transaction that
// locks the tournament's row, so that two additions at once (on two nodes)
// count each other.
func (db *DB) AddTournamentBot(ctx context.Context, id, level string, now time.Time, max, maxBots int) (store.TournamentPlayer, error) {
	var p store.TournamentPlayer
	err := db.tx(ctx, func(tx *sql.Tx) error {
		status, _, err := db.lockTournament(ctx, tx, id)
		if err != nil {
			return err
		}
		if status == string(store.TournamentFinished) {
			return fmt.Errorf("the tournament is finished: %w", store.ErrConflict)
		}
		var active, all, bots int
		if err := tx.QueryRowContext(ctx, db.d.Rebind(`SELECT COALESCE(SUM(1 - withdrawn), 0), COUNT(*),
			COALESCE(SUM(CASE WHEN user_id < 0 THEN 1 ELSE 0 END), 0) FROM tournament_players WHERE tournament_id = ?`), id).
			Scan(&active, &all, &bots); err != nil {
			return err
		}
		if max > 0 && active >= max {
			return fmt.Errorf("the tournament has %d players, its most: %w", active, store.ErrConflict)
		}
		if bots >= maxBots {
			return fmt.Errorf("the tournament has had %d bots, its most: %w", bots, store.ErrConflict)
		}
		uid, ok := store.BotID(bots, level)
		if !ok {
			return fmt.Errorf("no bot of level %q", level)
		}
		p = store.TournamentPlayer{UserID: uid, Name: store.BotPlayerName(uid), Number: all, Joined: now, BotLevel: level}
		_, err = tx.ExecContext(ctx, db.d.Rebind("INSERT INTO tournament_players (tournament_id, user_id, number, joined, withdrawn) VALUES (?, ?, ?, ?, 0)"),
			id, p.UserID, p.Number, ms(now))
		return err
	})
	if err != nil {
		return store.TournamentPlayer{}, db.wrap("add tournament bot", err)
	}
	return p, nil
}
