package sqlstore

// Rated puzzles (issue 27, point 8). puzzle_players holds each player's
// Glicko-2 puzzle rating per game and their streak (the running one: its
// length, the puzzle it waits for and the puzzles it showed, as JSON; and
// the best); puzzle_ratings each puzzle's rating; puzzle_attempts each
// player's first attempt at each puzzle — its primary key is what makes a
// puzzle rated at most once per player, on every node — with the ratings
// before and after, which is the player's puzzle history.
func init() {
	register(Migration{
		Version: 17,
		Name:    "rated puzzles",
		Up: func(d *Dialect) string {
			return `
CREATE TABLE puzzle_players (
	user_id BIGINT NOT NULL REFERENCES users(id),
	game TEXT NOT NULL,
	rating ` + d.Float + ` NOT NULL,
	deviation ` + d.Float + ` NOT NULL,
	volatility ` + d.Float + ` NOT NULL,
	plays INTEGER NOT NULL,
	streak INTEGER NOT NULL,
	streak_puzzle TEXT NOT NULL,
	streak_seen TEXT NOT NULL,
	streak_best INTEGER NOT NULL,
	updated BIGINT NOT NULL,
	PRIMARY KEY (user_id, game)
);
CREATE TABLE puzzle_ratings (
	puzzle TEXT PRIMARY KEY,
	game TEXT NOT NULL,
	rating ` + d.Float + ` NOT NULL,
	deviation ` + d.Float + ` NOT NULL,
	volatility ` + d.Float + ` NOT NULL,
	plays INTEGER NOT NULL,
	solved INTEGER NOT NULL,
	updated BIGINT NOT NULL
);
CREATE INDEX puzzle_ratings_game ON puzzle_ratings(game);
CREATE TABLE puzzle_attempts (
	user_id BIGINT NOT NULL REFERENCES users(id),
	puzzle TEXT NOT NULL,
	game TEXT NOT NULL,
	mode TEXT NOT NULL,
	solved INTEGER NOT NULL,
	rated INTEGER NOT NULL,
	player_before ` + d.Float + ` NOT NULL,
	player_after ` + d.Float + ` NOT NULL,
	puzzle_before ` + d.Float + ` NOT NULL,
	puzzle_after ` + d.Float + ` NOT NULL,
	at BIGINT NOT NULL,
	PRIMARY KEY (user_id, puzzle)
);
CREATE INDEX puzzle_attempts_history ON puzzle_attempts(user_id, at)`
		},
		Down: func(d *Dialect) string {
			return `
DROP TABLE puzzle_attempts;
DROP TABLE puzzle_ratings;
DROP TABLE puzzle_players`
		},
	})
}
