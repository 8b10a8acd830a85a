package sqlstore

// Migration 8 (challenges, issue 24): when a challenge expires. A
// challenge is an open game whose invited players must answer by then
// (match.Meta.Expires); 0 for every other game. It is a column of the game
// rather than a table of its own so that the game's owner — on whichever
// node loads or takes the game over — reads it with the game and aborts
// the challenge on time.
func init() {
	register(Migration{
		Version: 8,
		Name:    "when a challenge expires (games.expires)",
		Up: func(d *Dialect) string {
			return `ALTER TABLE games ADD COLUMN expires BIGINT NOT NULL DEFAULT 0`
		},
		Down: func(d *Dialect) string {
			return `ALTER TABLE games DROP COLUMN expires`
		},
	})
}
