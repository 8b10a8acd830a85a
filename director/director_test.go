package director_test

import (
	"bytes"
	"context"
	"database/sql"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"math/rand/v2"
	"os"
	"path/filepath"
	"runtime"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/tabula-games/tabula/director"
	_ "github.com/tabula-games/tabula/games/all"
	"github.com/tabula-games/tabula/match"
	"github.com/tabula-games/tabula/store"
	"github.com/tabula-games/tabula/store/postgres"
	"github.com/tabula-games/tabula/store/sqlite"
	"github.com/tabula-games/tabula/tournament"
)

var t0 = time.Date(2026, 12, 1, 20, 0, 0, 0, time.UTC)

type nopPublisher struct{}

func (nopPublisher) Publish(match.Event) {}

// flaky is a node's games that fail every creation after the first
// okCreates (a director's node dying in the middle of creating a round).
type flaky struct {
	*match.Registry
	okCreates int32
	creates   atomic.Int32
}

func (f *flaky) Create(ctx context.Context, u match.User, m match.Meta) (match.Ack, error) {
	if f.okCreates >= 0 && f.creates.Add(1) > f.okCreates {
		return match.Ack{}, errors.New("the node died")
	}
	return f.Registry.Create(ctx, u, m)
}

// testStore is a store with tournaments: SQLite's or PostgreSQL's.
type testStore interface {
	store.Store
	store.Tournaments
}

type world struct {
	t     *testing.T
	db    testStore
	reg   *match.Registry
	users []int64
	log   *slog.Logger
}

func newWorld(t *testing.T, players int) *world {
	t.Helper()
	db, err := sqlite.Open(context.Background(), filepath.Join(t.TempDir(), "t.db"), sqlite.Options{NoSync: true})
	if err != nil {
		t.Fatal(err)
	}
	return newWorldOn(t, db, players)
}

// newPostgresWorld is newWorld on PostgreSQL (TABULA_TEST_POSTGRES, by
// default the local server; "off" skips), in a schema of its own.
func newPostgresWorld(t *testing.T, players int) *world {
	t.Helper()
	url := os.Getenv("TABULA_TEST_POSTGRES")
	switch url {
	case "off":
		t.Skip("TABULA_TEST_POSTGRES=off")
	case "":
		url = "postgres://postgres@127.0.0.1:5432/test?sslmode=disable"
	}
	admin, err := sql.Open("pgx", url)
	if err == nil {
		err = admin.Ping()
	}
	if err != nil {
		t.Fatalf("no PostgreSQL at %s (set TABULA_TEST_POSTGRES=off to skip): %v", url, err)
	}
	schema := fmt.Sprintf("tabula_director_test_%d", rand.Uint64()>>1)
	if _, err := admin.Exec("CREATE SCHEMA " + schema); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		admin.Exec("DROP SCHEMA " + schema + " CASCADE")
		admin.Close()
	})
	db, err := postgres.Open(context.Background(), url+"&search_path="+schema)
	if err != nil {
		t.Fatal(err)
	}
	return newWorldOn(t, db, players)
}

func newWorldOn(t *testing.T, db testStore, players int) *world {
	t.Helper()
	log := slog.New(slog.NewTextHandler(io.Discard, nil))
	reg, err := match.NewRegistry(match.Config{Journal: db, Publisher: nopPublisher{}, Log: log})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { reg.StopAll(); db.Close() })
	w := &world{t: t, db: db, reg: reg, log: log}
	ctx := context.Background()
	for i := range players {
		u := store.User{Name: fmt.Sprintf("p%d", i), PasswordHash: "x", Created: t0}
		if err := db.CreateUser(ctx, &u); err != nil {
			t.Fatal(err)
		}
		w.users = append(w.users, u.ID)
	}
	return w
}

