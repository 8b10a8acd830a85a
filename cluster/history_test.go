package cluster

import (
	"bytes"
	"fmt"
	"testing"
	"time"
)

// TestHistoryBounds: the publisher keeps a game's last historyLen events,
// no more than historyBytes for all games (the games that published least
// recently lose theirs first), and forgets a game idle for historyIdle —
// after which it numbers the game in a new stream.
func TestHistoryBounds(t *testing.T) {
	now := time.Date(2026, 12, 1, 20, 0, 0, 0, time.UTC)
	h := newHistory()
	h.now = func() time.Time { return now }
	publish := func(game string, size int) (uint64, uint64) {
		s, n := h.number(game)
		h.keep(game, n, bytes.Repeat([]byte{'x'}, size))
		return s, n
	}
	var stream uint64
	for i := 0; i < 100; i++ {
		stream, _ = publish("g", 10)
	}
	if _, ok := h.get("g", stream, 36, 40); ok {
		t.Fatal("event 36 of 100 is still kept")
	}
	if evs, ok := h.get("g", stream, 37, 100); !ok || len(evs) != historyLen {
		t.Fatalf("the last %d events: %d, %v", historyLen, len(evs), ok)
	}
	if _, ok := h.get("g", stream+1, 90, 92); ok {
		t.Fatal("events of another stream")
	}
	if _, ok := h.get("g", stream, 99, 101); ok {
		t.Fatal("an event not yet published")
	}

	// Bytes: 40 games of 64 events of 16 KiB would be 40 MiB.
	for i := 0; i < 40; i++ {
		now = now.Add(time.Millisecond)
		for j := 0; j < historyLen; j++ {
			publish(fmt.Sprint("big", i), 16<<10)
		}
	}
	if h.bytes > historyBytes {
		t.Fatalf("%d bytes kept, more than %d", h.bytes, historyBytes)
	}
	s0, _ := h.number("big0")
	if _, ok := h.get("big0", s0, 1, 1); ok {
		t.Fatal("the least recent game kept its events")
	}
	s39, n39 := h.number("big39")
	if _, ok := h.get("big39", s39, n39-historyLen, n39-1); !ok {
		t.Fatal("the most recent game lost its events")
	}
	total := 0
	for _, r := range h.rings {
		for _, e := range r.evs {
			total += len(e)
		}
	}
	if total != h.bytes {
		t.Fatalf("%d bytes kept, %d counted", total, h.bytes)
	}

	// Idle.
	now = now.Add(historyIdle + time.Minute)
	if s, n := h.number("g"); s == stream || n != 1 {
		t.Fatalf("a game idle for %v: stream %d (was %d), event %d", historyIdle, s, stream, n)
	}
	if len(h.rings) != 1 {
		t.Fatalf("%d games numbered after the idle ones were forgotten", len(h.rings))
	}
}
