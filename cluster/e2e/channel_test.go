package e2e

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"time"

	"github.com/coder/websocket"
)

// A game channel through the proxy, on the node the test asks for.

// message is any server message of the game channel, as far as these
// tests read it.
type message struct {
	Type   string   `json:"type"`
	ID     string   `json:"id"`
	Seq    int64    `json:"seq"`
	N      int64    `json:"n"` // a room event's number (offer, chat, presence)
	Ply    *int     `json:"ply"`
	Seat   int      `json:"seat"`
	Move   string   `json:"move"`
	ToMove int      `json:"toMove"`
	Legal  []string `json:"legal"`
	Moves  []struct {
		Ply  int    `json:"ply"`
		Seat int    `json:"seat"`
		Move string `json:"move"`
	} `json:"moves"`
	Game struct {
		ID     string          `json:"id"`
		Status string          `json:"status"`
		ToMove int             `json:"toMove"`
		Ply    int             `json:"ply"`
		Result json.RawMessage `json:"result"`
	} `json:"game"`
	Room *struct {
		N int64 `json:"n"`
	} `json:"room"`
	Error *struct {
		Code    string `json:"code"`
		Message string `json:"message"`
	} `json:"error"`
}

// conn is one WebSocket connection and the node that serves it.
type conn struct {
	ws   *websocket.Conn
	node string
}

// dial opens the game channel of game id through the proxy. With node
// set it dials again until the proxy puts it on that node (the proxy
// names the node in X-Tabula-Node), holding the connections that landed
// elsewhere open meanwhile: the proxy sends a new connection to the node
// with the fewest.
func (c *client) dial(ctx context.Context, id, node string) (*conn, error) {
	var elsewhere []*websocket.Conn
	defer func() {
		for _, ws := range elsewhere {
			ws.Close(websocket.StatusNormalClosure, "")
		}
	}()
	h := http.Header{}
	if c.token != "" {
		h.Set("Authorization", "Bearer "+c.token)
	}
	hc := &http.Client{Transport: &http.Transport{TLSClientConfig: c.s.tlsConf}}
	url := "wss" + strings.TrimPrefix(c.s.https, "https") + "/api/games/" + id + "/ws"
	for try := 0; try < 60; try++ {
		dctx, cancel := context.WithTimeout(ctx, 10*time.Second)
		ws, resp, err := websocket.Dial(dctx, url, &websocket.DialOptions{HTTPClient: hc, HTTPHeader: h})
		cancel()
		if err != nil {
			if ctx.Err() != nil {
				return nil, err
			}
			time.Sleep(100 * time.Millisecond)
			continue
		}
		ws.SetReadLimit(1 << 20)
		got := resp.Header.Get("X-Tabula-Node")
		if node == "" || got == node {
			return &conn{ws: ws, node: got}, nil
		}
		elsewhere = append(elsewhere, ws)
	}
	return nil, fmt.Errorf("could not reach %s through the proxy", node)
}

func (cn *conn) read(ctx context.Context) (message, error) {
	var m message
	_, data, err := cn.ws.Read(ctx)
	if err != nil {
		return m, err
	}
	return m, json.Unmarshal(data, &m)
}

func (cn *conn) send(ctx context.Context, v any) error {
	data, _ := json.Marshal(v)
	return cn.ws.Write(ctx, websocket.MessageText, data)
}

func (cn *conn) close() { cn.ws.Close(websocket.StatusNormalClosure, "") }
