// Package cluster runs one site on several identical `tabula serve` nodes:
// PostgreSQL is the source of truth and owns the leases, NATS carries the
// messages between nodes. Nothing here is a home-made consensus protocol;
// every decision that must be unique is a compare-and-set in PostgreSQL.
//
// Ownership (node.go, takeover.go, journal.go). Every node holds a lease
// it renews (node.go's lease loop, on store.Leases), and every open or live
// game row names its owner node and an ownership epoch. A node owns the
// games it creates and the orphans it claims — games whose owner's lease
// expired — and loads no others. A claim raises the game's epoch; every
// write a node makes is fenced by the epoch it holds, checked in the
// write's own transaction, so a node that lost a game (killed, paused, cut
// off from the database for longer than its lease) can never commit to it
// again: match.ErrDeposed stops its owner there. A refusal writes nothing,
// so an owner confirms one that rests on its picture of the game with the
// database first (match.Holder: still this node's, at this epoch?), and a
// claim stops any owner of the game still held here before the game is
// loaded afresh.
//
// Commands (forward.go). A command for a game owned elsewhere goes to the
// owner over NATS request/reply (subject PREFIX.cmd.NODE) and its answer
// comes back as if local. Every command carries an idempotency key
// (match.Command.Key: the client's, or one made here), and a game's owner
// answers a copy of a command it answered with the first answer, so an
// attempt sent again — its owner silent past attemptTimeout — is applied
// once. A command whose owner died before answering is sent again to the
// next owner marked as a retry (match.Command.Retry), which has no record
// of the first answer and judges the retry by what the database holds: a
// move by the move stored at its ply, the end of a game by its result
// (match.EndedBy). Chat lines and offers live only in their owner (the
// room is not stored): one whose owner died before answering is lost with
// the room, and its retry is applied at the new owner.
//
// Events (bus.go, watch.go, history.go, starts.go). The owner publishes
// each event of its games once, on PREFIX.ev.GAME.UID (UID: the user the
// event asks to move, or "-"), and a game's creation, start and end also on
// PREFIX.user.UID for each of its other users. A node hears only what its own
// connections watch: the first connection watching a game subscribes it to
// PREFIX.ev.GAME.*, the first watching a user's channel to PREFIX.ev.*.UID
// and PREFIX.user.UID, and the last to leave unsubscribes (Node.WatchGame,
// Node.WatchUser, which the server's hub calls). The NATS connection is
// made with NoEcho: a node never hears its own events, which its
// connections had from its publisher. Nothing hidden goes on the bus: no
// seed, and no start position (a Skyjo deal holds the face-down cards, the
// deck and the generator), which a node that needs it reads from the
// database. Core NATS may drop a message (a slow consumer, a reconnect):
// the publisher numbers each game's events in a stream of its own and keeps
// the last 64 of each game (history.go), and a node that sees a gap in a
// game it watches asks for the missing ones (PREFIX.hist.NODE) before
// handing on what follows; a longer gap reaches the connections, which see
// it in the events' own numbers and resynchronise from the database.
// A node caches users' names and ratings; since it hears only the games it
// watches, the node where they change (a rated game's owner at its end, the
// node where a guest registers) says so on PREFIX.forget, which every node
// hears, and each drops its copies (forget.go).
// Analysis jobs (analysis.go) run where they were started, each id naming
// its node; another node reads one by polling that node (PREFIX.an.NODE),
// and a user's new job stops their older one on every node
// (PREFIX.anstart).
// Nothing here uses JetStream: the durable log is PostgreSQL.
//
// Wire (wire.go). Every message between nodes — events, forwarded commands
// and their answers, requests for missed events — is a versioned, tagged
// message whose body has cluster's own wire types, never json.Marshal of
// another package's structs. A node reads its own version only; within a
// version changes are additive, so nodes of two releases run side by side
// during a rolling upgrade, and wire.go says how a new version is rolled out.
//
// Failover. A node killed with kill -9 stops renewing; once its lease has
// expired the others claim its games, spread over the live nodes and, for
// games with bot seats, only by nodes whose bot budget is not full
// (Config.BotsFull); each adopted game resumes with its clocks moved on by
// the outage (store.Leases.Claim: the seat to move keeps the time it had at
// its old owner's last renewal) and its bots thinking again.
package cluster
