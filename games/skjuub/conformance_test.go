package skjuub

import (
	"bytes"
	"errors"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tabula-games/tabula/game"
	"github.com/tabula-games/tabula/game/gametest"
)

var update = flag.Bool("update", false, "rewrite golden files")

// invariant: the game-specific facts every reachable state keeps.
func invariant(t testing.TB, gs game.State) {
	t.Helper()
	s := gs.(*State)
	for p := 0; p < 2; p++ {
		if n := popcount(s.b.own[p]) + int(s.pool[p]); n != poolSize {
			t.Errorf("player %d: %d on the board + %d in the pool = %d, want %d", p+1, popcount(s.b.own[p]), s.pool[p], n, poolSize)
		}
	}
	if !s.b.valid(s.r) {
		t.Errorf("invalid position reached: %s", describe(&s.b))
	}
	if k := s.computeKey(); k != s.key {
		t.Errorf("incremental key %x, recomputed %x", s.key, k)
	}
	if s.pending != 0 {
		sq := s.sacrificed()
		if p, _ := s.b.at(sq); p != int(s.mover) || s.b.inactive()&(1<<uint(sq)) == 0 {
			t.Errorf("bonus phase without an inactive own piece on %s", squareName(sq))
		}
	}
}

var optionSets = []game.Options{
	nil,
	{"opposite_overhangs": "forbid", "edge": "closed"},
	{"tumble": "sweep", "backtrack": "any"},
	{"maxturns": "12"},
	{"opposite_overhangs": "forbid", "edge": "closed", "tumble": "sweep", "backtrack": "any", "maxturns": "60"},
}

func TestConformance(t *testing.T) {
	games := 80
	if testing.Short() {
		games = 15
	}
	gametest.Run(t, Game, gametest.Config{
		Games:           games,
		DeepChecksEvery: 2,
		Invariant:       invariant,
		Options:         optionSets,
		Garbage:         []string{"a7N", "g1N", "a1X", "a1-b2", "a1~a3", "^", "^a1N", "a1>>", "PASS now", "a1-a1"},
	})
}

func TestLegalAllocs(t *testing.T) {
	for _, o := range optionSets[:3] {
		gametest.CheckLegalAllocs(t, Game, o)
	}
}

func TestPlayoutAllocs(t *testing.T) {
	start, _ := Game.New(nil, 3)
	s := start.Clone().(*State)
	rng := game.NewRNG(3)
	if n := testing.AllocsPerRun(200, func() {
		s.CopyFrom(start)
		s.Playout(&rng)
	}); n != 0 {
		t.Errorf("a playout allocates %.1f times, want 0", n)
	}
}

// Playout draws exactly like game.RandomPlayout: same games for the same seeds.
func TestPlayoutMatchesRandomPlayout(t *testing.T) {
	for seed := uint64(0); seed < 300; seed++ {
		for _, o := range optionSets {
			a, _ := Game.New(o, seed)
			b := a.Clone()
			r1, r2 := game.NewRNG(seed), game.NewRNG(seed)
			n1 := a.(*State).Playout(&r1)
			_, n2 := game.RandomPlayout(b, &r2, nil)
			p1, _ := a.MarshalPosition()
			p2, _ := b.MarshalPosition()
			if n1 != n2 || !bytes.Equal(p1, p2) {
				t.Fatalf("seed %d options %v: Playout and RandomPlayout differ (%d vs %d plies)", seed, o, n1, n2)
			}
		}
	}
}

// 10,000 seeded random games end (win, loss or house-rule draw) with every
// invariant holding after every ply.
func TestRandomGames(t *testing.T) {
	games := 10000
	if testing.Short() {
		games = 500
	}
	var buf []game.Move
	results := map[string]int{}
	for i := 0; i < games; i++ {
		o := optionSets[i%len(optionSets)]
		gs, err := Game.New(o, uint64(i))
		if err != nil {
			t.Fatal(err)
		}
		s := gs.(*State)
		rng := game.NewRNG(uint64(i) * 7919)
		for ply := 0; ; ply++ {
			invariant(t, s)
			if t.Failed() {
				t.Fatalf("game %d ply %d", i, ply)
			}
			buf = s.Legal(buf[:0])
			if s.Outcome().Over() {
				break
			}
			if len(buf) == 0 || ply > 20000 {
				t.Fatalf("game %d: stuck at ply %d", i, ply)
			}
			s.Play(buf[rng.IntN(len(buf))])
		}
		switch o := s.Outcome(); {
		case o.Status == game.Drawn && int(s.turns[0]+s.turns[1]) >= s.r.maxTurns:
			results["draw (maxturns)"]++
		case o.Status == game.Drawn:
			results["draw (repetition)"]++
		case o.IsWinner(0):
			results["player 1 wins"]++
		default:
			results["player 2 wins"]++
		}
	}
	t.Log(results)
}

