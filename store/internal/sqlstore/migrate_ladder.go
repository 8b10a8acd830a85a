package sqlstore

// The bot ladder (issue 26 point 5): its entrants per game — bot accounts
// that opted in (user_id, an empty level) and the built-in levels as anchors
// (user_id 0, level set) held at a fixed rating —, its games (ordinary
// games, linked here with the entrant on each seat and their result), and
// the one lease that makes exactly one node its matchmaker.
func init() {
	register(Migration{
		Version: 13,
		Name:    "bot ladder: entrants and anchors, ladder games, the matchmaker's lease",
		Up: func(d *Dialect) string {
			return `
CREATE TABLE ladder_entries (
	game TEXT NOT NULL,
	user_id BIGINT NOT NULL,
	level TEXT NOT NULL,
	max_games INTEGER NOT NULL,
	joined BIGINT NOT NULL,
	active INTEGER NOT NULL,
	rating ` + d.Float + ` NOT NULL,
	deviation ` + d.Float + ` NOT NULL,
	PRIMARY KEY (game, user_id, level)
);
CREATE TABLE ladder_games (
	game_id TEXT PRIMARY KEY,
	game TEXT NOT NULL,
	first_user BIGINT NOT NULL,
	first_level TEXT NOT NULL,
	second_user BIGINT NOT NULL,
	second_level TEXT NOT NULL,
	created BIGINT NOT NULL,
	result TEXT NOT NULL,
	ended BIGINT NOT NULL
);
CREATE INDEX ladder_games_by_game ON ladder_games (game, created);
CREATE INDEX ladder_games_pending ON ladder_games (result);
CREATE TABLE ladder_lease (
	id INTEGER PRIMARY KEY,
	owner TEXT NOT NULL,
	epoch BIGINT NOT NULL,
	lease_expires BIGINT NOT NULL
);
INSERT INTO ladder_lease (id, owner, epoch, lease_expires) VALUES (1, '', 0, 0)`
		},
		Down: func(d *Dialect) string {
			return `
DROP TABLE ladder_lease;
DROP TABLE ladder_games;
DROP TABLE ladder_entries`
		},
	})
}
