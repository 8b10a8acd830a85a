package cluster

import (
	"context"
	"sync"
	"time"

	"github.com/tabula-games/tabula/match"
)

// Start positions stay off the bus. A game from a position (Meta.
// StartPosition) may hide something in it — a Skyjo deal from a position
// holds every face-down card, the deck's order and the generator's state —
// so no event or answer a node sends on NATS carries it, nor the game's
// seed (wire.go's metaV1 has neither field): it says only that its game
// has a start position (metaV1.Start), and the node that receives it reads
// the position from PostgreSQL, once per game, for its own connections
// (which show the players only what game.View lets them see of it). An
// owner that takes a game over reads everything from PostgreSQL anyway.
// (A game created on another node, CreateElsewhere, goes with the position
// its creator gave, before any dealing: createV1.)

// startCache is the start positions of games from a position that this
// node read back from PostgreSQL. Positions never change.
type startCache struct {
	mu sync.Mutex
	m  map[string][]byte
}

// maxStarts bounds the cache; it starts afresh beyond.
const maxStarts = 4096

// startTimeout bounds the read of a game's start position.
const startTimeout = 5 * time.Second

// restore puts back the start position of m (a game whose position was
// hidden on the bus), read from PostgreSQL the first time. A position it
// cannot read is left out (and logged): the game then shows without its
// start, and resynchronising later reads it again.
func (n *Node) restore(ctx context.Context, m *match.Meta) {
	n.starts.mu.Lock()
	p, ok := n.starts.m[m.ID]
	n.starts.mu.Unlock()
	if !ok {
		ctx, cancel := context.WithTimeout(ctx, startTimeout)
		defer cancel()
		stored, err := n.cfg.Store.Game(ctx, m.ID)
		if err != nil {
			if n.ctx.Err() == nil {
				n.log.Warn("read a game's start position", "game", m.ID, "err", err)
			}
			return
		}
		p = stored.StartPosition
		n.starts.mu.Lock()
		if len(n.starts.m) >= maxStarts {
			n.starts.m = map[string][]byte{}
		}
		n.starts.m[m.ID] = p
		n.starts.mu.Unlock()
	}
	m.StartPosition = p
}
