package server

import (
	"context"
	"testing"
	"time"

	"github.com/tabula-games/tabula/analysis"
	"github.com/tabula-games/tabula/game"
	"github.com/tabula-games/tabula/match"
)

// TestBotsAreUrgent: while the node's bots think on every core, no slice of
// analysis starts; when they are done, one does.
func TestBotsAreUrgent(t *testing.T) {
	pool := analysis.NewPool(2, 1, 4)
	bots := urgentBots{match.NewBotSemaphore(2), pool}
	thinking, finish := make(chan struct{}, 2), make(chan struct{})
	for i := 0; i < 2; i++ {
		go bots.Think(context.Background(), match.BotTask{}, func(context.Context) (game.Move, error) {
			thinking <- struct{}{}
			<-finish
			return 0, nil
		})
	}
	<-thinking
	<-thinking
	ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
	defer cancel()
	if _, err := pool.Slice(ctx); err == nil {
		t.Fatal("a slice of analysis started while bots thought on both cores")
	}
	close(finish)
	ctx2, cancel2 := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel2()
	done, err := pool.Slice(ctx2)
	if err != nil {
		t.Fatalf("no slice after the bots were done: %v", err)
	}
	done()
}
