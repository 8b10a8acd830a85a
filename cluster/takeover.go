package cluster

import (
	"context"
	"errors"
	"math/rand/v2"
	"time"

	"github.com/tabula-games/tabula/store"
)

// Taking games over: orphans (games whose owner's lease expired) are
// claimed, a fair share per live node, and adopted into this node's
// registry; now and then, and whenever the lease was found lapsed, the
// games held here are reconciled with the ones the database says this
// node owns.

// reconcileEvery is how many scans pass between two reconciliations.
const reconcileEvery = 10

// maxOrphans bounds the orphans one scan reads.
const maxOrphans = 500

func (n *Node) takeoverLoop() {
	defer n.wg.Done()
	t := time.NewTicker(n.cfg.Scan)
	defer t.Stop()
	missing := map[string]bool{}
	for i := 0; ; i++ {
		select {
		case <-n.ctx.Done():
			return
		case <-n.reconcile:
			missing = n.reconcileOwned(missing)
			continue
		case <-t.C:
		}
		n.scan()
		if i%reconcileEvery == reconcileEvery-1 {
			missing = n.reconcileOwned(missing)
		}
	}
}

// scan claims and adopts this node's share of the orphans. A node that
// cannot serve them (NATS down, lease not renewed) claims nothing; one
// whose bot budget is full claims no game with a bot seat.
func (n *Node) scan() {
	defer n.scans.Add(1)
	if n.Healthy() != nil {
		return
	}
	ctx, cancel := context.WithTimeout(n.ctx, 10*time.Second)
	defer cancel()
	orphans, err := n.cfg.Store.Orphans(ctx, maxOrphans)
	if err != nil || len(orphans) == 0 {
		if err != nil && n.ctx.Err() == nil {
			n.log.Warn("look for orphaned games", "err", err)
		}
		return
	}
	live, err := n.cfg.Store.LiveNodes(ctx)
	if err != nil {
		return
	}
	// A fair share, rounded up, in a random order: the live nodes scan at
	// about the same time and mostly claim different games.
	share := (len(orphans) + max(len(live), 1) - 1) / max(len(live), 1)
	rand.Shuffle(len(orphans), func(i, j int) { orphans[i], orphans[j] = orphans[j], orphans[i] })
	full := n.cfg.BotsFull()
	claimed := 0
	for _, o := range orphans {
		if claimed >= share || n.ctx.Err() != nil {
			break
		}
		if o.Bots && full {
			continue
		}
		epoch, err := n.cfg.Store.Claim(ctx, o, n.id)
		if errors.Is(err, store.ErrConflict) {
			continue // another node was quicker, or the owner came back
		}
		if err != nil {
			n.log.Warn("claim a game", "game", o.GameID, "err", err)
			continue
		}
		claimed++
		// An owner still held here for the game is stale: this node lost
		// the game and has won it back, or the claim's own write is one
		// it has not seen. It stops before the new epoch is fenced in,
		// so that it can neither write with the new epoch nor pass
		// Holds; the game is loaded afresh from the database.
		n.reg.Release(o.GameID)
		n.fences.set(o.GameID, epoch)
		n.owners.forget(o.GameID)
		down := time.Duration(0)
		if !o.DownSince.IsZero() {
			down = time.Since(o.DownSince)
		}
		n.log.Info("game taken over", "game", o.GameID, "from", o.Owner, "epoch", epoch, "owner_silent", down.Round(time.Millisecond))
		n.adopt(ctx, o.GameID)
		if o.Bots {
			full = n.cfg.BotsFull()
		}
	}
}

// adopt starts the owner of a game this node has just claimed. One that
// cannot start now stays this node's, and the next reconciliation tries
// again.
func (n *Node) adopt(ctx context.Context, id string) {
	m, err := n.cfg.Store.Game(ctx, id)
	if err == nil {
		_, err = n.reg.Adopt(ctx, m)
	}
	if err != nil {
		n.log.Error("adopt game", "game", id, "err", err)
	}
}

// reconcileOwned compares the games held here with the ones the database
// says this node owns: an owner here whose game another node has claimed
// is released (its picture of the game may be stale; its writes would be
// refused anyway), and a game owned here that has no owner running (its
// adoption failed) is adopted again once it has been missing for two
// reconciliations in a row — the first may have caught a game being
// created. It returns the games missing this time.
func (n *Node) reconcileOwned(missingBefore map[string]bool) map[string]bool {
	ctx, cancel := context.WithTimeout(n.ctx, 10*time.Second)
	defer cancel()
	// The fences first: a game created after this has its fence set after
	// the query below began, and is left alone.
	held := n.fences.snapshot()
	owned, err := n.cfg.Store.Owned(ctx, n.id)
	if err != nil {
		if n.ctx.Err() == nil {
			n.log.Warn("reconcile owned games", "err", err)
		}
		return missingBefore
	}
	for id, epoch := range held {
		if owned[id] == epoch {
			continue
		}
		if n.reg.Get(id) != nil {
			n.log.Info("releasing a game this node no longer owns", "game", id)
			n.reg.Release(id)
		}
		// Finished here, or lost: no fence to keep.
		n.fences.drop(id)
	}
	missing := map[string]bool{}
	for id, epoch := range owned {
		if held[id] != epoch || n.reg.Get(id) != nil {
			continue
		}
		if missingBefore[id] {
			n.adopt(ctx, id)
			continue
		}
		missing[id] = true
	}
	return missing
}
