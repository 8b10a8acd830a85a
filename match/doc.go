// Package match is the authoritative life of one game on the site, with no
// HTTP in it: its seats and who may take them, its clocks, the owner loop
// that serialises every command, committing a move through the store, the
// result and the rating update, and the turns of bot seats.
//
// The types of this package (Meta, Seat, Clock, Result, Move, …) are the
// vocabulary the store saves and the server shows; their rules live here,
// next to them. The package knows games only through the game contract and
// bots only through the agent package.
//
// A node's Registry holds one owner (Match) per open or live game. Everything
// reaches an owner as a Command, plain data run one at a time on the
// owner's goroutine, and everything it commits leaves it as a numbered Event.
// The outside world is behind small interfaces, each with one implementation
// for a single process and room for more:
//
//   - Journal (registry.go): where every change is written first — the store.
//     A cluster's journal is also a Holder (journal.go): an owner confirms
//     with it that its node still holds the game before refusing a command
//     on the strength of its own picture of the game.
//   - Publisher (event.go): where every committed change goes, in order, as an
//     Event whose Seq is the game's version (no gaps), carrying what each seat
//     may see; the server's in-process hub implements it. A cluster publishes
//     on a per-game subject instead and feeds other nodes' hubs from it; a
//     listener that sees a gap resynchronises from a Snapshot.
//   - Command (command.go): what a node that does not own a game forwards to
//     the owner; Registry.Do answers ErrClosed when this node has no owner for
//     the game, which is where forwarding starts. New commands (takeback, draw
//     offers, chat, rematch, claiming victory) are new CommandKinds handled in
//     Match.apply. A command may carry an idempotency key: the owner answers
//     a copy of a keyed command with the first answer and applies it once
//     (answers.go).
//   - BotPool (bots.go): where bot decisions run, told each decision's game,
//     seat, level and creator (BotTask) so that a node-wide pool can schedule
//     fairly and enforce quotas; package botpool runs them on the node's compute
//     pool (package compute: fair shares per user, live moves before
//     analysis), NewBotSemaphore is the first-come default.
//   - TimeSource (clock.go): the clock of every game; tests use a fake.
//
// matchtest holds the fakes of these for tests, and tnim, a tiny game.
package match
