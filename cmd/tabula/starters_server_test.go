package main

import (
	"encoding/json"
	"fmt"
	"maps"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"syscall"
	"testing"
	"time"

	"github.com/tabula-games/tabula/game"
	"github.com/tabula-games/tabula/record"
	"github.com/tabula-games/tabula/server/wire"
)

// starterServerGames are the games a starter bot plays on a server, one
// of each, against the server's random bot: short ones, so that they cost
// little (Skyjo one round; Skjuub drawn by its house rule after 80 turns,
// a bound these games seldom reach — a draw there is a whole game too).
var starterServerGames = []map[string]any{
	{"game": "sgolte"},
	{"game": "sploof"},
	{"game": "skjuub", "options": map[string]string{"maxturns": "80"}},
	{"game": "skyjo", "options": map[string]string{"target": "1"}},
}

// starterPlaysOnServer runs the command `tabula bot --server … --token …
// --engine SPEC --config FILE` (this test binary as tabula, in a process
// of its own) for a bot account of a real server, with a policy of four
// games at once; alice invites it to one game of each game against the
// server's random bot, the four at once. Each must end normally with its
// whole record stored: the server's JSON record replays move by move to
// its final position and to its result. Sent SIGTERM, the command then
// exits 0.
func starterPlaysOnServer(t *testing.T, spec string) {
	s := startSite(t)
	s.call(s.robot, http.MethodPost, "/api/me/bot", nil, nil)
	config := filepath.Join(t.TempDir(), "policy.json")
	if err := os.WriteFile(config, []byte(fmt.Sprintf(`{"maxGames": %d}`, len(starterServerGames))), 0o600); err != nil {
		t.Fatal(err)
	}
	bot := startBotCommand(t, "bot", "--server", s.base, "--token", s.robot, "--engine", spec, "--config", config)
	t.Cleanup(func() {
		if t.Failed() {
			t.Logf("the connector's log:\n%s", bot.log)
		}
	})
	bot.waitLog(t, `connected to`)
	var ids []string
	for i, body := range starterServerGames {
		// The starter holds seat 0 in two games, seat 1 in the others.
		seats := []map[string]string{{"kind": "invite", "user": "robot"}, {"kind": "bot", "level": "random"}}
		if i%2 == 1 {
			slices.Reverse(seats)
		}
		body := maps.Clone(body) // the shared table stays as it is
		body["seats"] = seats
		ids = append(ids, s.challenge(body))
	}
	for _, id := range ids {
		bot.waitLog(t, `game `+id+`: started`)
	}
	for _, id := range ids {
		bot.waitLog(t, `game `+id+`: ended: `)
		// The acknowledgement of the starter's last move may be logged
		// just after the end: wait for one "played" line per move of its.
		snap := s.summary(id)
		seat := seatOf(&snap.Game, "robot")
		own := 0
		for _, m := range snap.Moves {
			if m.Seat == seat {
				own++
			}
		}
		played := regexp.MustCompile(`game ` + id + `: ply \d+: played `)
		waitFor(t, 10*time.Second, func() bool { return len(played.FindAllString(bot.log.String(), -1)) >= own },
			fmt.Sprintf("the %d moves of robot's in game %s acknowledged in the log", own, id))
	}
	s.checkGames(ids, 0, bot.log)
	for _, id := range ids {
		if err := s.checkRecord(t, id); err != nil {
			t.Errorf("game %s: %v", id, err)
		}
	}
	if err := bot.stop(); err != nil {
		t.Errorf("stopped by SIGTERM: %v", err)
	}
}

// botCommand is the tabula command running in a process of its own.
type botCommand struct {
	*running
	cmd    *exec.Cmd
	exited chan error
}

// startBotCommand runs this test binary as `tabula args…` (init in
// botconnect_test.go reads $TABULA_CONNECT_ARGS), its output in a log; the
// test's end kills it if it is still running.
func startBotCommand(t *testing.T, args ...string) *botCommand {
	t.Helper()
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	list, _ := json.Marshal(args)
	b := &botCommand{running: &running{log: &syncBuffer{}}, cmd: exec.Command(exe), exited: make(chan error, 1)}
	b.cmd.Env = append(os.Environ(), "TABULA_CONNECT_ARGS="+string(list))
	b.cmd.Stdout, b.cmd.Stderr = b.log, b.log
	if err := b.cmd.Start(); err != nil {
		t.Fatal(err)
	}
	go func() { b.exited <- b.cmd.Wait() }()
	t.Cleanup(func() {
		select {
		case err := <-b.exited:
			b.exited <- err
		default:
			b.cmd.Process.Kill()
			<-b.exited
		}
	})
	return b
}

// stop sends SIGTERM and waits for the command's exit: nil for exit 0.
func (b *botCommand) stop() error {
	b.cmd.Process.Signal(syscall.SIGTERM)
	select {
	case err := <-b.exited:
		b.exited <- err // for the cleanup
		return err
	case <-time.After(30 * time.Second):
		return fmt.Errorf("no exit 30s after SIGTERM")
	}
}

// checkRecord reads game id's JSON record from the server and checks it
// is a whole game: finished with a result, the robot's seat among its
// players and with moves of its own, the plies numbered from 0 without a
// gap, and the moves replaying from its start to its final position and
// to the result stored. It logs what the game was.
func (s *site) checkRecord(t *testing.T, id string) error {
	var rec record.Record
	if err := s.try(s.alice, http.MethodGet, "/api/games/"+id+"/record", nil, &rec); err != nil {
		return fmt.Errorf("GET record: %w", err)
	}
	if rec.Status != string(wire.StatusFinished) || rec.Result == nil {
		return fmt.Errorf("record status %q, result %v: want finished with a result", rec.Status, rec.Result)
	}
	seat := -1
	for _, p := range rec.Players {
		if p.User == "robot" {
			seat = p.Seat
		}
	}
	if seat < 0 {
		return fmt.Errorf("robot holds no seat: %+v", rec.Players)
	}
	setup, err := rec.StartState()
	if err != nil {
		return err
	}
	played, err := rec.Replay(setup.State)
	if err != nil {
		return fmt.Errorf("the stored moves do not replay: %w", err)
	}
	own := 0
	for i, m := range rec.Moves {
		if m.Ply != i || m.Seat != played[i].Seat {
			return fmt.Errorf("stored move %d is ply %d of seat %d; the replay says ply %d of seat %d", i, m.Ply, m.Seat, i, played[i].Seat)
		}
		if m.Seat == seat {
			own++
		}
	}
	if own == 0 {
		return fmt.Errorf("robot made none of the %d moves", len(rec.Moves))
	}
	st := setup.State
	want := record.ResultOf(st)
	if want == nil {
		return fmt.Errorf("the %d stored moves end in a position that is not over", len(rec.Moves))
	}
	if want.Status != rec.Result.Status || !slices.Equal(want.Winners, rec.Result.Winners) {
		return fmt.Errorf("the replay ends %s %v, the record says %s %v", want.Status, want.Winners, rec.Result.Status, rec.Result.Winners)
	}
	g, _ := game.Lookup(rec.Game)
	final, err := g.ParsePosition(rec.Final)
	if err != nil || final.Hash() != st.Hash() {
		return fmt.Errorf("the replay ends elsewhere than the record's final position (%v)", err)
	}
	t.Logf("game %s: %s, robot seat %d, %d moves, %s %v", id, rec.Game, seat, len(rec.Moves), rec.Result.Status, rec.Result.Winners)
	return nil
}
