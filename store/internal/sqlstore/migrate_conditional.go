package sqlstore

// Conditional moves of correspondence games (issue 27, point 9): one row a
// game and seat, the seat's lines as one JSON document (the server checks
// and bounds them), and the ply at which they apply, which the game's owner
// uses to play a reply exactly once (match/conditional.go).
func init() {
	register(Migration{
		Version: 16,
		Name:    "conditional moves",
		Up: func(d *Dialect) string {
			return `
CREATE TABLE conditional_moves (
	game_id TEXT NOT NULL REFERENCES games(id),
	seat INTEGER NOT NULL,
	ply INTEGER NOT NULL,
	lines TEXT NOT NULL,
	created BIGINT NOT NULL,
	PRIMARY KEY (game_id, seat)
)`
		},
		Down: func(d *Dialect) string {
			return `DROP TABLE conditional_moves`
		},
	})
}
