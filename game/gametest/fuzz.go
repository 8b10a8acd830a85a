package gametest

import (
	"bytes"
	"testing"

	"github.com/tabula-games/tabula/game"
)

// FuzzMoves fuzzes ParseMove over a spread of random positions of g: no
// input may panic, and any accepted text must name a legal move whose
// canonical text parses back to it.
func FuzzMoves(f *testing.F, g game.Game, opts game.Options) {
	states := RandomStates(f, g, opts, 7, 64)
	for _, s := range states[:8] {
		for _, m := range s.Legal(nil) {
			f.Add(uint8(0), s.FormatMove(m))
		}
	}
	for _, txt := range defaultGarbage {
		f.Add(uint8(1), txt)
	}
	f.Fuzz(func(t *testing.T, which uint8, txt string) {
		s := states[int(which)%len(states)]
		m, err := s.ParseMove(txt)
		if err != nil {
			return
		}
		if !game.IsLegal(s, m) {
			t.Fatalf("ParseMove(%q) returned a move that is not legal", txt)
		}
		canon := s.FormatMove(m)
		back, err := s.ParseMove(canon)
		if err != nil || back != m {
			t.Fatalf("ParseMove(%q) = %q, which parses back to %v, %v", txt, canon, back, err)
		}
	})
}

// FuzzPosition fuzzes ParsePosition: no input may panic, and any accepted
// position must write JSON that reads back to the same JSON, with legal
// moves that all format and parse.
func FuzzPosition(f *testing.F, g game.Game, opts game.Options) {
	for _, s := range RandomStates(f, g, opts, 11, 40) {
		p, err := s.MarshalPosition()
		if err != nil {
			f.Fatal(err)
		}
		f.Add(p)
	}
	f.Add([]byte("{not json"))
	f.Add([]byte(`{"game":"` + g.Name() + `"}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		s, err := g.ParsePosition(data)
		if err != nil {
			return
		}
		p, err := s.MarshalPosition()
		if err != nil {
			t.Fatalf("accepted position cannot be written: %v", err)
		}
		s2, err := g.ParsePosition(p)
		if err != nil {
			t.Fatalf("written position %s does not read back: %v", p, err)
		}
		p2, _ := s2.MarshalPosition()
		if !bytes.Equal(p, p2) {
			t.Fatalf("position changes on a round trip:\n%s\n%s", p, p2)
		}
		if s.Hash() != s2.Hash() {
			t.Fatalf("hash changes on a round trip")
		}
		for _, m := range s.Legal(nil) {
			txt := s.FormatMove(m)
			if back, err := s.ParseMove(txt); err != nil || back != m {
				t.Fatalf("legal move %q does not parse back: %v", txt, err)
			}
		}
	})
}
