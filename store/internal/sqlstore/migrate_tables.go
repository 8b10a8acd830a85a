package sqlstore

// Skyjo table tournaments (issue 25): the seats of each table, up to eight
// a board, with each seat's placement points (halves, so whole numbers)
// and Skyjo total once the table's game has ended.
func init() {
	register(Migration{
		Version: 14,
		Name:    "table tournaments: the seats of each table, with their placement points and Skyjo totals",
		Up: func(d *Dialect) string {
			return `
CREATE TABLE tournament_table_seats (
	tournament_id TEXT NOT NULL REFERENCES tournaments(id),
	round INTEGER NOT NULL,
	board INTEGER NOT NULL,
	seat INTEGER NOT NULL,
	user_id BIGINT NOT NULL,
	half_points INTEGER NOT NULL,
	total INTEGER NOT NULL,
	PRIMARY KEY (tournament_id, round, board, seat)
)`
		},
		Down: func(d *Dialect) string {
			return `
DROP TABLE tournament_table_seats`
		},
	})
}
