package sqlstore

// Board preferences per account (issue 27, point 10): one JSON document a
// user, replaced whole (the server validates and bounds it).
func init() {
	register(Migration{
		Version: 15,
		Name:    "board preferences per account",
		Up: func(d *Dialect) string {
			return `
CREATE TABLE user_prefs (
	user_id BIGINT PRIMARY KEY REFERENCES users(id),
	data TEXT NOT NULL,
	updated BIGINT NOT NULL
)`
		},
		Down: func(d *Dialect) string {
			return `DROP TABLE user_prefs`
		},
	})
}