// The greedy one-ply player (the Evaluator) beats uniform random play in at
// least 90% of games, playing either seat.
func TestGreedyBeatsRandom(t *testing.T) {
	games := 100
	if testing.Short() {
		games = 20
	}
	wins := 0
	for i := 0; i < games; i++ {
		greedySeat := i % 2
		gs, _ := Game.New(nil, uint64(i))
		s := gs.(*State)
		rng := game.NewRNG(uint64(i) + 1000)
		child := &State{}
		for !s.Outcome().Over() {
			moves := s.Legal(nil)
			pick := moves[rng.IntN(len(moves))]
			if s.ToMove() == greedySeat {
				best := -2.0
				ties := 0
				for _, m := range moves {
					child.copyFrom(s)
					child.Play(m)
					v := child.Evaluate(greedySeat)
					switch {
					case v > best:
						best, pick, ties = v, m, 1
					case v == best:
						ties++
						if rng.IntN(ties) == 0 {
							pick = m
						}
					}
				}
			}
			s.Play(pick)
		}
		if s.Outcome().IsWinner(greedySeat) {
			wins++
		}
	}
	t.Logf("greedy won %d of %d", wins, games)
	if wins*10 < games*9 {
		t.Errorf("greedy won %d of %d games against random, want ≥ 90%%", wins, games)
	}
}

func TestEvaluateRange(t *testing.T) {
	for _, gs := range gametest.RandomStates(t, Game, nil, 5, 400) {
		s := gs.(*State)
		for seat := 0; seat < 2; seat++ {
			v := s.Evaluate(seat)
			if v < -1 || v > 1 {
				t.Fatalf("Evaluate = %v", v)
			}
			if !s.Outcome().Over() && (v <= -0.95 || v >= 0.95) {
				t.Fatalf("non-terminal Evaluate = %v", v)
			}
		}
		if s.Outcome().Over() && s.Outcome().Status == game.Won {
			w := 0
			if s.Outcome().IsWinner(1) {
				w = 1
			}
			if s.Evaluate(w) != 1 || s.Evaluate(1-w) != -1 {
				t.Fatal("terminal Evaluate is not ±1")
			}
		}
	}
}

func FuzzMoves(f *testing.F)    { gametest.FuzzMoves(f, Game, nil) }
func FuzzPosition(f *testing.F) { gametest.FuzzPosition(f, Game, nil) }

// The spec's example position text reads (with its fields made consistent).
func TestSpecPositionExample(t *testing.T) {
	data := `{"game":"skjuub","board":{"c3":"1N","d4":"2W"},"pool":[10,10],"toMove":1,
		"phase":"bonus","sacrificed":"c3","earnedBy":"b3-c3","lastAction":["b2-b5","d4~d5"],"turn":[3,3]}`
	_, err := Game.ParsePosition([]byte(data))
	// c3:N with d4:W: not connected, so c3 cannot be a sacrificed piece.
	if !errors.Is(err, game.ErrPosition) {
		t.Fatalf("want an invalid position (c3 is active), got %v", err)
	}
	data = strings.Replace(data, `"d4":"2W"`, `"c4":"2N"`, 1)
	s, err := Game.ParsePosition([]byte(data))
	if err != nil {
		t.Fatal(err)
	}
	st := s.(*State)
	if !st.inBonus() || st.sacrificed() != sq("c3") || st.ToMove() != 0 {
		t.Error("bonus phase not read")
	}
	if hasMove(s, "^c3") || !hasMove(s, "pass") {
		t.Error("bonus moves wrong")
	}
}

