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
	// Hidden: some seat cannot see part of the game (Skyjo's face-down
	// cards), so it has no takebacks (nearly every action reveals a card).
	Hidden bool `json:"hidden"`
	// Analysis: the analysis board searches the game's positions (only a
	// game that hides nothing; a finished game of any kind can be reviewed).
	Analysis bool `json:"analysis"`
	// BotRatings are the built-in levels' measured ratings in this game,
	// rounded to 10 (ladder.Calibrated); a level without a measurement
	// is absent.
	BotRatings map[string]int `json:"botRatings,omitempty"`
}

// CatalogClock is a time control as POST /api/games takes it.
type CatalogClock struct {
	Kind        string `json:"kind"` // none, realtime or correspondence
	InitialMs   int64  `json:"initialMs,omitempty"`
	IncrementMs int64  `json:"incrementMs,omitempty"`
	Days        int    `json:"days,omitempty"`
}

// CatalogPairClock is one time control of quick pairing, by the name that
// POST /api/pairing takes.
type CatalogPairClock struct {
	Name  string       `json:"name"`
	Clock CatalogClock `json:"clock"`
}

// CatalogPairing is quick pairing's facts: its time controls, shortest
// first, and how old a waiting game may be to be joined (a longer wait is
// renewed by the page).
type CatalogPairing struct {
	Clocks   []CatalogPairClock `json:"clocks"`
	WindowMs int64              `json:"windowMs"`
}

// Catalog answers GET /api/catalog: the games in the order the site
// presents them, the bot levels a seat may have, quick pairing, and the
// longest chat line in characters.
type Catalog struct {
	Games   []CatalogGame  `json:"games"`
	Bots    []string       `json:"bots"`
	Pairing CatalogPairing `json:"pairing"`
	ChatMax int            `json:"chatMax"`
}

// LeaderboardRow is one player of a leaderboard.
type LeaderboardRow struct {
	User      string  `json:"user"`
	Rating    float64 `json:"rating"`
	Deviation float64 `json:"deviation"`
	Games     int     `json:"games"`
	Bot       bool    `json:"bot,omitempty"` // a bot account
}

// Leaderboard answers GET /api/leaderboard/{game}.
type Leaderboard struct {
	Game string `json:"game"`
	// MaxDeviation is the rule for who is listed: a rating whose deviation
	// is at most this; the page says so rather than knowing the number.
	MaxDeviation float64          `json:"maxDeviation"`
	Players      []LeaderboardRow `json:"players"`
	// Bots says which board this is: the bot accounts' (?bots=1) or the
	// people's (the default); they are ranked apart.
	Bots bool `json:"bots"`
}
