package server_test

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"math/rand/v2"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/tabula-games/tabula/server"
	"github.com/tabula-games/tabula/store/sqlite"
)

const crashChildEnv = "TABULA_CRASH_CHILD_DB"

// TestCrashChild is the server process of TestCrash: it runs only when
// TestCrash starts this test binary again with the database path in the
// environment, serves until it is killed, and never returns.
func TestCrashChild(t *testing.T) {
	path := os.Getenv(crashChildEnv)
	if path == "" {
		t.Skip("run by TestCrash only")
	}
	// The real durability settings: synchronous=FULL.
	db, err := sqlite.Open(context.Background(), path, sqlite.Options{})
	if err != nil {
		fmt.Println("ERROR", err)
		os.Exit(1)
	}
	srv, err := server.New(server.Config{Store: db, Logger: slog.New(slog.NewTextHandler(io.Discard, nil)),
		PasswordCost: server.PasswordCost{MemoryKiB: 64, Time: 1}, BotDelay: 5 * time.Millisecond})
	if err != nil {
		fmt.Println("ERROR", err)
		os.Exit(1)
	}
	if err := srv.Start(context.Background()); err != nil {
		fmt.Println("ERROR", err)
		os.Exit(1)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		fmt.Println("ERROR", err)
		os.Exit(1)
	}
	fmt.Println("ADDR", ln.Addr().String())
	http.Serve(ln, srv.Handler())
	os.Exit(0)
}

type child struct {
	cmd  *exec.Cmd
	base string
}

func startChild(t *testing.T, path string) *child {
	t.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^TestCrashChild$", "-test.v=false")
	cmd.Env = append(os.Environ(), crashChildEnv+"="+path)
	cmd.Stderr = os.Stderr
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	lines := bufio.NewScanner(out)
	addr := make(chan string, 1)
	go func() {
		for lines.Scan() {
			if a, ok := strings.CutPrefix(lines.Text(), "ADDR "); ok {
				addr <- a
			}
		}
	}()
	select {
	case a := <-addr:
		return &child{cmd: cmd, base: "http://" + a}
	case <-time.After(30 * time.Second):
		cmd.Process.Kill()
		t.Fatal("child server did not start")
	}
	return nil
}

func (c *child) kill() {
	c.cmd.Process.Signal(syscall.SIGKILL)
	c.cmd.Wait()
}

// crashClient talks to the child over HTTP with one user's token.
type crashClient struct {
	base, token string
}

