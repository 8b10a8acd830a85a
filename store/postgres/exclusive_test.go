package postgres_test

import (
	"context"
	"fmt"
	"math/rand/v2"
	"testing"
	"time"

	"github.com/tabula-games/tabula/store/postgres"
)

// TestExclusive: two stores on one database — two nodes of a cluster — run
// one fn of a key at a time: the second waits while the first holds the
// key, and enters once it returns; another key is not held up; a fn's
// error comes back, and the key is free after it.
func TestExclusive(t *testing.T) {
	schema := fmt.Sprintf("tabula_test_%d", rand.Uint64()>>1)
	adm := admin(t)
	if _, err := adm.Exec("CREATE SCHEMA " + schema); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { adm.Exec("DROP SCHEMA " + schema + " CASCADE") })
	ctx := context.Background()
	var nodes [2]*postgres.DB
	for i := range nodes {
		db, err := postgres.Open(ctx, baseURL()+"&search_path="+schema)
		if err != nil {
			t.Fatal(err)
		}
		defer db.Close()
		nodes[i] = db
	}
	a, b := nodes[0], nodes[1]
	key := fmt.Sprint("test.", rand.Uint64()) // advisory locks are the whole database's

	holding, release := make(chan struct{}), make(chan struct{})
	firstDone := make(chan error, 1)
	go func() {
		firstDone <- a.Exclusive(ctx, key, func() error {
			close(holding)
			<-release
			return nil
		})
	}()
	<-holding
	entered := make(chan time.Time, 1)
	secondDone := make(chan error, 1)
	go func() {
		secondDone <- b.Exclusive(ctx, key, func() error { entered <- time.Now(); return nil })
	}()
	// Another key at once, while the first is held.
	otherCtx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	if err := b.Exclusive(otherCtx, key+".other", func() error { return nil }); err != nil {
		t.Fatalf("another key while one is held: %v", err)
	}
	select {
	case <-entered:
		t.Fatal("the second node entered while the first held the key")
	case <-time.After(300 * time.Millisecond):
	}
	released := time.Now()
	close(release)
	if err := <-firstDone; err != nil {
		t.Fatal(err)
	}
	select {
	case at := <-entered:
		if at.Before(released) {
			t.Fatal("the second entered before the first let go")
		}
	case <-time.After(10 * time.Second):
		t.Fatal("the second node did not enter after the first let go")
	}
	if err := <-secondDone; err != nil {
		t.Fatal(err)
	}

	boom := fmt.Errorf("boom")
	if err := a.Exclusive(ctx, key, func() error { return boom }); err != boom {
		t.Fatalf("fn's error: %v", err)
	}
	if err := b.Exclusive(otherCtx, key, func() error { return nil }); err != nil {
		t.Fatalf("the key after a fn failed: %v", err)
	}
}
