package server_test

import (
	"bufio"
	"encoding/binary"
	"net"
	"net/http"
	"strings"
	"testing"
	"time"
)

// TestWSFrameOverLimitRefusedAtHeader: a frame whose header claims more
// than the message limit ends the connection as soon as the header is
// read, with status 1009, instead of after the limit's worth of payload
// (finding 6 of issue 16: 2^62 bytes claimed, refused only after 16 KiB).
func TestWSFrameOverLimitRefusedAtHeader(t *testing.T) {
	e := newEnv(t)
	a := e.guest()
	conn, err := net.Dial("tcp", strings.TrimPrefix(e.hs.URL, "http://"))
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	conn.SetDeadline(time.Now().Add(10 * time.Second))
	req := "GET /api/ws HTTP/1.1\r\nHost: " + strings.TrimPrefix(e.hs.URL, "http://") + "\r\n" +
		"Upgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Version: 13\r\n" +
		"Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nAuthorization: Bearer " + a.token + "\r\n\r\n"
	if _, err := conn.Write([]byte(req)); err != nil {
		t.Fatal(err)
	}
	br := bufio.NewReader(conn)
	resp, err := http.ReadResponse(br, nil)
	if err != nil {
		t.Fatal(err)
	}
	if resp.StatusCode != http.StatusSwitchingProtocols {
		t.Fatalf("handshake: %d", resp.StatusCode)
	}
	// FIN + text, masked, 64-bit length 2^62, a mask key — and no payload.
	hdr := []byte{0x81, 0x80 | 127}
	hdr = binary.BigEndian.AppendUint64(hdr, 1<<62)
	hdr = append(hdr, 1, 2, 3, 4)
	if _, err := conn.Write(hdr); err != nil {
		t.Fatal(err)
	}
	// The server answers with a close frame (status 1009) and hangs up,
	// having read nothing beyond the header.
	conn.SetReadDeadline(time.Now().Add(5 * time.Second))
	var got []byte
	buf := make([]byte, 512)
	for {
		n, err := br.Read(buf)
		got = append(got, buf[:n]...)
		if err != nil {
			if ne, ok := err.(net.Error); ok && ne.Timeout() {
				t.Fatalf("the connection still waits for the payload after 5 s (read %x)", got)
			}
			break
		}
	}
	// Skip data frames the server may have sent first (nothing is queued for
	// a fresh guest, but be tolerant), and find the close frame.
	for len(got) >= 2 {
		op, n := got[0]&0x0f, int(got[1]&0x7f)
		if n >= 126 || len(got) < 2+n {
			break
		}
		if op == 0x8 {
			if n < 2 || binary.BigEndian.Uint16(got[2:4]) != 1009 {
				t.Fatalf("close frame %x, want status 1009", got[:2+n])
			}
			return
		}
		got = got[2+n:]
	}
	t.Fatalf("no close frame with status 1009 before the connection ended: %x", got)
}
