package learn_test

import (
	"slices"
	"strings"
	"testing"

	"github.com/tabula-games/tabula/game"
	"github.com/tabula-games/tabula/learn"
)

// TestEquivalentChoices: the classes of a Skyjo decision split the legal
// moves (every move in exactly one class), moves on cells that look alike
// in columns that look alike are one choice, and moves that differ in what
// the player sees are not.
func TestEquivalentChoices(t *testing.T) {
	g, _ := game.Lookup("skyjo")
	// Seed 1 after both players' opening flips (the first legal ones) and
	// a draw: the player to move holds a card and shows two face-up cards.
	s, err := g.New(game.Defaults(g), 1)
	if err != nil {
		t.Fatal(err)
	}
	for !strings.Contains(strings.Join(game.LegalTexts(s), " "), "draw") {
		if err := game.Play(s, game.LegalTexts(s)[0]); err != nil {
			t.Fatal(err)
		}
	}
	if err := game.Play(s, "draw"); err != nil {
		t.Fatal(err)
	}
	classes, err := learn.Equivalent(s)
	if err != nil {
		t.Fatal(err)
	}
	var all []string
	class := map[string]int{}
	for i, c := range classes {
		for _, mv := range c {
			all = append(all, mv)
			class[mv] = i
		}
	}
	legal := game.LegalTexts(s)
	slices.Sort(all)
	slices.Sort(legal)
	if !slices.Equal(all, legal) {
		t.Fatalf("classes %v do not split the legal moves %v", classes, legal)
	}
	// Two opening flips show two cards; the other columns are all face
	// down, so flipping any face-down card of an all-face-down column is
	// one choice, and so is swapping one.
	view, _ := game.View(s, s.ToMove())
	t.Logf("view %s, classes %v", view, classes)
	var downCols []byte
	for _, col := range "abcd" {
		if allDown(t, s, byte(col)) {
			downCols = append(downCols, byte(col))
		}
	}
	if len(downCols) < 2 {
		t.Fatalf("want two columns all face down, have %q", downCols)
	}
	a, b := string(downCols[0])+"1", string(downCols[1])+"3"
	if class["flip "+a] != class["flip "+b] || class["swap "+a] != class["swap "+b] {
		t.Errorf("flip/swap %s and %s look alike but are different choices: %v", a, b, classes)
	}
	if class["flip "+a] == class["swap "+a] {
		t.Errorf("flip %s and swap %s are one choice: %v", a, a, classes)
	}
	if len(classes) >= len(legal) {
		t.Errorf("%d classes of %d moves: nothing grouped", len(classes), len(legal))
	}
}

// allDown reports whether the column col of the grid of the seat to move is
// all face down (the position JSON writes face-down cards as "?N").
func allDown(t *testing.T, s game.State, col byte) bool {
	for _, row := range "123" {
		mv := "flip " + string(col) + string(row)
		if !slices.Contains(game.LegalTexts(s), mv) {
			return false
		}
	}
	return true
}

// TestCheckDecisionFindsFaults: the proof of a Skyjo decision rejects a
// puzzle that samples fewer than 2,000 deals, names another answer, accepts
// only part of the answer's class or more than it, or states another
// margin. (Each rejection after sampling costs one full measure; -short
// checks the cheap ones and one of those.)
func TestCheckDecisionFindsFaults(t *testing.T) {
	ps, err := learn.LoadPuzzles(learn.Files(), "skyjo")
	if err != nil {
		t.Fatal(err)
	}
	g, _ := game.Lookup("skyjo")
	var pz *learn.Puzzle
	for i := range ps.Puzzles {
		if len(ps.Puzzles[i].Accept) > 1 {
			pz = &ps.Puzzles[i]
			break
		}
	}
	if pz == nil {
		t.Fatal("no puzzle whose answer is a class of several moves")
	}
	fewer, next, part, more, margin := *pz, *pz, *pz, *pz, *pz
	e := *pz.Expect
	e.Deals = learn.MinDeals - 1
	fewer.Expect = &e
	next.Line, next.Accept = []string{pz.Expect.Next}, []string{pz.Expect.Next}
	next.Kind, next.Difficulty = "", 0
	part.Accept = pz.Accept[:1]
	more.Accept = append(slices.Clone(pz.Accept), pz.Expect.Next)
	m := *pz.Expect
	m.Margin += 0.5
	margin.Expect = &m
	cases := map[string]learn.Puzzle{"fewer deals": fewer, "another answer": next}
	if !testing.Short() {
		cases["part of the class"], cases["more than the class"], cases["another margin"] = part, more, margin
	}
	for name, b := range cases {
		if err := learn.CheckPuzzle(g, &b); err == nil {
			t.Errorf("%s, %s: accepted", pz.ID, name)
		} else {
			t.Logf("%s: %v", name, err)
		}
	}
}
