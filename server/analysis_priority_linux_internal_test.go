package server

import (
	"context"
	"path/filepath"
	"syscall"
	"testing"

	"github.com/tabula-games/tabula/store"
	"github.com/tabula-games/tabula/store/sqlite"
)

// TestAnalysisThinksAtLowPriority (issue 16, finding 2): an analysis or
// review job runs on a thread of lower priority than the server's others,
// as bot moves do, so that the kernel serves people's requests first.
func TestAnalysisThinksAtLowPriority(t *testing.T) {
	raw, err := syscall.Getpriority(syscall.PRIO_PROCESS, 0)
	if err != nil {
		t.Fatal(err)
	}
	base := 20 - raw
	if base >= 19 {
		t.Skip("the process already runs at the lowest priority")
	}
	st, err := sqlite.Open(context.Background(), filepath.Join(t.TempDir(), "t.db"), sqlite.Options{NoSync: true})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	s, err := New(Config{Store: st})
	if err != nil {
		t.Fatal(err)
	}
	defer s.games.StopAll()
	u := &store.User{Name: "ann"}
	if err := st.CreateUser(context.Background(), u); err != nil {
		t.Fatal(err)
	}
	nices := make(chan int, 1)
	j, err := s.startJob(u, "analysis", 0, true, func(ctx context.Context, j *job) error {
		raw, _ := syscall.Getpriority(syscall.PRIO_PROCESS, syscall.Gettid())
		nices <- 20 - raw
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	<-j.finished
	if got := <-nices; got <= base {
		t.Fatalf("the job ran at nice %d, the server's %d", got, base)
	}
}
