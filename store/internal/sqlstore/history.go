package sqlstore

import (
	"context"
	"strconv"
	"strings"

	"github.com/tabula-games/tabula/match"
	"github.com/tabula-games/tabula/store"
)

var _ store.History = (*DB)(nil)

// maxHistoryPage bounds one GameHistory query whatever the caller asks.
const maxHistoryPage = 1000

// GameHistory implements store.History.
//
// The query is driven by the player's seats (the index seats_user, from
// migration 1) and reads each game by its primary key; it needs no index of
// its own, so there is no migration for it. The plans with every filter set
// (checked with EXPLAIN QUERY PLAN on SQLite 3.40 and EXPLAIN on PostgreSQL
// 15 with 200 000 games, 2026-12):
//
//	SQLite:     SEARCH s USING INDEX seats_user (user_id=?)
//	            SEARCH g USING INDEX sqlite_autoindex_games_1 (id=?)
//	            CORRELATED SCALAR SUBQUERY (opponent): SEARCH o USING INDEX seats_user
//	            CORRELATED SCALAR SUBQUERY (outcome): SCAN w VIRTUAL TABLE (json_each)
//	            USE TEMP B-TREE FOR ORDER BY
//	PostgreSQL: Limit → Sort (g.finished DESC, g.id DESC) → Nested Loop Semi Join
//	            (Bitmap Index Scan on seats_user; Index Scan using games_pkey;
//	            opponent: Index Scan using seats_pkey)
//
// So one page costs a read of the player's seats and a sort of their
// finished games (thousands for the keenest players): linear in the
// player's games, never in the site's. An index on games(finished) would
// not help (the filter that narrows is the player, in seats), and the
// order cannot come from an index across the join.
func (db *DB) GameHistory(ctx context.Context, f store.HistoryFilter) ([]match.Meta, error) {
	where := []string{"s.user_id = ?", "s.kind = ?", "g.status = ?"}
	args := []any{f.UserID, string(match.SeatHuman), string(match.Finished)}
	if f.Game != "" {
		where = append(where, "g.game = ?")
		args = append(args, f.Game)
	}
	if f.Rated != nil {
		where = append(where, "g.rated = ?")
		args = append(args, b2i(*f.Rated))
	}
	switch f.Clock {
	case "":
	case match.ClockNone:
		// The clock column is the JSON of match.Clock, whose first field
		// is its kind; a game stored without one counts as none.
		where = append(where, "(g.clock LIKE ? OR g.clock LIKE ?)")
		args = append(args, `{"kind":"none"%`, `{"kind":""%`)
	default:
		where = append(where, "g.clock LIKE ?")
		args = append(args, `{"kind":"`+string(f.Clock)+`"%`)
	}
	if rt := f.Realtime; rt != nil {
		w, a := db.realtimeWhere(rt)
		where, args = append(where, w...), append(args, a...)
	}
	if f.OpponentID != 0 {
		where = append(where, "EXISTS (SELECT 1 FROM seats o WHERE o.game_id = g.id AND o.seat <> s.seat AND o.kind = ? AND o.user_id = ?)")
		args = append(args, string(match.SeatHuman), f.OpponentID)
	}
	if !f.From.IsZero() {
		where = append(where, "g.finished >= ?")
		args = append(args, ms(f.From))
	}
	if !f.To.IsZero() {
		where = append(where, "g.finished < ?")
		args = append(args, ms(f.To))
	}
	if f.After != nil {
		where = append(where, "(g.finished < ? OR (g.finished = ? AND g.id < ?))")
		args = append(args, ms(f.After.Finished), ms(f.After.Finished), f.After.ID)
	}
	if f.Outcome != "" {
		w, err := db.outcomeWhere(f.Outcome)
		if err != nil {
			return nil, err
		}
		where = append(where, w)
	}
	limit := f.Limit
	if limit <= 0 {
		limit = 50
	}
	limit = min(limit, maxHistoryPage)
	q := "SELECT " + gameCols + " FROM seats s JOIN games g ON g.id = s.game_id WHERE " + strings.Join(where, " AND ") +
		" ORDER BY g.finished DESC, g.id DESC LIMIT " + strconv.Itoa(limit)
	out, err := collect(ctx, db, db.r, scanGame, q, args...)
	if err != nil {
		return nil, db.wrap("game history", err)
	}
	return out, db.wrap("game history seats", db.loadSeats(ctx, db.r, out))
}

// outcomeWhere is the condition for the player's outcome, their seat being
// s.seat, read from the result column (match.Result as JSON) with each
// dialect's JSON functions: a win is the seat among the winners, a draw the
// verdict drawn, a loss a game won with the seat not among the winners.
func (db *DB) outcomeWhere(outcome string) (string, error) {
	var won, drawn, status string
	if db.d.Name == "postgres" {
		won = "(g.result::jsonb -> 'winners') @> to_jsonb(s.seat)"
		status = "(g.result::jsonb ->> 'status')"
	} else {
		won = "EXISTS (SELECT 1 FROM json_each(g.result, '$.winners') w WHERE w.value = s.seat)"
		status = "json_extract(g.result, '$.status')"
	}
	drawn = status + " = '" + string(match.Drawn) + "'"
	switch outcome {
	case store.OutcomeWin:
		return status + " = '" + string(match.Won) + "' AND " + won, nil
	case store.OutcomeDraw:
		return drawn, nil
	case store.OutcomeLoss:
		return status + " = '" + string(match.Won) + "' AND NOT " + won, nil
	}
	return "", errBadOutcome(outcome)
}

// errBadOutcome is a filter no game can match, a caller's mistake.
type errBadOutcome string

func (e errBadOutcome) Error() string {
	return "store: game history: outcome " + strconv.Quote(string(e)) + ": want win, draw or loss"
}

// realtimeWhere is the conditions of rt on a realtime game's clock, read
// from the clock column (match.Clock as JSON, whose zero fields are left
// out: COALESCE) with each dialect's JSON functions; the CASE reads the
// JSON only of a realtime game's clock.
func (db *DB) realtimeWhere(rt *store.RealtimeFilter) ([]string, []any) {
	field := func(name string) string {
		v := "json_extract(g.clock, '$." + name + "')"
		if db.d.Name == "postgres" {
			v = "(g.clock::jsonb ->> '" + name + "')::bigint"
		}
		return "(CASE WHEN g.clock LIKE '{\"kind\":\"realtime\"%' THEN COALESCE(" + v + ", 0) END)"
	}
	initial, inc := field("initialMs"), field("incrementMs")
	if rt.Exact {
		return []string{initial + " = ?", inc + " = ?"}, []any{rt.InitialMs, rt.IncrementMs}
	}
	est := "(" + initial + " + " + strconv.Itoa(store.EstimatedMoves) + " * " + inc + ")"
	where, args := []string{est + " >= ?"}, []any{rt.MinMs}
	if rt.MaxMs > 0 {
		where, args = append(where, est+" < ?"), append(args, rt.MaxMs)
	}
	return where, args
}
