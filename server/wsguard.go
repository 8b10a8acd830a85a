package server

import (
	"bufio"
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"sync/atomic"
)

// The WebSocket library enforces its read limit while it reads a frame's
// payload: a frame whose header claims 2^62 bytes is believed until the
// limit's worth has arrived. frameGuard reads the frame headers as they
// come off the connection and refuses an oversized data frame at its
// header, before a byte of the payload is awaited.

// guardedWriter hands the WebSocket library a hijacked connection whose
// reads pass through a frameGuard.
type guardedWriter struct {
	http.ResponseWriter
	limit   int64
	tripped *atomic.Bool
}

// Hijack wraps the connection. Bytes the HTTP server has already buffered
// (a client may send frames right behind its handshake) go through the
// guard as well.
func (g guardedWriter) Hijack() (net.Conn, *bufio.ReadWriter, error) {
	c, brw, err := http.NewResponseController(g.ResponseWriter).Hijack()
	if err != nil {
		return nil, nil, err
	}
	buffered, _ := brw.Reader.Peek(brw.Reader.Buffered())
	early := bytes.NewReader(append([]byte(nil), buffered...))
	fg := &frameGuard{Conn: c, r: io.MultiReader(early, c), limit: g.limit, tripped: g.tripped}
	return fg, bufio.NewReadWriter(bufio.NewReader(fg), brw.Writer), nil
}

// errFrameTooBig ends a connection whose client announced a data frame
// longer than the message limit.
var errFrameTooBig = errors.New("websocket frame longer than the message limit")

// frameGuard tracks RFC 6455 framing on the client-to-server stream: a
// header (2 bytes, 0, 2 or 8 bytes of extended length, 4 bytes of mask
// key), then the payload, which it only counts.
type frameGuard struct {
	net.Conn
	r       io.Reader
	limit   int64
	tripped *atomic.Bool

	hdr     [14]byte
	got     int   // header bytes seen
	need    int   // header length, once the second byte is known
	payload int64 // payload bytes still to come
	err     error
}

func (f *frameGuard) Read(p []byte) (int, error) {
	if f.err != nil {
		return 0, f.err
	}
	n, err := f.r.Read(p)
	if ferr := f.scan(p[:n]); ferr != nil {
		f.err = ferr
		f.tripped.Store(true)
		return 0, ferr
	}
	return n, err
}

// scan advances the framing state over b.
func (f *frameGuard) scan(b []byte) error {
	for len(b) > 0 {
		if f.payload > 0 {
			k := int64(len(b))
			if k > f.payload {
				k = f.payload
			}
			f.payload -= k
			b = b[k:]
			continue
		}
		f.hdr[f.got] = b[0]
		f.got++
		b = b[1:]
		if f.got == 2 {
			f.need = 2
			if f.hdr[1]&0x80 != 0 {
				f.need += 4
			}
			switch f.hdr[1] & 0x7f {
			case 126:
				f.need += 2
			case 127:
				f.need += 8
			}
		}
		if f.got < 2 || f.got < f.need {
			continue
		}
		var length int64
		switch l := f.hdr[1] & 0x7f; l {
		case 126:
			length = int64(binary.BigEndian.Uint16(f.hdr[2:4]))
		case 127:
			u := binary.BigEndian.Uint64(f.hdr[2:10])
			if u > 1<<62 {
				u = 1 << 62 // also covers a set top bit, which the library refuses anyway
			}
			length = int64(u)
		default:
			length = int64(l)
		}
		// Control frames (opcode 8 and up) are at most 125 bytes, which
		// the library checks; data frames are bounded by the message limit.
		if f.hdr[0]&0x0f < 8 && length > f.limit {
			return fmt.Errorf("%w: %d bytes announced, limit %d", errFrameTooBig, length, f.limit)
		}
		f.payload = length
		f.got, f.need = 0, 0
	}
	return nil
}