// swiss creates a Swiss of rounds rounds starting at t0 that every user
// joins.
func (w *world) swiss(id string, rounds int) {
	w.t.Helper()
	ctx := context.Background()
	tr, err := director.Spec{Name: "Test " + id, Format: director.Swiss, Game: "sgolte", Rounds: rounds, Start: t0, Rated: true,
		Clock: match.Clock{Kind: match.ClockRealtime, InitialMs: 600000}}.Tournament(t0)
	if err != nil {
		w.t.Fatal(err)
	}
	tr.ID, tr.CreatorID, tr.Created = id, w.users[0], t0
	if err := w.db.CreateTournament(ctx, &tr); err != nil {
		w.t.Fatal(err)
	}
	for _, u := range w.users {
		if _, err := w.db.JoinTournament(ctx, id, u, t0, tr.MaxPlayers); err != nil {
			w.t.Fatal(err)
		}
	}
}

func (w *world) director(node string, games director.Games) *director.Director {
	return w.directorLease(node, games, 150*time.Millisecond)
}

func (w *world) directorLease(node string, games director.Games, lease time.Duration) *director.Director {
	return director.New(director.Config{Store: w.db, Games: games, Node: node, Now: func() time.Time { return t0 },
		Lease: lease, Tick: 5 * time.Millisecond, Log: w.log})
}

// finishLive ends every live game of the tournament's current round: the
// lower board numbers won by White, the others by Black (a resignation),
// every third drawn by agreement. It returns how many it ended.
func (w *world) finishLive(id string) int {
	w.t.Helper()
	ctx := context.Background()
	rounds, err := w.db.TournamentRounds(ctx, id)
	if err != nil || len(rounds) == 0 {
		return 0
	}
	n := 0
	for _, b := range rounds[len(rounds)-1].Boards {
		if b.GameID == "" {
			continue
		}
		m, err := w.db.Game(ctx, b.GameID)
		if err != nil || m.Status != match.Live {
			continue
		}
		var cmds []match.Command
		switch (b.Board + len(rounds)) % 3 {
		case 0:
			cmds = []match.Command{{Kind: match.CmdResign, User: match.User{ID: b.Black}, Ply: -1}}
		case 1:
			cmds = []match.Command{{Kind: match.CmdResign, User: match.User{ID: b.White}, Ply: -1}}
		default:
			cmds = []match.Command{{Kind: match.CmdOffer, User: match.User{ID: b.White}, Offer: match.OfferDraw, Seat: -1, Ply: -1},
				{Kind: match.CmdAccept, User: match.User{ID: b.Black}, Offer: match.OfferDraw, Seat: -1, Ply: -1}}
		}
		for _, c := range cmds {
			if _, err := w.reg.Do(ctx, b.GameID, c); err != nil {
				w.t.Logf("game %s: %v", b.GameID, err)
			}
		}
		n++
	}
	return n
}

