package e2e

import (
	"context"
	"fmt"
	"math/rand/v2"
	"slices"
	"sync"
	"testing"
	"time"
)

// TestClusterGames: three nodes behind the proxy; for each of the four
// games, two players connected to different nodes play a whole game while
// a spectator on the third node follows it, and every one of them sees
// every move as it comes, in order, with no gap to resynchronise over —
// whichever node owns the game.
func TestClusterGames(t *testing.T) {
	s := newSite(t, 3)
	for i, name := range []string{"sgolte", "sploof", "skjuub", "skyjo"} {
		t.Run(name, func(t *testing.T) {
			alice, bob, spectator := s.guest(), s.guest(), s.anonymous()
			var opts map[string]string
			if name == "skyjo" {
				opts = map[string]string{"players": "2"}
			}
			id := alice.createGame(name, opts, []map[string]string{{"kind": "me"}, {"kind": "invite", "user": bob.name}}, nil)
			ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
			defer cancel()
			// Each client on its own node, turning round the nodes from
			// game to game.
			watchers := make([]*watcher, 3)
			for j, c := range []*client{alice, bob, spectator} {
				node := fmt.Sprint("node", (i+j)%3+1)
				cn, err := c.dial(ctx, id, node)
				if err != nil {
					t.Fatal(err)
				}
				defer cn.close()
				watchers[j] = &watcher{conn: cn, play: j < 2, rng: rand.New(rand.NewPCG(uint64(i), uint64(j)))}
			}
			if _, err := bob.call("POST", "/api/games/"+id+"/join", struct{}{}, nil); err != nil {
				t.Fatalf("bob joins: %v", err)
			}
			// The first watcher to fail stops the others (they would wait
			// for it to the timeout); its error is the one reported.
			var wg sync.WaitGroup
			var once sync.Once
			var failed error
			for j, w := range watchers {
				wg.Add(1)
				go func() {
					defer wg.Done()
					if err := w.follow(ctx); err != nil {
						once.Do(func() {
							failed = fmt.Errorf("%s on %s: %w", []string{"alice", "bob", "the spectator"}[j], w.conn.node, err)
							cancel()
						})
					}
				}()
			}
			wg.Wait()
			if failed != nil {
				t.Fatal(failed)
			}
			stored := s.storedMoves(id)
			var want []string
			for _, m := range stored {
				want = append(want, m.Text)
			}
			for j, w := range watchers {
				who := []string{"alice", "bob", "the spectator"}[j]
				if !slices.Equal(w.moves, want) {
					t.Fatalf("%s on %s saw %d moves, %d stored:\n%v\n%v", who, w.conn.node, len(w.moves), len(want), w.moves, want)
				}
				if w.resyncs > 0 {
					t.Fatalf("%s on %s had to resynchronise %d times", who, w.conn.node, w.resyncs)
				}
			}
			t.Logf("%s: %d moves, game owned by %s; alice on %s, bob on %s, the spectator on %s", name, len(want), s.owner(id),
				watchers[0].conn.node, watchers[1].conn.node, watchers[2].conn.node)
		})
	}
}

// watcher follows a game on its channel, playing random legal moves for
// its seat if it is a player, and keeps the moves it was told of, in the
// order it was told.
type watcher struct {
	conn    *conn
	play    bool
	rng     *rand.Rand
	seat    int
	moves   []string
	seqs    []int64
	resyncs int // snapshots after the game started: the server found a gap
	started bool
	next    int
}

// follow reads the channel until the game ends.
func (w *watcher) follow(ctx context.Context) error {
	seq, room := int64(0), int64(0)
	for {
		m, err := w.conn.read(ctx)
		if err != nil {
			return fmt.Errorf("read after %d moves: %w", len(w.moves), err)
		}
		// The numbering of docs/api.md: a snapshot says where the game
		// (seq) and its room (room.n) stand; each event of the game brings
		// it one further, with no gap and no repeat; the room's events
		// (offers, chat, presence) change no game — they carry the seq the
		// game stands at and a room number of their own, one more each.
		switch m.Type {
		case "ack", "error":
		case "snapshot":
			seq = m.Seq
			if m.Room != nil {
				room = m.Room.N
			}
		case "offer", "chat", "presence":
			if m.Seq != seq || m.N <= room {
				return fmt.Errorf("%s event (seq %d, n %d) with the game at %d and the room at %d", m.Type, m.Seq, m.N, seq, room)
			}
			room = m.N
		default:
			if m.Seq != seq+1 {
				return fmt.Errorf("%s event %d after %d", m.Type, m.Seq, seq)
			}
			seq = m.Seq
		}
		var legal []string
		switch m.Type {
		case "snapshot":
			if w.started && m.Game.Status == "live" {
				w.resyncs++
			}
			w.started = w.started || m.Game.Status == "live"
			w.seat = m.Seat
			w.moves = w.moves[:0]
			for _, mv := range m.Moves {
				w.moves = append(w.moves, mv.Move)
			}
			legal = m.Legal
		case "move":
			if m.Ply == nil || *m.Ply != len(w.moves) {
				return fmt.Errorf("move at ply %v after %d moves", m.Ply, len(w.moves))
			}
			w.moves = append(w.moves, m.Move)
			w.seqs = append(w.seqs, m.Seq)
			if m.ToMove == w.seat {
				legal = m.Legal
			}
		case "end":
			return nil
		case "error":
			return fmt.Errorf("error %+v", m.Error)
		}
		if w.play && len(legal) > 0 {
			err := w.conn.send(ctx, map[string]any{"type": "move", "id": fmt.Sprint("c", w.next), "ply": len(w.moves),
				"move": legal[w.rng.IntN(len(legal))]})
			w.next++
			if err != nil {
				return err
			}
		}
	}
}
