package match

// CommandKind is what a command asks of a game's owner.
type CommandKind string

// The commands. The room's (room.go) come after the game's own: offers,
// chat, presence and claiming victory. A rematch is not a command of the
// finished game, which has no owner any more: it is a new game (the server
// creates it with Registry.Create and RematchID).
const (
	CmdJoin  CommandKind = "join"  // take Seat (-1: the seat you are invited to, or the first open one)
	CmdLeave CommandKind = "leave" // give your seat back before the start
	// CmdAbort cancels the game: an open one by its creator or a user
	// invited to it (declining the invitation), a live one by any of its
	// players until every seat has made a move (MayAbort).
	CmdAbort  CommandKind = "abort"
	CmdMove   CommandKind = "move"   // play Move at Ply (for Seat, if >= 0)
	CmdResign CommandKind = "resign" // your seat loses (at Ply, if >= 0)

	CmdOffer    CommandKind = "offer"    // offer Offer (a draw, a takeback) to the other players
	CmdAccept   CommandKind = "accept"   // accept another seat's pending Offer
	CmdDecline  CommandKind = "decline"  // decline another seat's pending Offer, or withdraw your own
	CmdChat     CommandKind = "chat"     // say Text to the other players (never to spectators)
	CmdPresence CommandKind = "presence" // your game page is open (Here) or closed (!Here)
	CmdClaim    CommandKind = "claim"    // claim the win: the seat to move has been away past the grace
	CmdRoom     CommandKind = "room"     // read the room (Ack.Room): changes nothing
)

// Command is one request to a game's owner, which runs the commands of its
// game one at a time. It is plain data, so that a node that does not own the
// game can forward it to the one that does and answer as if local.
type Command struct {
	Kind CommandKind
	User User
	// Seat is the seat to take (CmdJoin) or the seat the client says it
	// moves for (CmdMove); -1 for any.
	Seat int
	// Ply is the number of moves the client has seen: a move is for that
	// ply, and a resignation at a ply is refused once the game has moved
	// on; -1 for a resignation at any ply.
	Ply  int
	Move string // CmdMove: the move in the game's notation
	// Offer is what CmdOffer offers, or CmdAccept and CmdDecline answer.
	Offer OfferKind
	// Text is what CmdChat says, or the reason CmdRefuse gives (one of
	// DeclineReasons).
	Text string
	// Here is CmdPresence's news: a game page of the user's is open.
	Here bool
	// Source is the server that holds the pages CmdPresence speaks of
	// (any name unique to that server process): in a cluster a player's
	// pages may be open on several nodes, and one node's last page closing
	// leaves those open elsewhere.
	Source string
	// AcceptDeal (CmdJoin) agrees to play a game that keeps its creator's
	// deal of the hidden cards (Meta.KeepDeal); joining such a game
	// without it is refused.
	AcceptDeal bool
	// Key is the command's idempotency key (at most MaxKey bytes): a
	// command whose user and key match one of the last commands its game's
	// owner answered (and which is otherwise the same command) is a copy
	// of it, answered as that one was and applied no second time
	// (answers.go). The server makes it of the client's message id on the
	// game channel; a node forwarding a command without one makes one, so
	// that its own retries are copies. "" for none.
	Key string
	// Retry says that an earlier copy of this command may have been
	// applied already: it was sent to an owner that died or went silent
	// before answering. A retried move identical to the move played at its
	// ply (same ply, seat and text), however many moves have followed, is
	// answered as done instead of as stale, so a command that races a
	// takeover is applied once, never twice; so is a retried join whose
	// user holds the seat it asked for, and a retried leave whose seat is
	// open again.
	Retry bool
}

// MaxKey is the longest Command.Key.
const MaxKey = 200

// Ack is a command's answer: the game after it, and the move it committed.
type Ack struct {
	Meta  Meta
	Names []string // the seats' names now (SeatNames)
	Move  *Move
	// Room is the room as the commanding user may see it (CmdRoom).
	Room *Room
}

// Seq is the event number the command brought the game to.
func (a *Ack) Seq() int64 { return a.Meta.Version }
