// Package match is the authoritative life of one game on the site, with no
// HTTP in it: its seats and who may take them, its clocks, the owner loop
// that serialises every command, committing a move through the store, the
// result and the rating update, and the turns of bot seats.
//
// The types of this package (Meta, Seat, Clock, Result, Move, …) are the
// vocabulary the store saves and the server shows; their rules live here,
// next to them. The package knows games only through the game contract and
// bots only through the agent package, and it reaches the outside world
// through small interfaces: a Journal to write through, a Publisher for its
// numbered events, a TimeSource for clocks and a BotPool for bot turns.
package match
