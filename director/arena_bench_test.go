//go:build unix

package director

import (
	"context"
	"math/rand/v2"
	"path/filepath"
	"strconv"
	"syscall"
	"testing"
	"time"

	"github.com/tabula-games/tabula/match"
	"github.com/tabula-games/tabula/store"
	"github.com/tabula-games/tabula/store/sqlite"
)

// benchArenaStore answers the two reads of a pairing wave from memory, so
// that the benchmark measures the director's own work.
type benchArenaStore struct {
	ArenaStore
	games []store.ArenaGame
}

func (s benchArenaStore) ArenaPaused(context.Context, string) (map[int64]bool, error) {
	return map[int64]bool{}, nil
}

func (s benchArenaStore) ArenaGames(context.Context, string) ([]store.ArenaGame, error) {
	return s.games, nil
}

// BenchmarkArenaWave1000 pairs a wave of an arena of 1,000 players at the
// end of an hour: 50 waves of 500 games stored (25,000 games, a game every
// 72 s for each player), everyone free. The director rebuilds the history
// and the standings from every stored game at each wave, so this is its
// largest wave; reading the rounds and games from the store is not
// counted (the store answers from memory). It reports the CPU of a wave.
func BenchmarkArenaWave1000(b *testing.B) {
	const n, waves = 1000, 50
	rng := rand.New(rand.NewPCG(7, 8))
	players := make([]store.TournamentPlayer, n)
	for i := range players {
		players[i] = store.TournamentPlayer{UserID: int64(i + 1), Number: i}
	}
	results := []string{store.BoardWhiteWins, store.BoardBlackWins, store.BoardDraw}
	var rounds []store.TournamentRound
	var games []store.ArenaGame
	for w := 1; w <= waves; w++ {
		order := rng.Perm(n)
		r := store.TournamentRound{Number: w}
		for k := 0; k+1 < n; k += 2 {
			r.Boards = append(r.Boards, store.TournamentBoard{Board: len(r.Boards), White: int64(order[k] + 1), Black: int64(order[k+1] + 1), Result: results[rng.IntN(3)]})
			games = append(games, store.ArenaGame{Round: w, Board: len(r.Boards) - 1, WhiteBerserk: rng.IntN(10) == 0})
		}
		rounds = append(rounds, r)
	}
	t := &store.Tournament{ID: "bench", Clock: match.Clock{Kind: match.ClockRealtime, InitialMs: 180000}}
	st := benchArenaStore{games: games}
	d := &Director{}
	var ru syscall.Rusage
	cpu := func() time.Duration {
		syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
		return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
	}
	b.ResetTimer()
	start := cpu()
	for i := 0; i < b.N; i++ {
		next, err := d.arenaWave(context.Background(), st, t, players, rounds, map[int64]bool{})
		if err != nil {
			b.Fatal(err)
		}
		if len(next.Boards) != n/2 {
			b.Fatalf("%d boards paired", len(next.Boards))
		}
	}
	b.ReportMetric(float64(cpu()-start)/float64(time.Millisecond)/float64(b.N), "cpu-ms/op")
}

// BenchmarkArenaStep1000SQLite is the same wave with its reads from a
// SQLite file (the default store, on a temporary directory) that holds
// one hour (50 waves, 25,000 results) or two hours (100 waves, 50,000) of
// the arena. Each
// operation reads what a director's step of the arena reads (the
// players, every wave with its boards) and what pairing a wave adds (the
// games kept), then pairs the wave. A director steps each arena it runs
// about once a second.
func BenchmarkArenaStep1000SQLite(b *testing.B) {
	b.Run("1h", func(b *testing.B) { benchArenaStep(b, 50) })
	b.Run("2h", func(b *testing.B) { benchArenaStep(b, 100) })
}

// benchArenaStep is BenchmarkArenaStep1000SQLite after waves waves of 500
// games (50 an hour).
func benchArenaStep(b *testing.B, waves int) {
	const n = 1000
	ctx := context.Background()
	db, err := sqlite.Open(ctx, filepath.Join(b.TempDir(), "bench.db"), sqlite.Options{NoSync: true})
	if err != nil {
		b.Fatal(err)
	}
	defer db.Close()
	start := time.Date(2026, 12, 1, 20, 0, 0, 0, time.UTC)
	arena := store.Arena{Duration: time.Hour, Berserk: true}
	t, err := Spec{Name: "Bench", Game: "sgolte", Start: start, Clock: match.Clock{Kind: match.ClockRealtime, InitialMs: 180000}}.ArenaTournament(start, arena)
	if err != nil {
		b.Fatal(err)
	}
	var users []int64
	for i := 0; i < n; i++ {
		u := store.User{Name: "p" + strconv.Itoa(i), PasswordHash: "x", Created: start}
		if err := db.CreateUser(ctx, &u); err != nil {
			b.Fatal(err)
		}
		users = append(users, u.ID)
	}
	t.ID, t.CreatorID, t.Created = "bench", users[0], start
	if err := db.CreateArena(ctx, &t, arena); err != nil {
		b.Fatal(err)
	}
	for _, u := range users {
		if _, err := db.JoinTournament(ctx, t.ID, u, start, t.MaxPlayers); err != nil {
			b.Fatal(err)
		}
	}
	epoch, err := db.ClaimTournament(ctx, t.ID, "bench", 0, time.Hour)
	if err != nil {
		b.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(7, 8))
	results := []string{store.BoardWhiteWins, store.BoardBlackWins, store.BoardDraw}
	for w := 1; w <= waves; w++ {
		order := rng.Perm(n)
		r := store.TournamentRound{Number: w}
		for k := 0; k+1 < n; k += 2 {
			r.Boards = append(r.Boards, store.TournamentBoard{Board: len(r.Boards), White: users[order[k]], Black: users[order[k+1]],
				GameID: GameID(t.ID, w, len(r.Boards))})
		}
		if err := db.AddRoundFenced(ctx, epoch, t.ID, r); err != nil {
			b.Fatal(err)
		}
		for _, bd := range r.Boards {
			g := store.ArenaGame{Round: w, Board: bd.Board, Ended: start.Add(time.Duration(w) * time.Minute), WhiteBerserk: rng.IntN(10) == 0}
			if err := db.SetArenaResultFenced(ctx, epoch, t.ID, results[rng.IntN(3)], g); err != nil {
				b.Fatal(err)
			}
		}
	}
	d := &Director{}
	var ru syscall.Rusage
	cpu := func() time.Duration {
		syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
		return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
	}
	b.ResetTimer()
	begin := cpu()
	for i := 0; i < b.N; i++ {
		players, err := db.TournamentPlayers(ctx, t.ID)
		if err != nil {
			b.Fatal(err)
		}
		rounds, err := db.TournamentRounds(ctx, t.ID)
		if err != nil {
			b.Fatal(err)
		}
		if len(players) != n || len(rounds) != waves {
			b.Fatalf("%d players, %d waves", len(players), len(rounds))
		}
		next, err := d.arenaWave(ctx, db, &t, players, rounds, map[int64]bool{})
		if err != nil {
			b.Fatal(err)
		}
		if len(next.Boards) != n/2 {
			b.Fatalf("%d boards paired", len(next.Boards))
		}
	}
	b.ReportMetric(float64(cpu()-begin)/float64(time.Millisecond)/float64(b.N), "cpu-ms/op")
}
