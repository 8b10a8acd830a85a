package solve

import (
	"bytes"
	"flag"
	"os"
	"slices"
	"testing"

	"github.com/tabula-games/tabula/game"
	"github.com/tabula-games/tabula/games/sploof"
)

var updateBook = flag.Bool("update-book", false, "write sploof-book.gz from the committed strategy")

// checkCommittedBook: the embedded book holds exactly the positions that
// the walk of the committed strategy visited (TestCommittedStrategy), with
// the strategy's moves; with -update-book it is written from them.
func checkCommittedBook(t *testing.T, winner int, walked map[uint64]int) {
	t.Helper()
	if *updateBook {
		var buf bytes.Buffer
		if err := writeBook(&buf, winner, walked); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile("sploof-book.gz", buf.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
		t.Logf("sploof-book.gz: %d positions, %d bytes (rebuild the tests to embed it)", len(walked), buf.Len())
		return
	}
	b, err := committedBook()
	if err != nil {
		t.Fatal(err)
	}
	if b.winner != winner || len(b.keys) != len(walked) {
		t.Fatalf("the book: seat %d wins, %d positions; the strategy's walk: seat %d, %d", b.winner, len(b.keys), winner, len(walked))
	}
	for i, k := range b.keys {
		m, ok := walked[k]
		if !ok || (m < 0) != (b.moves[i] == noBookMove) || (m >= 0 && uint8(m) != b.moves[i]) {
			t.Fatalf("the book's position %016x (move %d): the walk has %v, %d", k, b.moves[i], ok, m)
		}
	}
}

// TestBookLookUp: from the start (Black wins) along a game in which White
// plays anything and Black the book's moves, every position to ply 11 is in
// the book, with a legal move where Black is to move and none where White
// is; a game of other rules, or off the proof's path, is not.
func TestBookLookUp(t *testing.T) {
	rng := game.NewRNG(3)
	for g := 0; g < 20; g++ {
		st := startState(t)
		for ply := 0; ply < 12; ply++ {
			e, ok := LookUpBook(st)
			if !ok || e.Winner != sploof.Black || e.Source == "" {
				t.Fatalf("game %d, ply %d: %v %+v", g, ply, ok, e)
			}
			legal := st.Legal(nil)
			var m game.Move
			if st.ToMove() == sploof.Black {
				if !e.HasMove {
					t.Fatalf("game %d, ply %d: no move for Black", g, ply)
				}
				m = e.Move
			} else {
				if e.HasMove {
					t.Fatalf("game %d, ply %d: a move for White, the loser", g, ply)
				}
				m = legal[rng.IntN(len(legal))]
			}
			st.Play(m)
			if st.Outcome().Over() {
				if !st.Outcome().IsWinner(sploof.Black) {
					t.Fatalf("game %d: White won on the book's path", g)
				}
				break
			}
		}
	}
	// Off the proof's path: after White's first move, the look-up of each
	// Black reply's position agrees with the book's keys; the book's reply
	// is in it, and some other replies are not (a reply other than the
	// book's may still reach a position the proof reaches another way).
	st := startState(t)
	st.Play(st.Legal(nil)[0])
	e, _ := LookUpBook(st)
	inBook := map[uint64]bool{}
	for _, k := range openingBookOrFail(t).keys {
		inBook[k] = true
	}
	outside := 0
	for _, m := range st.Legal(nil) {
		c := *st
		c.Play(m)
		if c.Outcome().Over() {
			continue
		}
		_, ok := LookUpBook(&c)
		if ok != inBook[keyOfBits(c.Bits())] {
			t.Fatalf("move %s: LookUpBook says %v, the book's keys %v", st.FormatMove(m), ok, !ok)
		}
		if m == e.Move && !ok {
			t.Fatalf("the book's own move %s leaves the book", st.FormatMove(m))
		}
		if !ok {
			outside++
		}
	}
	if outside == 0 {
		t.Fatal("every Black reply to White's first move is in the book")
	}
	// Black first: the same proof, colours swapped — White wins.
	bf, err := sploof.Game{}.New(game.Options{"first": "black"}, 1)
	if err != nil {
		t.Fatal(err)
	}
	bst := bf.(*sploof.State)
	if e, ok := LookUpBook(bst); !ok || e.Winner != sploof.White || e.HasMove {
		t.Fatalf("Black first, the start: %v %+v", ok, e)
	}
	bst.Play(bst.Legal(nil)[0])
	if e, ok := LookUpBook(bst); !ok || e.Winner != sploof.White || !e.HasMove || !slices.Contains(bst.Legal(nil), e.Move) {
		t.Fatalf("Black first, after Black's move: %v %+v", ok, e)
	}
	if _, ok := game.LookUpBook(startState(t)); !ok {
		t.Fatal("the game's book is not registered")
	}
	other, err := sploof.Game{}.New(game.Options{"first": "white", "supply": "unlimited"}, 1)
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := LookUpBook(other.(*sploof.State)); ok {
		t.Fatal("a game with unlimited supply found in the book")
	}
}

// TestReadBookRefuses: a damaged book file is an error, not a book.
func TestReadBookRefuses(t *testing.T) {
	var good bytes.Buffer
	if err := writeBook(&good, 1, map[uint64]int{5: 3, 9: -1}); err != nil {
		t.Fatal(err)
	}
	if b, err := readBook(bytes.NewReader(good.Bytes())); err != nil || len(b.keys) != 2 || b.moves[1] != noBookMove {
		t.Fatalf("a good book: %v %+v", err, b)
	}
	for name, data := range map[string][]byte{
		"not gzip":  []byte("SPBOOK01"),
		"truncated": good.Bytes()[:len(good.Bytes())-9],
	} {
		if _, err := readBook(bytes.NewReader(data)); err == nil {
			t.Errorf("%s: read", name)
		}
	}
}

// openingBookOrFail is the committed book, read.
func openingBookOrFail(t *testing.T) *openingBook {
	t.Helper()
	b, err := committedBook()
	if err != nil {
		t.Fatal(err)
	}
	return b
}