// check verifies a finished tournament from the store alone: every round
// pairs each player at most once, nobody meets twice or has two byes, each
// board's result is its game's, and the standings are a recomputation
// from the games.
func (w *world) check(id string, wantRounds int) []tournament.Standing {
	w.t.Helper()
	ctx := context.Background()
	tr, err := w.db.Tournament(ctx, id)
	if err != nil {
		w.t.Fatal(err)
	}
	players, _ := w.db.TournamentPlayers(ctx, id)
	rounds, _ := w.db.TournamentRounds(ctx, id)
	if tr.Status != store.TournamentFinished || tr.Note != "" {
		w.t.Fatalf("tournament %s: %s (%s); rounds %+v", id, tr.Status, tr.Note, rounds)
	}
	if len(rounds) != wantRounds {
		w.t.Fatalf("%d rounds, want %d", len(rounds), wantRounds)
	}
	met, byes, games := map[[2]int64]bool{}, map[int64]int{}, map[string]bool{}
	var recomputed []tournament.Round
	idx := map[int64]int{}
	for i, p := range players {
		idx[p.UserID] = i
	}
	for _, r := range rounds {
		seen := map[int64]bool{}
		var tr tournament.Round
		for _, b := range r.Boards {
			for _, u := range []int64{b.White, b.Black} {
				if u != 0 && seen[u] {
					w.t.Fatalf("round %d pairs user %d twice", r.Number, u)
				}
				seen[u] = true
			}
			if b.Black == 0 {
				byes[b.White]++
				tr.Byes = append(tr.Byes, idx[b.White])
				continue
			}
			k := [2]int64{min(b.White, b.Black), max(b.White, b.Black)}
			if met[k] {
				w.t.Fatalf("round %d: %v meet again", r.Number, k)
			}
			met[k] = true
			if games[b.GameID] || b.GameID != director.GameID(id, r.Number, b.Board) {
				w.t.Fatalf("round %d board %d: game %q", r.Number, b.Board, b.GameID)
			}
			games[b.GameID] = true
			m, err := w.db.Game(ctx, b.GameID)
			if err != nil || m.Status != match.Finished || m.Result == nil {
				w.t.Fatalf("game %s: %+v, %v", b.GameID, m, err)
			}
			if m.Seats[0].UserID != b.White || m.Seats[1].UserID != b.Black || m.Game != "sgolte" || !m.Rated || m.Clock.InitialMs != 600000 {
				w.t.Fatalf("game %s is not the board's: %+v", b.GameID, m)
			}
			p := tournament.Pairing{White: idx[b.White], Black: idx[b.Black], Result: tournament.Draw}
			if m.Result.Status == match.Won {
				p.Result = tournament.WhiteWins
				if m.Result.Winners[0] == 1 {
					p.Result = tournament.BlackWins
				}
			}
			tr.Pairings = append(tr.Pairings, p)
		}
		recomputed = append(recomputed, tr)
	}
	for u, n := range byes {
		if n > 1 {
			w.t.Fatalf("user %d has %d byes", u, n)
		}
	}
	want, err := tournament.Standings(len(players), recomputed, tournament.SwissTieBreaks)
	if err != nil {
		w.t.Fatal(err)
	}
	got, err := director.Standings(&tr, players, rounds)
	if err != nil {
		w.t.Fatal(err)
	}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		w.t.Fatalf("standings\n%v\nrecomputed from the games\n%v", got, want)
	}
	return got
}

// TestReplacedMidRound: a director dies after pairing round 1 and creating
// one of its two games. Another takes the lease once it lapses, creates
// the missing game (not the one that exists) and plays the tournament to
// its end; the dead one, back, writes nothing. Nothing is lost, repeated
// or changed.
func TestReplacedMidRound(t *testing.T) { replacedMidRound(t, newWorld(t, 5)) }

// TestReplacedMidRoundOnPostgres: the same on PostgreSQL.
func TestReplacedMidRoundOnPostgres(t *testing.T) { replacedMidRound(t, newPostgresWorld(t, 5)) }

func replacedMidRound(t *testing.T, w *world) {
	w.swiss("t1", 3)
	ctx := context.Background()
	a := w.director("a", &flaky{Registry: w.reg, okCreates: 1})
	b := w.director("b", w.reg)
	a.Step(ctx)
	rounds, err := w.db.TournamentRounds(ctx, "t1")
	if err != nil || len(rounds) != 1 || len(rounds[0].Boards) != 3 {
		t.Fatalf("after a's step: %+v, %v", rounds, err)
	}
	r1 := fmt.Sprint(rounds[0])
	if _, err := w.db.Game(ctx, rounds[0].Boards[0].GameID); err != nil {
		t.Fatalf("board 0's game: %v", err)
	}
	if _, err := w.db.Game(ctx, rounds[0].Boards[1].GameID); !errors.Is(err, store.ErrNotFound) {
		t.Fatalf("board 1's game exists before the takeover: %v", err)
	}
	// a is dead: b waits for its lease to lapse.
	deadline := time.Now().Add(10 * time.Second)
	for {
		b.Step(ctx)
		if _, ok := b.Owns("t1"); ok {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("b never took the tournament over")
		}
		time.Sleep(10 * time.Millisecond)
	}
	rounds, _ = w.db.TournamentRounds(ctx, "t1")
	if fmt.Sprint(rounds) != r1+"" && fmt.Sprint(rounds[0]) != r1 || len(rounds) != 1 {
		t.Fatalf("round 1 changed in the takeover: %v, was %s", rounds, r1)
	}
	for _, bd := range rounds[0].Boards[:2] {
		m, err := w.db.Game(ctx, bd.GameID)
		if err != nil || m.Status != match.Live {
			t.Fatalf("board %d's game after the takeover: %+v, %v", bd.Board, m.Status, err)
		}
	}
	// a comes back: it has lost the lease, and writes nothing.
	before, _ := w.db.Tournament(ctx, "t1")
	w.finishLive("t1")
	a.Step(ctx)
	if _, ok := a.Owns("t1"); ok {
		t.Fatal("the deposed director still thinks it owns the tournament")
	}
	after, _ := w.db.Tournament(ctx, "t1")
	rounds, _ = w.db.TournamentRounds(ctx, "t1")
	if after.Epoch != before.Epoch || after.Owner != "b" || len(rounds) != 1 || rounds[0].Boards[0].Result != store.BoardPending {
		t.Fatalf("the deposed director wrote: %+v, rounds %v", after, rounds)
	}
	for i := 0; i < 20; i++ {
		b.Step(ctx)
		if tr, _ := w.db.Tournament(ctx, "t1"); tr.Status == store.TournamentFinished {
			break
		}
		w.finishLive("t1")
	}
	w.check("t1", 3)
}

