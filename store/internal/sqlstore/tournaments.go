package sqlstore

import (
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"strings"
	"time"

	"github.com/tabula-games/tabula/store"
)

// Tournaments (store.Tournaments): one row per tournament with its
// director's lease (owner, epoch, lease_expires in the database's clock),
// one per player, one per board of each round. Every director write is a
// transaction that first reads the tournament's row FOR UPDATE and checks
// the epoch, so a deposed director writes nothing.

var _ store.Tournaments = (*DB)(nil)

const tournamentColumns = `id, name, format, game, options, clock, rounds, double_rr, start_at, rated, password_hash,
	min_rated_games, bots, max_players, creator_id, created, status, finished, note, owner, epoch`

func scanTournament(row scanner) (store.Tournament, error) {
	var t store.Tournament
	var opts, clock, status string
	var start, created, finished int64
	var double, rated, bots int
	err := row.Scan(&t.ID, &t.Name, &t.Format, &t.Game, &opts, &clock, &t.Rounds, &double, &start, &rated, &t.PasswordHash,
		&t.MinRatedGames, &bots, &t.MaxPlayers, &t.CreatorID, &created, &status, &finished, &t.Note, &t.Owner, &t.Epoch)
	if err != nil {
		return t, err
	}
	if err := json.Unmarshal([]byte(opts), &t.Options); err != nil {
		return t, fmt.Errorf("tournament %s options: %w", t.ID, err)
	}
	if err := json.Unmarshal([]byte(clock), &t.Clock); err != nil {
		return t, fmt.Errorf("tournament %s clock: %w", t.ID, err)
	}
	t.Double, t.Rated, t.Bots = double != 0, rated != 0, bots != 0
	t.Start, t.Created, t.Finished = fromMs(start), fromMs(created), fromMs(finished)
	t.Status = store.TournamentStatus(status)
	return t, nil
}

// CreateTournament implements store.Tournaments.
func (db *DB) CreateTournament(ctx context.Context, t *store.Tournament) error {
	opts, err := json.Marshal(t.Options)
	if err != nil {
		return db.wrap("create tournament", err)
	}
	clock, err := json.Marshal(t.Clock)
	if err != nil {
		return db.wrap("create tournament", err)
	}
	t.Status, t.Owner, t.Epoch = store.TournamentUpcoming, "", 0
	_, err = db.exec(ctx, `INSERT INTO tournaments (`+tournamentColumns+`, lease_expires, current_round)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 0, 0)`,
		t.ID, t.Name, t.Format, t.Game, string(opts), string(clock), t.Rounds, b2i(t.Double), ms(t.Start), b2i(t.Rated), t.PasswordHash,
		t.MinRatedGames, b2i(t.Bots), t.MaxPlayers, t.CreatorID, ms(t.Created), string(t.Status), ms(t.Finished), t.Note, t.Owner, t.Epoch)
	return db.wrap("create tournament", err)
}

// Tournament implements store.Tournaments.
func (db *DB) Tournament(ctx context.Context, id string) (store.Tournament, error) {
	t, err := scanTournament(db.r.QueryRowContext(ctx, db.d.Rebind("SELECT "+tournamentColumns+" FROM tournaments WHERE id = ?"), id))
	return t, db.wrap("tournament", err)
}

// ListTournaments implements store.Tournaments.
func (db *DB) ListTournaments(ctx context.Context, f store.TournamentFilter) ([]store.Tournament, error) {
	var where []string
	var args []any
	if len(f.Statuses) > 0 {
		where = append(where, "status IN (?"+strings.Repeat(", ?", len(f.Statuses)-1)+")")
		for _, s := range f.Statuses {
			args = append(args, string(s))
		}
	}
	if f.Creator != 0 {
		where = append(where, "creator_id = ?")
		args = append(args, f.Creator)
	}
	if f.Player != 0 {
		where = append(where, "EXISTS (SELECT 1 FROM tournament_players p WHERE p.tournament_id = tournaments.id AND p.user_id = ? AND p.withdrawn = 0)")
		args = append(args, f.Player)
	}
	q := "SELECT " + tournamentColumns + " FROM tournaments"
	if len(where) > 0 {
		q += " WHERE " + strings.Join(where, " AND ")
	}
	order := " ORDER BY start_at, id"
	if len(f.Statuses) == 1 && f.Statuses[0] == store.TournamentFinished {
		order = " ORDER BY start_at DESC, id"
	}
	if f.Limit <= 0 {
		f.Limit = 50
	}
	args = append(args, f.Limit)
	out, err := collect(ctx, db, db.r, scanTournament, q+order+" LIMIT ?", args...)
	return out, db.wrap("list tournaments", err)
}

// lockTournament reads a tournament's status, epoch and player count
// inside tx, holding its row (PostgreSQL) for the rest of the transaction.
func (db *DB) lockTournament(ctx context.Context, tx *sql.Tx, id string) (status string, epoch int64, err error) {
	err = tx.QueryRowContext(ctx, db.d.Rebind("SELECT status, epoch FROM tournaments WHERE id = ?"+db.d.ForUpdate), id).Scan(&status, &epoch)
	return status, epoch, err
}