func TestParsePositionRejects(t *testing.T) {
	for name, data := range map[string]string{
		"not json":       `{`,
		"wrong game":     `{"game":"sploof","board":{},"pool":[11,11],"toMove":1}`,
		"bad square":     `{"game":"skjuub","board":{"g1":"1N"},"pool":[10,11],"toMove":1}`,
		"bad piece":      `{"game":"skjuub","board":{"a1":"3N"},"pool":[10,11],"toMove":1}`,
		"bad dir":        `{"game":"skjuub","board":{"a1":"1X"},"pool":[10,11],"toMove":1}`,
		"conservation":   `{"game":"skjuub","board":{"a1":"1N"},"pool":[11,11],"toMove":1}`,
		"collision":      `{"game":"skjuub","board":{"b2":"1E","c2":"2N"},"pool":[10,10],"toMove":1}`,
		"toMove":         `{"game":"skjuub","board":{},"pool":[11,11],"toMove":3}`,
		"turn":           `{"game":"skjuub","board":{},"pool":[11,11],"toMove":1,"turn":[2,1]}`,
		"bad option":     `{"game":"skjuub","options":{"edge":"wobbly"},"board":{},"pool":[11,11],"toMove":1}`,
		"unknown option": `{"game":"skjuub","options":{"size":"7"},"board":{},"pool":[11,11],"toMove":1}`,
		"unknown field":  `{"game":"skjuub","board":{},"pool":[11,11],"toMove":1,"colour":"red"}`,
		"phase":          `{"game":"skjuub","board":{},"pool":[11,11],"toMove":1,"phase":"mid"}`,
		"bonus no piece": `{"game":"skjuub","board":{},"pool":[11,11],"toMove":1,"phase":"bonus","earnedBy":"a1-a2"}`,
		"pickup no dir":  `{"game":"skjuub","board":{},"pool":[11,11],"toMove":1,"lastAction":["^a1",""]}`,
		"pass last":      `{"game":"skjuub","board":{},"pool":[11,11],"toMove":1,"lastAction":["pass",""]}`,
		"history":        `{"game":"skjuub","board":{},"pool":[11,11],"toMove":1,"history":["xyz"]}`,
		"long history":   `{"game":"skjuub","board":{},"pool":[11,11],"toMove":1,"turn":[0,0],"history":["0000000000000001","0000000000000002"]}`,
		"beyond max":     `{"game":"skjuub","options":{"maxturns":"10"},"board":{},"pool":[11,11],"toMove":1,"turn":[6,6]}`,
		"closed edge":    `{"game":"skjuub","options":{"edge":"closed"},"board":{"f1":"1E"},"pool":[10,11],"toMove":1}`,
	} {
		if _, err := Game.ParsePosition([]byte(data)); !errors.Is(err, game.ErrPosition) {
			t.Errorf("%s: got %v, want ErrPosition", name, err)
		}
	}
}

func TestParseMoveErrors(t *testing.T) {
	s, _ := Game.New(nil, 0)
	for _, txt := range []string{"", "a1", "a1Q", "a1-b2", "a1~a3", "zz", "^a", "a1N b1N"} {
		if _, err := s.ParseMove(txt); !errors.Is(err, game.ErrSyntax) {
			t.Errorf("%q: got %v, want ErrSyntax", txt, err)
		}
	}
	for _, txt := range []string{"pass", "a1-a2", "^a1", "a1>", "a1~a2"} {
		if _, err := s.ParseMove(txt); !errors.Is(err, game.ErrIllegal) {
			t.Errorf("%q: got %v, want ErrIllegal", txt, err)
		}
	}
	for _, txt := range []string{"c3N", "C3n", " c3N "} {
		if m, err := s.ParseMove(txt); err != nil || s.FormatMove(m) != "c3N" {
			t.Errorf("%q: %v", txt, err)
		}
	}
}

func TestSeatNames(t *testing.T) {
	s, _ := Game.New(nil, 0)
	if s.SeatName(0) != "1" || s.SeatName(1) != "2" {
		t.Error("seat names")
	}
}

// The terminal drawing, against golden files (go test -update rewrites
// them); the checks below hold whatever the layout.
func TestDraw(t *testing.T) {
	cases := map[string]setup{
		"bonus": {pieces: "d3:1N d4:2N b2:1E a5:2W f6:1S", phase: "bonus", earnedBy: "a3-d3", lastAction: []string{"f6S", "a5W"}},
		"main":  {pieces: "b5:1N c2:2E d2:2E e5:1S", lastAction: []string{"b2-b5", "c3-c2"}},
	}
	for name, u := range cases {
		s := u.load(t)
		got := s.Draw()
		arrowsSeen := 0
		for _, a := range arrows {
			arrowsSeen += strings.Count(got, a)
		}
		// One arrow per piece, five more in the legend.
		if want := popcount(s.b.occ()) + 5; arrowsSeen != want {
			t.Errorf("%s: %d arrows, want %d", name, arrowsSeen, want)
		}
		path := filepath.Join("testdata", "draw_"+name+".golden")
		if *update {
			os.WriteFile(path, []byte(got), 0o644)
		}
		want, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		if got != string(want) {
			t.Errorf("%s: drawing differs from %s:\n%s", name, path, got)
		}
	}
}