// TestDirectorsRace: two directors run at once on one store, one of them
// stopping half-way (the other takes over at once), while the players
// finish their games as soon as they start; the tournament is played to
// its end with every rule kept.
func TestDirectorsRace(t *testing.T) { directorsRace(t, newWorld(t, 6)) }

// TestDirectorsRaceOnPostgres: the same on PostgreSQL, whose row locks
// serialise the two directors' writes.
func TestDirectorsRaceOnPostgres(t *testing.T) { directorsRace(t, newPostgresWorld(t, 6)) }

func directorsRace(t *testing.T, w *world) {
	w.swiss("t1", 3)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	actx, stopA := context.WithCancel(ctx)
	defer stopA()
	// Leases long enough for a step of a loaded machine under -race: a
	// director whose every step outlasts its lease is deposed before it
	// writes, and two such directors take turns writing nothing. The
	// handover here is a's release when it stops.
	a, b := w.directorLease("a", w.reg, 2*time.Second), w.directorLease("b", w.reg, 2*time.Second)
	a.Step(ctx) // a holds the lease first
	var wg sync.WaitGroup
	wg.Add(2)
	go func() { defer wg.Done(); a.Run(actx) }()
	go func() { defer wg.Done(); b.Run(ctx) }()
	deadline := time.Now().Add(30 * time.Second)
	stopped := false
	for {
		tr, err := w.db.Tournament(context.Background(), "t1")
		if err != nil {
			t.Fatal(err)
		}
		if tr.Status == store.TournamentFinished {
			break
		}
		if rounds, _ := w.db.TournamentRounds(context.Background(), "t1"); len(rounds) >= 2 && !stopped {
			stopA()
			stopped = true
		}
		w.finishLive("t1")
		if time.Now().After(deadline) {
			rounds, _ := w.db.TournamentRounds(context.Background(), "t1")
			var games []string
			for _, r := range rounds {
				for _, b := range r.Boards {
					if b.GameID != "" {
						m, err := w.db.Game(context.Background(), b.GameID)
						games = append(games, fmt.Sprintf("%d/%d %s %v %v", r.Number, b.Board, m.Status, m.Seats, err))
					}
				}
			}
			buf := make([]byte, 1<<20)
			buf = buf[:runtime.Stack(buf, true)]
			t.Fatalf("the tournament did not finish: %+v\nrounds %+v\ngames %v\n%s", tr, rounds, games, buf)
		}
		time.Sleep(2 * time.Millisecond)
	}
	cancel()
	wg.Wait()
	w.check("t1", 3)
	// b directs it at the end (on a loaded machine the short leases may
	// have changed hands more often: every handover raised the epoch).
	if tr, _ := w.db.Tournament(context.Background(), "t1"); tr.Owner != "b" || tr.Epoch < 2 {
		t.Fatalf("directed at the end by %s at epoch %d, want b at 2 or more", tr.Owner, tr.Epoch)
	}
}

