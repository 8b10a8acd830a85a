package wire

import "time"

// The REST answers of the lobby that are not about one game's play.

// GameList answers GET /api/games.
type GameList struct {
	Games []Summary `json:"games"`
}

// Pairing answers POST /api/pairing: the game you were seated in
// (Matched: it starts now) or the one you wait in.
type Pairing struct {
	Matched bool    `json:"matched"`
	Seq     int64   `json:"seq"`
	Game    Summary `json:"game"`
}

// Online answers GET /api/online.
type Online struct {
	Players int `json:"players"`
}

// YourTurn is one game waiting for your move.
type YourTurn struct {
	ID       string     `json:"id"`
	Game     string     `json:"game"`
	Seat     int        `json:"seat"`
	Ply      int        `json:"ply"`
	Seq      int64      `json:"seq"`
	Since    *time.Time `json:"since"`
	Deadline *time.Time `json:"deadline"`
}

// Notifications answers GET /api/notifications.
type Notifications struct {
	YourTurn []YourTurn `json:"yourTurn"`
}

// CatalogOption is one option of a game.
type CatalogOption struct {
	Name    string   `json:"name"`
	Doc     string   `json:"doc"`
	Default string   `json:"default"`
	Values  []string `json:"values,omitempty"`
	Min     *int     `json:"min,omitempty"`
	Max     *int     `json:"max,omitempty"`
	House   bool     `json:"house,omitempty"`
}

// CatalogSeats is the range of a game's number of seats.
type CatalogSeats struct {
	Min     int `json:"min"`
	Max     int `json:"max"`
	Default int `json:"default"`
}

// CatalogGame is one game the site offers.
type CatalogGame struct {
	Name    string          `json:"name"`
	Title   string          `json:"title"`
	Seats   CatalogSeats    `json:"seats"`
	Options []CatalogOption `json:"options"`
}

// Catalog answers GET /api/catalog.
type Catalog struct {
	Games []CatalogGame `json:"games"`
	Bots  []string      `json:"bots"`
}

// LeaderboardRow is one player of a leaderboard.
type LeaderboardRow struct {
	User      string  `json:"user"`
	Rating    float64 `json:"rating"`
	Deviation float64 `json:"deviation"`
	Games     int     `json:"games"`
}

// Leaderboard answers GET /api/leaderboard/{game}.
type Leaderboard struct {
	Game string `json:"game"`
	// MaxDeviation is the rule for who is listed: a rating whose deviation
	// is at most this; the page says so rather than knowing the number.
	MaxDeviation float64          `json:"maxDeviation"`
	Players      []LeaderboardRow `json:"players"`
}
