package server

import (
	"context"
	"testing"
	"time"

	"github.com/tabula-games/tabula/store"
)

// PresenceSync has each server write its presence now (a beat), then
// forget its copy of the online list, so that the next read is the
// store's — what the nodes agree on within a beat and a cache period.
func PresenceSync(ss ...*Server) {
	for _, s := range ss {
		s.presence.flush(context.Background(), true)
	}
	for _, s := range ss {
		s.presence.board.listMu.Lock()
		s.presence.board.list = nil
		s.presence.board.listMu.Unlock()
	}
}

// PresenceExpiry is how long a node's word that a user is online lasts
// unrepeated.
const PresenceExpiry = presenceExpiry

// TestWantedRows: a node's rows are each user online here, and each game
// page open here by a player, at most gamesPerUser a user; a page whose
// game has no owner any more (quiet) is not one.
func TestWantedRows(t *testing.T) {
	s := &Server{now: time.Now}
	p := newPresence(s)
	p.socket(7, 1)
	p.saw(8)
	for i := 0; i < gamesPerUser+3; i++ {
		p.pages[presenceKey{game: string(rune('a' + i)), uid: 7}] = &pageCount{n: 1}
	}
	p.pages[presenceKey{game: "done", uid: 8}] = &pageCount{n: 1, quiet: true}
	w := p.wanted()
	games := 0
	for e := range w {
		if e.UserID == 7 && e.GameID != "" {
			games++
		}
	}
	if games != gamesPerUser || !w[store.PresenceEntry{UserID: 7}] || !w[store.PresenceEntry{UserID: 8}] || w[store.PresenceEntry{UserID: 8, GameID: "done"}] {
		t.Fatalf("wanted rows %v: %d games of user 7 (want %d), users 7 and 8 idle rows, no quiet page", w, games, gamesPerUser)
	}
}