// TestNotEnoughPlayers: a tournament far ahead has no director yet; one
// about to start is directed and waits; at its start with one player it
// is cancelled.
func TestNotEnoughPlayers(t *testing.T) {
	w := newWorld(t, 1)
	w.swiss("t1", 3)
	ctx := context.Background()
	now := t0.Add(-2 * time.Hour)
	d := director.New(director.Config{Store: w.db, Games: w.reg, Node: "a", Now: func() time.Time { return now }, Log: w.log})
	d.Step(ctx)
	if _, ok := d.Owns("t1"); ok {
		t.Fatal("a tournament two hours ahead is directed already")
	}
	now = t0.Add(-time.Second)
	d.Step(ctx)
	if _, ok := d.Owns("t1"); !ok {
		t.Fatal("a tournament a second ahead has no director")
	}
	if tr, _ := w.db.Tournament(ctx, "t1"); tr.Status != store.TournamentUpcoming {
		t.Fatalf("before its start: %s", tr.Status)
	}
	now = t0
	d.Step(ctx)
	if tr, _ := w.db.Tournament(ctx, "t1"); tr.Status != store.TournamentFinished || tr.Note == "" {
		t.Fatalf("one player: %s %q", tr.Status, tr.Note)
	}
}

// play steps d and finishes the games until the tournament is finished,
// calling between(round) once each time a new round has been paired.
func (w *world) play(d *director.Director, id string, between func(round int)) {
	w.t.Helper()
	ctx := context.Background()
	seen := 0
	for i := 0; i < 100; i++ {
		d.Step(ctx)
		tr, _ := w.db.Tournament(ctx, id)
		if tr.Status == store.TournamentFinished {
			return
		}
		if rounds, _ := w.db.TournamentRounds(ctx, id); len(rounds) > seen {
			seen = len(rounds)
			if between != nil {
				between(seen)
			}
		}
		w.finishLive(id)
	}
	w.t.Fatal("the tournament did not finish")
}

// TestLateJoinAndWithdrawal: a Swiss takes a player after round 1 (paired
// from round 2, nothing for round 1) and stops pairing one who withdrew
// after round 2.
func TestLateJoinAndWithdrawal(t *testing.T) {
	w := newWorld(t, 6)
	late, leaver := w.users[5], w.users[0]
	w.users = w.users[:5]
	w.swiss("t1", 3)
	ctx := context.Background()
	w.play(w.director("a", w.reg), "t1", func(round int) {
		switch round {
		case 1:
			if _, err := w.db.JoinTournament(ctx, "t1", late, t0, 0); err != nil {
				t.Fatal(err)
			}
		case 2:
			if err := w.db.WithdrawTournament(ctx, "t1", leaver); err != nil {
				t.Fatal(err)
			}
		}
	})
	st := w.check("t1", 3)
	rounds, _ := w.db.TournamentRounds(ctx, "t1")
	in := func(r int, u int64) bool {
		for _, b := range rounds[r].Boards {
			if b.White == u || b.Black == u {
				return true
			}
		}
		return false
	}
	if in(0, late) || !in(1, late) || !in(2, late) {
		t.Fatalf("the late entrant's rounds: %+v", rounds)
	}
	if !in(1, leaver) || in(2, leaver) {
		t.Fatalf("the leaver's rounds: %+v", rounds)
	}
	if len(st) != 6 {
		t.Fatalf("standings of %d players", len(st))
	}
}

