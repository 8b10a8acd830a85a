package sqlstore

// Arenas (issue 25): an arena's length and whether it allows berserk, its
// paused players, and for each finished board of its pairing waves when
// the game ended (a streak runs in that order) and who berserked.
func init() {
	register(Migration{
		Version: 12,
		Name:    "arena tournaments: length, berserk, paused players, the order and berserks of their games",
		Up: func(d *Dialect) string {
			return `
CREATE TABLE tournament_arenas (
	tournament_id TEXT PRIMARY KEY REFERENCES tournaments(id),
	duration_ms BIGINT NOT NULL,
	berserk INTEGER NOT NULL
);
CREATE TABLE tournament_arena_players (
	tournament_id TEXT NOT NULL REFERENCES tournaments(id),
	user_id BIGINT NOT NULL,
	paused INTEGER NOT NULL,
	PRIMARY KEY (tournament_id, user_id)
);
CREATE TABLE tournament_arena_games (
	tournament_id TEXT NOT NULL REFERENCES tournaments(id),
	round INTEGER NOT NULL,
	board INTEGER NOT NULL,
	white_berserk INTEGER NOT NULL,
	black_berserk INTEGER NOT NULL,
	ended BIGINT NOT NULL,
	PRIMARY KEY (tournament_id, round, board)
)`
		},
		Down: func(d *Dialect) string {
			return `
DROP TABLE tournament_arena_games;
DROP TABLE tournament_arena_players;
DROP TABLE tournament_arenas`
		},
	})
}
