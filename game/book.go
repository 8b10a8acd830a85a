package game

// A Book knows positions of one game that have been solved ahead of time
// (for Sploof: the proof from the start, docs/solving.md): who wins with
// best play, and where the winner is to move, a move that keeps the win.
// Bots play its move before they search; analysis shows what it knows. A
// game offers one by registering it (RegisterBook) from a package of its
// own, as with solvers.
type Book func(s State) (BookEntry, bool)

// BookEntry is what a book knows of a position.
type BookEntry struct {
	// Winner is the seat that wins with best play.
	Winner int
	// Move, when HasMove, is a move that keeps the win for the winner, who
	// is to move.
	Move    Move
	HasMove bool
	// Source says where the knowledge comes from, for people to read.
	Source string
}

var books = byName[Book]{register: "RegisterBook"}

// RegisterBook makes a book available for the named game; a second book for
// one game panics at start-up.
func RegisterBook(gameName string, b Book) { books.add(gameName, b) }

// LookUpBook returns what the book of s's game, if it has one, knows of s.
func LookUpBook(s State) (BookEntry, bool) {
	b, ok := books.get(s.Game().Name())
	if !ok {
		return BookEntry{}, false
	}
	return b(s)
}