// A game drawn by maxturns=1000 keeps its whole history through a position
// round trip (1001 turn starts fill the history array exactly).
func TestLongestHistoryRoundTrip(t *testing.T) {
	gs, _ := Game.New(game.Options{"maxturns": "1000"}, 0)
	s := gs.(*State)
	mustPlay(t, s, "a1N f6S")
	// Slide the two pieces around without ever repeating a turn start:
	// the turn counters make no difference to the key, so feed positions
	// into the history directly instead of finding 1000 distinct turns.
	for int(s.turns[0]+s.turns[1]) < 1000 {
		s.turns[s.mover]++
		s.mover ^= 1
		s.key ^= zMover
		s.key ^= uint64(s.nhist) << 40 // a fresh key per turn
		s.beginTurn()
	}
	if s.Outcome().Status != game.Drawn || int(s.nhist) != len(s.hist) {
		t.Fatalf("outcome %v with %d history entries", s.Outcome(), s.nhist)
	}
	s.key = s.computeKey()
	s.hist[s.nhist-1] = s.key
	data, err := s.MarshalPosition()
	if err != nil {
		t.Fatal(err)
	}
	back, err := Game.ParsePosition(data)
	if err != nil {
		t.Fatalf("round trip of a full history: %v", err)
	}
	if back.Outcome().Status != game.Drawn {
		t.Error("not drawn after the round trip")
	}
}

// TestRandomMoveMatchesLegal: RandomMove draws exactly as picking Legal's
// list at IntN(len) does — the same move and the same generator state
// after — at every position of seeded random games under every option
// set, and draws nothing where there is no move.
func TestRandomMoveMatchesLegal(t *testing.T) {
	positions := 0
	for seed := uint64(0); seed < 60; seed++ {
		for _, o := range optionSets {
			gs, _ := Game.New(o, seed)
			s := gs.(*State)
			rng := game.NewRNG(seed ^ 0x5eed)
			for {
				r1, r2 := rng, rng
				m1, ok := s.RandomMove(&r1)
				list := s.Legal(nil)
				if len(list) == 0 {
					if ok || r1.State() != rng.State() {
						t.Fatalf("seed %d: RandomMove gave %v (ok %v) where Legal has no move", seed, m1, ok)
					}
					break
				}
				m2 := list[r2.IntN(len(list))]
				if !ok || m1 != m2 || r1.State() != r2.State() {
					t.Fatalf("seed %d options %v: RandomMove %v (ok %v), Legal's pick %v", seed, o, m1, ok, m2)
				}
				positions++
				rng = r1
				s.Play(m1)
			}
		}
	}
	if positions < 10000 {
		t.Fatalf("only %d positions checked", positions)
	}
}

// TestLegalListsPiecesByDirection: Legal lists the active pieces' slides and
// tumbles, and their quarter turns, piece by piece in the order of the
// pieces' directions, then squares (the order every seed's game depends
// on: a search shuffles a node's moves from it, and RandomMove picks from
// it). It fails for an order by square alone.
func TestLegalListsPiecesByDirection(t *testing.T) {
	positions := 0
	for seed := uint64(0); seed < 100; seed++ {
		gs, _ := Game.New(nil, seed)
		s := gs.(*State)
		rng := game.NewRNG(seed)
		for !s.Outcome().Over() {
			list := s.Legal(nil)
			for _, kinds := range [][]int{{kindSlide, kindTumble}, {kindTurn}} {
				last := -1
				for _, m := range list {
					if k := mKind(m); k != kinds[0] && (len(kinds) == 1 || k != kinds[1]) {
						continue
					}
					from := mFrom(m)
					key := s.dirAt(from)*numSquares + from
					if key < last {
						t.Fatalf("seed %d, ply %d: %s comes after a move of a piece later in (direction, square) order: %v",
							seed, positions, s.FormatMove(m), game.LegalTexts(s))
					}
					last = key
				}
			}
			positions++
			s.Play(list[rng.IntN(len(list))])
		}
	}
	if positions < 4000 {
		t.Fatalf("only %d positions checked", positions)
	}
}
