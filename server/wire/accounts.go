package wire

import "time"

// The answers about accounts: sign-in, profiles, API tokens.

// User is an account as anyone may see it.
type User struct {
	ID      int64     `json:"id"`
	Name    string    `json:"name"`
	Guest   bool      `json:"guest"`
	Created time.Time `json:"created"`
	// Bot marks a bot account (POST /api/me/bot), shown as BOT.
	Bot bool `json:"bot,omitempty"`
}

// Session answers the calls that sign in (the user and, for clients that do
// not keep cookies, the session token) and GET /api/session (the user, or
// null, without a token).
type Session struct {
	User  *User  `json:"user"`
	Token string `json:"token,omitempty"`
}

// Rating is a user's rating in one game.
type Rating struct {
	Game       string  `json:"game"`
	Rating     float64 `json:"rating"`
	Deviation  float64 `json:"deviation"`
	Volatility float64 `json:"volatility"`
	Games      int     `json:"games"`
}

// Profile answers GET /api/me and GET /api/users/{name}.
type Profile struct {
	User    User     `json:"user"`
	Ratings []Rating `json:"ratings"`
}

// Token is a personal API token; its value only once, when it is made.
type Token struct {
	ID      int64     `json:"id"`
	Name    string    `json:"name"`
	Token   string    `json:"token,omitempty"`
	Created time.Time `json:"created"`
	// Scopes is what the token may do: "full", "bot:play", "read".
	Scopes []string `json:"scopes"`
	// LastUsed is its last use, to the minute (null: never).
	LastUsed *time.Time `json:"lastUsed"`
}

// Tokens answers GET /api/tokens.
type Tokens struct {
	Tokens []Token `json:"tokens"`
}
