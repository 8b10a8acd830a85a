package sqlstore

// The kept reviews of finished games: one JSON document a game, written
// once (store.Reviews).
func init() {
	register(Migration{
		Version: 18,
		Name:    "reviews of finished games",
		Up: func(d *Dialect) string {
			return `
CREATE TABLE reviews (
	game_id TEXT PRIMARY KEY REFERENCES games(id),
	data TEXT NOT NULL,
	created BIGINT NOT NULL
)`
		},
		Down: func(d *Dialect) string {
			return `DROP TABLE reviews`
		},
	})
}
