package wire

// Finding people (docs/api.md, Finding people): the search of players by
// name and who is online on the whole site.

// UserSearch answers GET /api/users?prefix=….
type UserSearch struct {
	Users []FoundUser `json:"users"`
}

// FoundUser is one registered user whose name begins with the prefix.
type FoundUser struct {
	Name string `json:"name"`
	// Online: the user is in the site's online list now.
	Online bool `json:"online"`
}

// States of an OnlinePlayer.
const (
	StatePlaying = "playing" // a live game's page open, as one of its players
	StateIdle    = "idle"    // online, not playing
)

// OnlinePlayers answers GET /api/online/players: who is online on every
// node of the site, registered users by name (guests are only counted).
type OnlinePlayers struct {
	Players []OnlinePlayer `json:"players"`
	// Users and Guests count everyone online, the players listed or not.
	Users  int `json:"users"`
	Guests int `json:"guests"`
	// Truncated: more registered users are online than the list holds.
	Truncated bool `json:"truncated"`
}

// OnlinePlayer is one registered user online.
type OnlinePlayer struct {
	Name  string `json:"name"`
	State string `json:"state"` // StatePlaying or StateIdle
	// Games are the live games whose page the player has open as one of
	// its players (empty when idle).
	Games []PlayingGame `json:"games,omitempty"`
}

// PlayingGame is a live game a player is playing.
type PlayingGame struct {
	ID   string `json:"id"`
	Game string `json:"game"`
}