// JoinTournament implements store.Tournaments.
func (db *DB) JoinTournament(ctx context.Context, id string, uid int64, now time.Time, max int) (store.TournamentPlayer, error) {
	var p store.TournamentPlayer
	err := db.tx(ctx, func(tx *sql.Tx) error {
		status, _, err := db.lockTournament(ctx, tx, id)
		if err != nil {
			return err
		}
		if status == string(store.TournamentFinished) {
			return fmt.Errorf("the tournament is finished: %w", store.ErrConflict)
		}
		var joined int64
		var withdrawn int
		err = tx.QueryRowContext(ctx, db.d.Rebind("SELECT number, joined, withdrawn FROM tournament_players WHERE tournament_id = ? AND user_id = ?"), id, uid).
			Scan(&p.Number, &joined, &withdrawn)
		switch {
		case err == nil && withdrawn == 0:
			p.UserID, p.Joined = uid, fromMs(joined)
			return nil
		case err != nil && err != sql.ErrNoRows:
			return err
		}
		var active, all int
		if err := tx.QueryRowContext(ctx, db.d.Rebind("SELECT COALESCE(SUM(1 - withdrawn), 0), COUNT(*) FROM tournament_players WHERE tournament_id = ?"), id).
			Scan(&active, &all); err != nil {
			return err
		}
		if max > 0 && active >= max {
			return fmt.Errorf("the tournament has %d players, its most: %w", active, store.ErrConflict)
		}
		p.UserID = uid
		if withdrawn != 0 {
			p.Joined = fromMs(joined)
			_, err = tx.ExecContext(ctx, db.d.Rebind("UPDATE tournament_players SET withdrawn = 0 WHERE tournament_id = ? AND user_id = ?"), id, uid)
			return err
		}
		p.Number, p.Joined = all, now
		_, err = tx.ExecContext(ctx, db.d.Rebind("INSERT INTO tournament_players (tournament_id, user_id, number, joined, withdrawn) VALUES (?, ?, ?, ?, 0)"),
			id, uid, p.Number, ms(now))
		return err
	})
	if err != nil {
		return store.TournamentPlayer{}, db.wrap("join tournament", err)
	}
	return p, nil
}

// WithdrawTournament implements store.Tournaments.
func (db *DB) WithdrawTournament(ctx context.Context, id string, uid int64) error {
	res, err := db.exec(ctx, "UPDATE tournament_players SET withdrawn = 1 WHERE tournament_id = ? AND user_id = ?", id, uid)
	if err == nil {
		err = mustOne(res)
	}
	return db.wrap("withdraw from tournament", err)
}

// TournamentPlayers implements store.Tournaments.
func (db *DB) TournamentPlayers(ctx context.Context, id string) ([]store.TournamentPlayer, error) {
	out, err := collect(ctx, db, db.r, func(row scanner) (store.TournamentPlayer, error) {
		var p store.TournamentPlayer
		var joined int64
		var withdrawn int
		err := row.Scan(&p.UserID, &p.Name, &p.Number, &joined, &withdrawn)
		p.Joined, p.Withdrawn = fromMs(joined), withdrawn != 0
		if level, _, ok := store.BotOfID(p.UserID); ok { // a built-in bot (store/tournamentbots.go)
			p.BotLevel, p.Name = level, store.BotPlayerName(p.UserID)
		}
		return p, err
	}, `SELECT p.user_id, COALESCE(u.name, ''), p.number, p.joined, p.withdrawn FROM tournament_players p
		LEFT JOIN users u ON u.id = p.user_id WHERE p.tournament_id = ? ORDER BY p.number`, id)
	return out, db.wrap("tournament players", err)
}

// TournamentRounds implements store.Tournaments.
func (db *DB) TournamentRounds(ctx context.Context, id string) ([]store.TournamentRound, error) {
	type row struct {
		round int
		b     store.TournamentBoard
	}
	rows, err := collect(ctx, db, db.r, func(sc scanner) (row, error) {
		var r row
		return r, sc.Scan(&r.round, &r.b.Board, &r.b.White, &r.b.Black, &r.b.GameID, &r.b.Result)
	}, "SELECT round, board, white, black, game_id, result FROM tournament_boards WHERE tournament_id = ? ORDER BY round, board", id)
	if err != nil {
		return nil, db.wrap("tournament rounds", err)
	}
	var out []store.TournamentRound
	for _, r := range rows {
		if len(out) == 0 || out[len(out)-1].Number != r.round {
			out = append(out, store.TournamentRound{Number: r.round})
		}
		last := &out[len(out)-1]
		last.Boards = append(last.Boards, r.b)
	}
	return out, nil
}

