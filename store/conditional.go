package store

import "github.com/tabula-games/tabula/match"

// Conditionals keeps the conditional moves of correspondence games (issue
// 27, point 9): one entry a game and seat, read and written by the server's
// endpoint and by the game's owner (match/conditional.go).
type Conditionals = match.Conditionals