func (c *crashClient) post(path string, body any) (int, []byte, error) {
	data, _ := json.Marshal(body)
	req, _ := http.NewRequest("POST", c.base+path, strings.NewReader(string(data)))
	req.Header.Set("Content-Type", "application/json")
	if c.token != "" {
		req.Header.Set("Authorization", "Bearer "+c.token)
	}
	cl := http.Client{Timeout: 10 * time.Second}
	resp, err := cl.Do(req)
	if err != nil {
		return 0, nil, err
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	return resp.StatusCode, b, err
}

func (c *crashClient) get(path string, out any) error {
	cl := http.Client{Timeout: 10 * time.Second}
	resp, err := cl.Get(c.base + path)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	if resp.StatusCode != 200 {
		b, _ := io.ReadAll(resp.Body)
		return fmt.Errorf("GET %s: %d %s", path, resp.StatusCode, b)
	}
	return json.NewDecoder(resp.Body).Decode(out)
}

// TestCrash: the server runs as a child process on a real SQLite file and
// is killed with SIGKILL at random moments while clients play; after each
// restart every acknowledged move is there and play continues.
func TestCrash(t *testing.T) {
	kills, games := 8, 4
	if testing.Short() {
		kills, games = 3, 2
	}
	path := filepath.Join(t.TempDir(), "crash.db")
	rng := rand.New(rand.NewPCG(1, 2))
	ch := startChild(t, path)
	defer func() { ch.kill() }()

	// Users and games, set up before the first kill.
	users := make([]*crashClient, 2)
	for i := range users {
		users[i] = &crashClient{base: ch.base}
		status, body, err := users[i].post("/api/users", map[string]string{"name": fmt.Sprintf("player%d", i), "password": "crash-test password"})
		if err != nil || status != http.StatusCreated {
			t.Fatalf("register: %d %s %v", status, body, err)
		}
		var r struct{ Token string }
		json.Unmarshal(body, &r)
		users[i].token = r.Token
	}
	var ids []string
	for g := 0; g < games; g++ {
		seats := []map[string]string{{"kind": "me"}, {"kind": "invite", "user": "player1"}}
		if g == 0 {
			seats[1] = map[string]string{"kind": "bot", "level": "random"}
		}
		status, body, err := users[0].post("/api/games", map[string]any{"game": "tnim", "options": map[string]string{"stones": "2000"}, "seats": seats})
		if err != nil || status != http.StatusCreated {
			t.Fatalf("create: %d %s %v", status, body, err)
		}
		var r struct{ Game summary }
		json.Unmarshal(body, &r)
		if g > 0 {
			if status, body, _ := users[1].post("/api/games/"+r.Game.ID+"/join", nil); status != 200 {
				t.Fatalf("join: %d %s", status, body)
			}
		}
		ids = append(ids, r.Game.ID)
	}

	// acked[g][ply] is the text of every move the server acknowledged.
	acked := make([]map[int]string, games)
	for g := range acked {
		acked[g] = map[int]string{}
	}
	var mu sync.Mutex

	// play drives one game until stop: whoever is to move posts a move
	// chosen from the ply, and the answer is recorded if it is a 200.
	play := func(g int, stop <-chan struct{}) {
		for {
			select {
			case <-stop:
				return
			default:
			}
			var cur struct {
				Game  summary
				Moves []moveJSON
			}
			if err := (&crashClient{base: users[0].base}).get("/api/games/"+ids[g], &cur); err != nil {
				return // the server is gone
			}
			if cur.Game.Status != "live" {
				return
			}
			seat := cur.Game.ToMove
			if seat < 0 || (g == 0 && seat == 1) {
				time.Sleep(2 * time.Millisecond) // the bot's turn
				continue
			}
			ply := len(cur.Moves)
			move := fmt.Sprint(1 + ply%2)
			status, _, err := users[seat].post("/api/games/"+ids[g]+"/moves", map[string]any{"ply": ply, "move": move})
			if err != nil {
				return
			}
			if status == http.StatusOK {
				mu.Lock()
				acked[g][ply] = move
				mu.Unlock()
			}
		}
	}

	for k := 0; k <= kills; k++ {
		stop := make(chan struct{})
		var wg sync.WaitGroup
		for g := 0; g < games; g++ {
			wg.Add(1)
			go func() { defer wg.Done(); play(g, stop) }()
		}
		time.Sleep(time.Duration(50+rng.IntN(400)) * time.Millisecond)
		if k < kills {
			ch.kill() // mid-flight: requests are cut off wherever they are
		} else {
			close(stop)
		}
		wg.Wait()
		if k < kills {
			ch = startChild(t, path)
			for _, u := range users {
				u.base = ch.base
			}
		}
		// Every acknowledged move survived, in its place.
		total := 0
		for g := 0; g < games; g++ {
			var cur struct {
				Game  summary
				Moves []moveJSON
			}
			if err := (&crashClient{base: ch.base}).get("/api/games/"+ids[g], &cur); err != nil {
				t.Fatal(err)
			}
			mu.Lock()
			for ply, text := range acked[g] {
				if ply >= len(cur.Moves) || cur.Moves[ply].Move != text {
					t.Fatalf("round %d game %d: acknowledged move %d %q lost (server has %d moves)", k, g, ply, text, len(cur.Moves))
				}
			}
			total += len(acked[g])
			mu.Unlock()
			if cur.Game.Status != "live" {
				t.Fatalf("game %d is %s after restart %d", g, cur.Game.Status, k)
			}
		}
		t.Logf("round %d: %d acknowledged moves so far, all present", k, total)
	}
	// The bot game still plays after the last restart: two more moves,
	// one of them the bot's. Polled up to a deadline rather than for a
	// fixed time, so a loaded machine slows the test instead of failing it.
	var before struct{ Moves []moveJSON }
	(&crashClient{base: ch.base}).get("/api/games/"+ids[0], &before)
	deadline := time.Now().Add(20 * time.Second)
	for {
		var cur struct {
			Game  summary
			Moves []moveJSON
		}
		if err := (&crashClient{base: ch.base}).get("/api/games/"+ids[0], &cur); err != nil {
			t.Fatal(err)
		}
		if len(cur.Moves) >= len(before.Moves)+2 {
			break
		}
		if cur.Game.Status != "live" {
			t.Fatalf("the bot game ended as %s after %d moves", cur.Game.Status, len(cur.Moves))
		}
		if time.Now().After(deadline) {
			t.Fatalf("the bot game did not continue within 20s: %d → %d moves", len(before.Moves), len(cur.Moves))
		}
		if cur.Game.ToMove == 0 {
			users[0].post("/api/games/"+ids[0]+"/moves", map[string]any{"ply": len(cur.Moves), "move": "1"})
		}
		time.Sleep(20 * time.Millisecond)
	}
}