// ClaimTournament implements store.Tournaments.
func (db *DB) ClaimTournament(ctx context.Context, id, node string, epoch int64, ttl time.Duration) (int64, error) {
	var out int64
	err := db.tx(ctx, func(tx *sql.Tx) error {
		var owner string
		var cur int64
		var live int
		err := tx.QueryRowContext(ctx, db.d.Rebind(`SELECT owner, epoch, CASE WHEN lease_expires >= `+db.now()+` THEN 1 ELSE 0 END
			FROM tournaments WHERE id = ?`+db.d.ForUpdate), id).Scan(&owner, &cur, &live)
		if err != nil {
			return err
		}
		switch {
		case owner == node && cur == epoch && epoch > 0:
			// A renewal.
			out = cur
		case epoch > 0:
			return fmt.Errorf("tournament %s is at epoch %d, not %d: %w", id, cur, epoch, store.ErrDeposed)
		case live != 0:
			return fmt.Errorf("tournament %s is directed by %s: %w", id, owner, store.ErrConflict)
		default:
			out = cur + 1
		}
		_, err = tx.ExecContext(ctx, db.d.Rebind(`UPDATE tournaments SET owner = ?, epoch = ?, lease_expires = `+db.now()+` + ? WHERE id = ?`),
			node, out, ttl.Milliseconds(), id)
		return err
	})
	if err != nil {
		return 0, db.wrap("claim tournament", err)
	}
	return out, nil
}

// ReleaseTournament implements store.Tournaments.
func (db *DB) ReleaseTournament(ctx context.Context, id, node string, epoch int64) error {
	_, err := db.exec(ctx, "UPDATE tournaments SET lease_expires = 0 WHERE id = ? AND owner = ? AND epoch = ?", id, node, epoch)
	return db.wrap("release tournament", err)
}

// UndirectedTournaments implements store.Tournaments.
func (db *DB) UndirectedTournaments(ctx context.Context, startsBefore time.Time, limit int) ([]string, error) {
	out, err := collect(ctx, db, db.r, func(row scanner) (string, error) {
		var id string
		return id, row.Scan(&id)
	}, "SELECT id FROM tournaments WHERE status IN (?, ?) AND start_at < ? AND lease_expires < "+db.now()+" ORDER BY start_at, id LIMIT ?",
		string(store.TournamentUpcoming), string(store.TournamentRunning), ms(startsBefore), limit)
	return out, db.wrap("undirected tournaments", err)
}

// fenced runs fn in a transaction that holds tournament id's row and
// only if its epoch is still epoch.
func (db *DB) fenced(ctx context.Context, op, id string, epoch int64, fn func(tx *sql.Tx) error) error {
	err := db.tx(ctx, func(tx *sql.Tx) error {
		_, cur, err := db.lockTournament(ctx, tx, id)
		if err != nil {
			return err
		}
		if cur != epoch {
			return fmt.Errorf("tournament %s is at epoch %d, not %d: %w", id, cur, epoch, store.ErrDeposed)
		}
		return fn(tx)
	})
	return db.wrap(op, err)
}

// UpdateTournamentFenced implements store.Tournaments.
func (db *DB) UpdateTournamentFenced(ctx context.Context, epoch int64, t *store.Tournament) error {
	return db.fenced(ctx, "update tournament", t.ID, epoch, func(tx *sql.Tx) error {
		_, err := tx.ExecContext(ctx, db.d.Rebind("UPDATE tournaments SET status = ?, rounds = ?, finished = ?, note = ? WHERE id = ?"),
			string(t.Status), t.Rounds, ms(t.Finished), t.Note, t.ID)
		return err
	})
}

// AddRoundFenced implements store.Tournaments.
func (db *DB) AddRoundFenced(ctx context.Context, epoch int64, id string, r store.TournamentRound) error {
	return db.fenced(ctx, "add tournament round", id, epoch, func(tx *sql.Tx) error {
		var last int
		if err := tx.QueryRowContext(ctx, db.d.Rebind("SELECT current_round FROM tournaments WHERE id = ?"), id).Scan(&last); err != nil {
			return err
		}
		if r.Number != last+1 {
			return fmt.Errorf("round %d after round %d: %w", r.Number, last, store.ErrConflict)
		}
		for _, b := range r.Boards {
			if _, err := tx.ExecContext(ctx, db.d.Rebind(`INSERT INTO tournament_boards (tournament_id, round, board, white, black, game_id, result)
				VALUES (?, ?, ?, ?, ?, ?, ?)`), id, r.Number, b.Board, b.White, b.Black, b.GameID, b.Result); err != nil {
				return err
			}
		}
		_, err := tx.ExecContext(ctx, db.d.Rebind("UPDATE tournaments SET current_round = ? WHERE id = ?"), r.Number, id)
		return err
	})
}

// SetBoardResultFenced implements store.Tournaments.
func (db *DB) SetBoardResultFenced(ctx context.Context, epoch int64, id string, round, board int, result string) error {
	return db.fenced(ctx, "set board result", id, epoch, func(tx *sql.Tx) error {
		res, err := tx.ExecContext(ctx, db.d.Rebind("UPDATE tournament_boards SET result = ? WHERE tournament_id = ? AND round = ? AND board = ? AND result = ''"),
			result, id, round, board)
		if err != nil {
			return err
		}
		if n, err := res.RowsAffected(); err != nil || n == 1 {
			return err
		}
		return fmt.Errorf("board %d of round %d has a result already or does not exist: %w", board, round, store.ErrConflict)
	})
}
