package match_test

import (
	"context"
	"fmt"
	"math/rand/v2"
	"testing"

	_ "github.com/tabula-games/tabula/games/all"
	"github.com/tabula-games/tabula/match"
)

// discard is a Publisher with nobody listening.
type discard struct{}

func (discard) Publish(match.Event) {}

// BenchmarkMove is the owner's cost of one human move: checking it,
// committing it (to a journal in memory), and publishing its event with
// what every seat may see and the prompt for the next seat. Games are
// played with random legal moves, a new one when one ends.
func BenchmarkMove(b *testing.B) {
	for _, name := range []string{"sgolte", "skyjo"} {
		b.Run(name, func(b *testing.B) {
			n := newNode(b, func(c *match.Config) { c.Publisher = discard{} })
			rng := rand.New(rand.NewPCG(1, 2))
			ctx := context.Background()
			games, ply := 0, 0
			var id string
			var snap *match.Snapshot
			newGame := func() {
				games++
				id, ply = fmt.Sprint("b", games), 0
				_, err := n.reg.Create(ctx, alice, match.Meta{ID: id, Game: name,
					Seats: []match.Seat{{Kind: match.SeatHuman, UserID: alice.ID}, {Kind: match.SeatInvite, UserID: bob.ID}}})
				if err == nil {
					_, err = n.reg.Do(ctx, id, match.Command{Kind: match.CmdJoin, User: bob, Seat: -1})
				}
				if err == nil {
					snap, err = n.reg.Snapshot(ctx, id)
				}
				if err != nil {
					b.Fatal(err)
				}
			}
			newGame()
			b.ReportAllocs()
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				if snap.State.Outcome().Over() {
					b.StopTimer()
					newGame()
					b.StartTimer()
				}
				st := snap.State
				legal := st.Legal(nil)
				mv := legal[rng.IntN(len(legal))]
				who := []match.User{alice, bob}[st.ToMove()]
				if _, err := n.reg.Do(ctx, id, match.Command{Kind: match.CmdMove, User: who, Seat: -1, Ply: ply, Move: st.FormatMove(mv)}); err != nil {
					b.Fatal(err)
				}
				st.Play(mv)
				ply++
			}
		})
	}
}
