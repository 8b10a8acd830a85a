package wire

import "time"

// Stats answers GET /api/users/{name}/stats: a player's record, ratings
// and recent games, for the profile page.
type Stats struct {
	User User `json:"user"`
	// Total is the record over every game, Games the record per game
	// (those the player finished at least one game of, by name).
	Total GameStats   `json:"total"`
	Games []GameStats `json:"games"`
	// Recent is the newest finished games, newest first.
	Recent []RecentGame `json:"recent"`
	// Counted is the number of finished games the figures are computed
	// from; Complete is false when the player has more than the server
	// counts (the newest ones are counted).
	Counted  int  `json:"counted"`
	Complete bool `json:"complete"`
	// ProvisionalAbove is the deviation above which a rating is
	// provisional (not yet on the leaderboard).
	ProvisionalAbove float64 `json:"provisionalAbove"`
}

// GameStats is a player's record in one game (Game empty: in all).
type GameStats struct {
	Game   string `json:"game,omitempty"`
	Played int    `json:"played"`
	Won    int    `json:"won"`
	Drawn  int    `json:"drawn"`
	Lost   int    `json:"lost"`
	// WinRate is Won/Played, 0 with no games.
	WinRate float64 `json:"winRate"`
	// CurrentStreak is the number of wins since the last game not won;
	// BestStreak the longest run of wins.
	CurrentStreak int `json:"currentStreak"`
	BestStreak    int `json:"bestStreak"`
	// PlayedSeconds is the time from start to end of the finished games.
	PlayedSeconds int64 `json:"playedSeconds"`
	// Rating is the player's rating in the game (absent for the total and
	// for a game never played rated).
	Rating *GameRating `json:"rating,omitempty"`
}

// GameRating is a player's rating in one game with its history.
type GameRating struct {
	Rating      float64 `json:"rating"`
	Deviation   float64 `json:"deviation"`
	RatedGames  int     `json:"ratedGames"`
	Best        float64 `json:"best"`
	Provisional bool    `json:"provisional"`
	// History is the rating after each rated game, oldest first (the
	// newest 500 at most).
	History []RatingPoint `json:"history"`
}

// RatingPoint is a rating after one rated game.
type RatingPoint struct {
	GameID string    `json:"gameId"`
	At     time.Time `json:"at"`
	Rating float64   `json:"rating"`
}

// RecentGame is one finished game on a profile.
type RecentGame struct {
	ID       string    `json:"id"`
	Game     string    `json:"game"`
	Finished time.Time `json:"finished"`
	// Outcome is the player's: "win", "draw" or "loss".
	Outcome   string   `json:"outcome"`
	Rated     bool     `json:"rated"`
	Opponents []string `json:"opponents"`
	// RatingChange is the player's rating change in a rated game.
	RatingChange *RatingChange `json:"ratingChange,omitempty"`
}

// RatingChange is a player's rating before and after one rated game.
type RatingChange struct {
	Before float64 `json:"before"`
	After  float64 `json:"after"`
	Delta  float64 `json:"delta"`
}

// Block is a user one blocks (GET /api/blocks).
type Block struct {
	User    string    `json:"user"`
	Created time.Time `json:"created"`
}

// Blocks answers GET /api/blocks.
type Blocks struct {
	Blocks []Block `json:"blocks"`
}
