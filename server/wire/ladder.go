package wire

import "time"

// The bot ladder (docs/api.md, The bot ladder): GET /api/ladder/{game}.

// LadderPage answers GET /api/ladder/{game}: the entrants by rating, the
// head-to-head record of every pair that has played, the latest games.
type LadderPage struct {
	Game       string          `json:"game"`
	Clock      TimeControl     `json:"clock"` // every ladder game's
	Entrants   []LadderEntrant `json:"entrants"`
	HeadToHead []LadderPair    `json:"headToHead"`
	Games      []LadderGame    `json:"games"` // the latest 30, newest first
}

// LadderEntrant is one line of a ladder's page: a bot account, or one of
// the site's levels (an anchor, its rating held).
type LadderEntrant struct {
	ID          string `json:"id"`
	Name        string `json:"name"`
	Anchor      bool   `json:"anchor"`
	Active      bool   `json:"active"`
	Rating      int    `json:"rating"`
	Deviation   int    `json:"deviation"`
	Provisional bool   `json:"provisional"`
	Games       int    `json:"games"`
	Wins        int    `json:"wins"`
	Draws       int    `json:"draws"`
	Losses      int    `json:"losses"`
	Playing     int    `json:"playing"`
	MaxGames    int    `json:"maxGames,omitempty"`
	// Measured is, for an anchor, the rating its ladder games measure.
	Measured *LadderRating `json:"measured,omitempty"`
}

// LadderRating is a rating and its deviation, rounded.
type LadderRating struct {
	Rating    int `json:"rating"`
	Deviation int `json:"deviation"`
}

// LadderPair is the head-to-head record of two entrants: A's wins, the
// draws and B's wins.
type LadderPair struct {
	A     string `json:"a"`
	B     string `json:"b"`
	WinsA int    `json:"winsA"`
	Draws int    `json:"draws"`
	WinsB int    `json:"winsB"`
}

// LadderGame is one recent ladder game; Result is "pending" while it is
// played.
type LadderGame struct {
	ID      string     `json:"id"`
	First   string     `json:"first"`
	Second  string     `json:"second"`
	Result  string     `json:"result"`
	Created time.Time  `json:"created"`
	Ended   *time.Time `json:"ended,omitempty"`
}