// TestRoundRobin: four players play everyone once; one who withdraws
// after round 1 loses the boards paired after, without games.
func TestRoundRobin(t *testing.T) {
	w := newWorld(t, 4)
	ctx := context.Background()
	tr, err := director.Spec{Name: "RR", Format: director.RoundRobin, Game: "sgolte", Start: t0, Rated: true,
		Clock: match.Clock{Kind: match.ClockRealtime, InitialMs: 600000}}.Tournament(t0)
	if err != nil {
		t.Fatal(err)
	}
	tr.ID, tr.CreatorID, tr.Created = "rr", w.users[0], t0
	if err := w.db.CreateTournament(ctx, &tr); err != nil {
		t.Fatal(err)
	}
	for _, u := range w.users {
		if _, err := w.db.JoinTournament(ctx, "rr", u, t0, tr.MaxPlayers); err != nil {
			t.Fatal(err)
		}
	}
	leaver := w.users[3]
	w.play(w.director("a", w.reg), "rr", func(round int) {
		if round == 1 {
			if err := w.db.WithdrawTournament(ctx, "rr", leaver); err != nil {
				t.Fatal(err)
			}
		}
	})
	got, _ := w.db.Tournament(ctx, "rr")
	rounds, _ := w.db.TournamentRounds(ctx, "rr")
	if got.Rounds != 3 || len(rounds) != 3 || got.Note != "" {
		t.Fatalf("%d of %d rounds (%s)", len(rounds), got.Rounds, got.Note)
	}
	met := map[[2]int64]bool{}
	for _, r := range rounds {
		for _, b := range r.Boards {
			met[[2]int64{min(b.White, b.Black), max(b.White, b.Black)}] = true
			forfeit := r.Number > 1 && (b.White == leaver || b.Black == leaver)
			switch {
			case forfeit && (b.GameID != "" || (b.White == leaver) != (b.Result == store.BoardBlackWins)):
				t.Fatalf("round %d: the leaver's board %+v", r.Number, b)
			case !forfeit && b.GameID == "":
				t.Fatalf("round %d: board %+v has no game", r.Number, b)
			}
		}
	}
	if len(met) != 6 {
		t.Fatalf("%d pairs met, want all 6", len(met))
	}
	players, _ := w.db.TournamentPlayers(ctx, "rr")
	st, err := director.Standings(&got, players, rounds)
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range st {
		if players[s.Player].UserID == leaver && s.Losses < 2 {
			t.Fatalf("the leaver's standing: %+v", s)
		}
	}
}

// TestEveryoneWithdraws: a Swiss whose players all withdraw after round 1
// ends after round 1 with a note, instead of pairing empty rounds.
func TestEveryoneWithdraws(t *testing.T) {
	w := newWorld(t, 4)
	w.swiss("t1", 3)
	ctx := context.Background()
	d := w.director("a", w.reg)
	d.Step(ctx)
	for _, u := range w.users {
		if err := w.db.WithdrawTournament(ctx, "t1", u); err != nil {
			t.Fatal(err)
		}
	}
	for i := 0; i < 10; i++ {
		w.finishLive("t1")
		d.Step(ctx)
	}
	tr, _ := w.db.Tournament(ctx, "t1")
	rounds, _ := w.db.TournamentRounds(ctx, "t1")
	if tr.Status != store.TournamentFinished || tr.Note == "" || len(rounds) != 1 {
		t.Fatalf("%s (%q) after %d rounds", tr.Status, tr.Note, len(rounds))
	}
}

// TestRoundPairedInTheStepThatEndsTheLast: the step that records a round's
// last results pairs the next round too. It paired from the rounds it had
// read before recording them, and the pairing refused a round whose
// results it still saw pending: a warning ("round 1: 1–2 has no result
// yet") and a round a step late, every round.
func TestRoundPairedInTheStepThatEndsTheLast(t *testing.T) {
	w := newWorld(t, 4)
	var logged bytes.Buffer // the director logs from Step, in this goroutine
	w.log = slog.New(slog.NewTextHandler(&logged, &slog.HandlerOptions{Level: slog.LevelWarn}))
	w.swiss("sw", 2)
	d := w.director("n1", w.reg)
	ctx := context.Background()
	d.Step(ctx)
	if rounds, _ := w.db.TournamentRounds(ctx, "sw"); len(rounds) != 1 {
		t.Fatalf("after the first step: %d rounds, want 1", len(rounds))
	}
	if n := w.finishLive("sw"); n != 2 {
		t.Fatalf("finished %d games of round 1, want 2", n)
	}
	d.Step(ctx)
	rounds, err := w.db.TournamentRounds(ctx, "sw")
	if err != nil {
		t.Fatal(err)
	}
	if len(rounds) != 2 {
		t.Errorf("the step that recorded round 1's results left %d rounds, want round 2 paired too", len(rounds))
	}
	if s := logged.String(); s != "" {
		t.Errorf("the director warned:\n%s", s)
	}
}
