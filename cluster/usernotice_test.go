package cluster

import (
	"testing"
	"time"
)

// TestUserNotice: a notice one node sends user 7 reaches the node that
// watches user 7's notices, not the sender (NoEcho: the sender has told
// its own connections), and not after the watch stops.
func TestUserNotice(t *testing.T) {
	e := newQuietEnv(t)
	a, b := e.start(), e.start()
	got := make(chan string, 10)
	stopA := a.n.WatchNotices(7, func(data []byte) { got <- "a:" + string(data) })
	defer stopA()
	stopB := b.n.WatchNotices(7, func(data []byte) { got <- "b:" + string(data) })
	if err := a.n.NoticeUser(7, []byte(`{"type":"notice"}`)); err != nil {
		t.Fatal(err)
	}
	if err := a.n.NoticeUser(8, []byte(`other`)); err != nil {
		t.Fatal(err)
	}
	select {
	case m := <-got:
		if m != `b:{"type":"notice"}` {
			t.Fatalf("heard %q, want node b to hear the notice", m)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("node b heard no notice within 5 s")
	}
	stopB()
	b.n.nc.Flush()
	a.n.NoticeUser(7, []byte(`late`))
	a.n.nc.Flush()
	select {
	case m := <-got:
		t.Fatalf("heard %q: the sender, another user's notice, or after stop", m)
	case <-time.After(300 * time.Millisecond):
	}
}
