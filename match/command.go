package match

// CommandKind is what a command asks of a game's owner.
type CommandKind string

// The commands. Takeback, draw offers, chat, rematch and claiming victory
// will be further kinds of the same type.
const (
	CmdJoin   CommandKind = "join"   // take Seat (-1: the seat you are invited to, or the first open one)
	CmdLeave  CommandKind = "leave"  // give your seat back before the start
	CmdAbort  CommandKind = "abort"  // the creator cancels the game before the start
	CmdMove   CommandKind = "move"   // play Move at Ply (for Seat, if >= 0)
	CmdResign CommandKind = "resign" // your seat loses (at Ply, if >= 0)
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
	// Retry says that an earlier copy of this command may have been
	// applied already: it was sent to an owner that died or went silent
	// before answering. A retried move identical to the last move played
	// (same ply, seat and text) is answered as done instead of as stale,
	// so a command that races a takeover is applied once, never twice.
	Retry bool
}

// Ack is a command's answer: the game after it, and the move it committed.
type Ack struct {
	Meta  Meta
	Names []string // the seats' names now (SeatNames)
	Move  *Move
}

// Seq is the event number the command brought the game to.
func (a *Ack) Seq() int64 { return a.Meta.Version }
