package e2e

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestClusterRetriesAroundFailover (issue 23, findings 2 and 3, around a
// failover): a command is sent to a game through a node that does not own
// it, and the owner is killed (kill -9, or SIGTERM) a moment later — before
// the command reaches it, while it commits it, or after it committed and
// before its answer got out — so that the forwarding node hears nothing and
// sends it again to the game's next owner. Whichever moment the kill hit,
// the command is applied once and answered as applied: a move (answered
// `ack`, never `not_your_turn` or `stale_ply`; and sent again by its client
// after the opponent has moved, the first answer again), a resignation
// (never `game_over`), an abort, a join (never `conflict`). Each round
// checks PostgreSQL: what was answered as applied is stored, and nothing
// refused was applied.
//
// The client's copy of a command answered by an owner that has died since
// (sent again on the same connection, with the same message id, as
// docs/api.md allows) must get the first answer too: the connection marks
// a message id it sent before as a retry, so the next owner, which has no
// record of the first answer, judges the copy by what is stored (a move's
// copy after the opponent's move is answered as applied, not
// not_your_turn; a resignation's copy not game_over; checked with
// t.Errorf, so that every round runs and reports).
//
// The kill's moment is the experiment: each round waits a different few
// milliseconds after sending before it kills (not a wait for a state).
// With -short one round of each kind; without, each kind at six moments,
// alternately kill -9 and SIGTERM.
func TestClusterRetriesAroundFailover(t *testing.T) {
	s := newSite(t, 3)
	ctx, cancel := context.WithTimeout(context.Background(), 15*time.Minute)
	defer cancel()
	kinds := []string{"move", "resign", "join", "abort"}
	delays := []time.Duration{0, 2 * time.Millisecond, 5 * time.Millisecond, 8 * time.Millisecond, 12 * time.Millisecond, 20 * time.Millisecond}
	if testing.Short() {
		delays = []time.Duration{2 * time.Millisecond}
	}
	opts := map[string]string{"players": "2", "target": "10000"}
	var report, games []string
	round := 0
	for i, d := range delays {
		for j, kind := range kinds {
			round++
			sig := []syscall.Signal{syscall.SIGKILL, syscall.SIGTERM}[(i+j)%2]
			t.Run(fmt.Sprintf("%s-%v-%s", kind, d, strings.ToLower(sig.String()[:4])), func(t *testing.T) {
				alice, bob := s.guest(), s.guest()
				id := s.create(alice, 0, map[string]any{"game": "skyjo", "options": opts,
					"seats": []map[string]string{{"kind": "me"}, {"kind": "invite", "user": bob.name}}})
				games = append(games, id)
				a, b := s.seatAt(ctx, alice, id, "node2"), s.seatAt(ctx, bob, id, "node3")
				defer a.close()
				defer b.close()
				if kind != "join" && kind != "abort" {
					if _, err := bob.callAt(s.nodeURL(2), "POST", "/api/games/"+id+"/join", struct{}{}, nil); err != nil {
						t.Fatal(err)
					}
					waitLive(ctx, t, a, b)
					if err := playPlies(ctx, []*session{a, b}, round%3); err != nil {
						t.Fatal(err)
					}
				}
				// The command, through node2 (node3 for bob's join); node1,
				// the owner, dies d after it is sent.
				var cmd map[string]any
				ply := -1
				switch kind {
				case "move":
					for {
						p, legal, _, _ := a.state()
						if len(legal) > 0 {
							ply, cmd = p, map[string]any{"type": "move", "ply": p, "move": legal[0]}
							break
						}
						if err := playPlies(ctx, []*session{a, b}, 1); err != nil {
							t.Fatal(err)
						}
					}
				case "resign", "abort":
					cmd = map[string]any{"type": kind}
				}
				joined := make(chan error, 1)
				var first roomMsg
				var err error
				if kind == "join" {
					go func() {
						_, err := bob.callAt(s.nodeURL(2), "POST", "/api/games/"+id+"/join", struct{}{}, nil)
						joined <- err
					}()
				} else if _, err = a.send(ctx, cmd); err != nil {
					t.Fatal(err)
				}
				<-time.After(d)
				start := time.Now()
				if sig == syscall.SIGKILL {
					s.nodes[0].kill()
				} else {
					s.nodes[0].stop()
				}
				if kind == "join" {
					err = <-joined
				} else {
					actx, cancel := context.WithTimeout(ctx, time.Minute)
					first, err = a.answer(actx, cmd["id"].(string), 1)
					cancel()
				}
				took := time.Since(start)
				answer := first.Type + " " + first.code()
				if kind == "join" {
					answer = fmt.Sprint(err)
				}
				report = append(report, fmt.Sprintf("%s %v %v: %s in %v", kind, d, sig, strings.TrimSpace(answer), took.Round(time.Millisecond)))
				// What the database holds.
				r := s.result(id)
				switch kind {
				case "move":
					ms := s.storedMoves(id)
					applied := ply < len(ms) && ms[ply].Seat == 0 && ms[ply].Text == cmd["move"]
					if err != nil || first.Type != "ack" || !applied {
						t.Fatalf("the move at ply %d: answered %s %+v (%v); stored there: %v", ply, first.Type, first.Error, err, applied)
					}
					// Bob moves after it (at the next owner), then alice's
					// client sends the move again: the first answer.
					for {
						ms := s.storedMoves(id)
						if slices.ContainsFunc(ms[ply+1:], func(m storedMove) bool { return m.Seat == 1 }) {
							break
						}
						if err := playPlies(ctx, []*session{a, b}, 1); err != nil {
							t.Fatal(err)
						}
					}
					if _, err := a.send(ctx, cmd); err != nil {
						t.Fatal(err)
					}
					again, err := a.answer(ctx, cmd["id"].(string), 2)
					if err != nil || again.Type != "ack" || *again.Ply != ply {
						t.Errorf("the move sent again after bob's: %s %+v (%v), want ack at %d", again.Type, again.Error, err, ply)
					}
				case "resign":
					if err != nil || first.Type != "ack" || r.status != "finished" || r.Reason != "resign" || !slices.Equal(r.Winners, []int{1}) {
						t.Fatalf("the resignation: answered %s %+v (%v); stored %+v", first.Type, first.Error, err, r)
					}
					if _, err := a.send(ctx, cmd); err != nil {
						t.Fatal(err)
					}
					if again, err := a.answer(ctx, cmd["id"].(string), 2); err != nil || again.Type != "ack" {
						t.Errorf("the resignation sent again: %s %+v (%v), want the first answer (ack)", again.Type, again.Error, err)
					}
				case "abort":
					if err != nil || first.Type != "ack" || r.status != "aborted" {
						t.Fatalf("the abort: answered %s %+v (%v); stored %+v", first.Type, first.Error, err, r)
					}
				case "join":
					if err != nil || r.status != "live" || s.seatOf(id, bob) != 1 {
						t.Fatalf("the join: answered %v; stored %+v", err, r)
					}
				}
			})
			select {
			case <-s.nodes[0].exited:
				s.startNode(0)
			default:
			}
		}
	}
	s.consistent(games)
	t.Logf("%d rounds: %s", len(report), strings.Join(report, "; "))
	s.cleanLogs()
}
