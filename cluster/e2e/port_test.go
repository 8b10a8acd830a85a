package e2e

import (
	"fmt"
	"net"
	"os"
	"testing"
)

// TestNodePortsNotEphemeral: the ports the nodes listen on lie outside the
// kernel's ephemeral range, so that no outgoing connection can hold one
// while its node is down. The first half shows why: a port an outgoing
// connection holds cannot be listened on, even with SO_REUSEADDR (as Go
// listens).
func TestNodePortsNotEphemeral(t *testing.T) {
	srv, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Close()
	c, err := net.Dial("tcp", srv.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	held := c.LocalAddr().(*net.TCPAddr).Port
	if ln, err := net.Listen("tcp", fmt.Sprint("127.0.0.1:", held)); err == nil {
		ln.Close()
		t.Logf("this kernel lets a server listen on port %d, an outgoing connection's own", held)
	}

	var lo, hi int
	b, err := os.ReadFile("/proc/sys/net/ipv4/ip_local_port_range")
	if err != nil {
		t.Skip("no /proc/sys/net/ipv4/ip_local_port_range: not Linux")
	}
	if _, err := fmt.Sscan(string(b), &lo, &hi); err != nil {
		t.Fatal(err)
	}
	for range 200 {
		if p := freePort(t); p >= lo && p <= hi {
			t.Fatalf("freePort gave %d, in the ephemeral range %d-%d", p, lo, hi)
		}
	}
}
