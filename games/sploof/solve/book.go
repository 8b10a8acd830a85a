package solve

// The opening book: every position of the committed proof from the start
// (solving/sploof-strategy.gz) down to ply 11, by canonical key — with the
// winner (Black) to move, the strategy's move; with the loser to move, no
// move, only who wins. It is made from the strategy by walking it with the
// rules engine (TestCommittedBook makes it again and compares), so the
// strategy's layer ranks need not be rebuilt at run time.

import (
	"bufio"
	"bytes"
	"compress/gzip"
	_ "embed"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"slices"
	"sync"

	"github.com/tabula-games/tabula/game"
	"github.com/tabula-games/tabula/games/sploof"
)

// bookMagic opens a book file (inside its gzip stream).
const bookMagic = "SPBOOK01"

// noBookMove marks a position of the book with the loser to move.
const noBookMove = 0xFF

//go:embed sploof-book.gz
var committedBookFile []byte

// bookSource is what a look-up says its knowledge comes from.
const bookSource = "the proof from the start, docs/solving.md"

// openingBook is a book's positions: keys ascending, and for each the
// winner's move in the canonical image's frame or noBookMove.
type openingBook struct {
	winner int
	keys   []uint64
	moves  []uint8
}

// committedBook is the book made from the committed proof, read once.
var committedBook = sync.OnceValues(func() (*openingBook, error) {
	return readBook(bytes.NewReader(committedBookFile))
})

func init() {
	game.RegisterBook("sploof", func(s game.State) (game.BookEntry, bool) {
		st, ok := s.(*sploof.State)
		if !ok {
			return game.BookEntry{}, false
		}
		return LookUpBook(st)
	})
}

// LookUpBook returns what the opening book knows of st: who wins with best
// play and, with the winner to move, the proof's move. Only games of the
// default rules (finite supply, a line of the mover's wins) are in it, White
// or Black first.
func LookUpBook(st *sploof.State) (game.BookEntry, bool) {
	if !st.DefaultRules() || st.Outcome().Over() {
		return game.BookEntry{}, false
	}
	b, err := committedBook()
	if err != nil {
		// The embedded file is checked by the tests; a damaged binary
		// knows no book rather than failing a game.
		return game.BookEntry{}, false
	}
	// The rules treat the colours alike, so a game Black began is the book's
	// with the colours swapped, and its winner the other colour.
	bits, winner := st.Bits(), b.winner
	key, sym := keySymOfBits(bits)
	i, found := slices.BinarySearch(b.keys, key)
	if !found {
		bits.White, bits.Black = bits.Black, bits.White
		bits.Stock[0], bits.Stock[1] = bits.Stock[1], bits.Stock[0]
		bits.Supply[0], bits.Supply[1] = bits.Supply[1], bits.Supply[0]
		bits.ToMove = 1 - bits.ToMove
		key, sym = keySymOfBits(bits)
		if i, found = slices.BinarySearch(b.keys, key); !found {
			return game.BookEntry{}, false
		}
		winner = 1 - winner
	}
	e := game.BookEntry{Winner: winner, Source: bookSource}
	if cm := b.moves[i]; cm != noBookMove {
		m := game.Move(mapMove(inv[sym], cm))
		if !slices.Contains(st.Legal(nil), m) {
			return game.BookEntry{}, false
		}
		e.Move, e.HasMove = m, true
	}
	return e, true
}

// writeBook writes the positions (canonical key → the winner's move in the
// canonical frame, or noBookMove) of a book for winner.
func writeBook(w io.Writer, winner int, pos map[uint64]int) error {
	keys := make([]uint64, 0, len(pos))
	for k := range pos {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	zw, err := gzip.NewWriterLevel(w, gzip.BestCompression)
	if err != nil {
		return err
	}
	bw := bufio.NewWriter(zw)
	bw.WriteString(bookMagic)
	var buf [binary.MaxVarintLen64]byte
	bw.Write(buf[:binary.PutUvarint(buf[:], uint64(len(keys)))])
	bw.WriteByte(byte(winner))
	prev := uint64(0)
	for _, k := range keys {
		bw.Write(buf[:binary.PutUvarint(buf[:], k-prev)])
		m := pos[k]
		if m < 0 {
			m = noBookMove
		}
		bw.WriteByte(byte(m))
		prev = k
	}
	if err := bw.Flush(); err != nil {
		return err
	}
	return zw.Close()
}

// readBook reads a book that writeBook wrote.
func readBook(r io.Reader) (*openingBook, error) {
	zr, err := gzip.NewReader(r)
	if err != nil {
		return nil, fmt.Errorf("sploof book: %w", err)
	}
	br := bufio.NewReader(zr)
	magic := make([]byte, len(bookMagic))
	if _, err := io.ReadFull(br, magic); err != nil || string(magic) != bookMagic {
		return nil, errors.New("sploof book: not a book file")
	}
	n, err := binary.ReadUvarint(br)
	if err != nil || n > 1<<24 {
		return nil, errors.New("sploof book: a bad count")
	}
	winner, err := br.ReadByte()
	if err != nil || winner > 1 {
		return nil, errors.New("sploof book: a bad winner")
	}
	b := &openingBook{winner: int(winner), keys: make([]uint64, n), moves: make([]uint8, n)}
	prev := uint64(0)
	for i := range b.keys {
		d, err := binary.ReadUvarint(br)
		if err != nil || (i > 0 && d == 0) {
			return nil, fmt.Errorf("sploof book: entry %d: a bad key", i)
		}
		m, err := br.ReadByte()
		if err != nil || (m != noBookMove && int(m) >= sploof.RemoveFlag+sploof.NumPoints) {
			return nil, fmt.Errorf("sploof book: entry %d: a bad move", i)
		}
		if prev+d < prev {
			return nil, fmt.Errorf("sploof book: entry %d: a bad key", i)
		}
		prev += d
		b.keys[i], b.moves[i] = prev, m
	}
	if _, err := br.ReadByte(); err != io.EOF {
		return nil, errors.New("sploof book: data after the last entry")
	}
	return b, nil
}
