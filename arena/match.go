package arena

import (
	"context"
	"errors"
	"fmt"
	"math/bits"
	"slices"
	"strings"
	"sync"

	"github.com/tabula-games/tabula/agent"
	"github.com/tabula-games/tabula/game"
)

// Config describes a match.
type Config struct {
	Game    game.Game
	Options game.Options
	// Agents are agent specs (agent.New spellings). With two seats and two
	// agents they alternate seats; with more agents than that they play a
	// round robin of pairs; in games with more seats than agents, the first
	// agent rotates through every seat and the others fill the remaining
	// seats in turn (so "hard,greedy" in 4-player Skyjo is hard against three
	// greedy bots).
	Agents []string
	Games  int
	// Seed fixes everything: the games' chance events (one deal per full
	// seat rotation, so each agent meets the same deals from every seat)
	// and the agents' own randomness.
	Seed uint64
	// Parallel is the number of games played at once (default 1).
	Parallel int
	// Progress, if set, is called after every finished game.
	Progress func(done int, r *Result)
	// OnGame, if set, is called with every game as it finishes (after
	// Progress, one call at a time): a log of the match.
	OnGame func(GameResult)
	// Played are games of this match played before (by an interrupted
	// run, read back from its log): they are counted and not played again.
	// Every game is seeded by its index, so the match is the same match.
	Played []GameResult
	// NewAgent builds agents (default agent.New); tests inject their own.
	NewAgent func(spec string, g game.Game, seed uint64) (agent.Agent, error)

	// noHello holds the specs of outside engines found to have no hello
	// (protocol version 1): later games start them without one, so that an
	// engine that ignores it does not wait out its start-up limit each game.
	noHello *sync.Map
}

// GameResult is one finished game.
type GameResult struct {
	Index int
	Seats []int // agent index per seat
	// GameSeed is the seed the game was created with (game.Game.New): with
	// Moves it replays the game, chance events and all.
	GameSeed uint64
	// Moves are the game's moves in canonical notation, in order (none for a
	// game read back from a log written before logs kept them).
	Moves   []string
	Outcome game.Outcome
	Plies   int
	// Forfeit names the seat that forfeited (-1 for none) and why.
	ForfeitSeat int
	Forfeit     string
}

// Result is a match's tally.
type Result struct {
	Agents   []string
	Scores   []Score // per agent, over every seat it held
	Games    []GameResult
	Plies    int
	Forfeits int
}

// Run plays the match. It stops early, returning what was played, when ctx
// is cancelled; an agent that cannot be built is an error.
func Run(ctx context.Context, cfg Config) (*Result, error) {
	if len(cfg.Agents) < 2 {
		return nil, errors.New("arena: need at least two agents")
	}
	if cfg.Games <= 0 {
		return nil, errors.New("arena: need a positive number of games")
	}
	if cfg.NewAgent == nil {
		cfg.NewAgent = agent.New
	}
	if cfg.Parallel <= 0 {
		cfg.Parallel = 1
	}
	cfg.noHello = new(sync.Map)
	seats, err := game.NumPlayers(cfg.Game, cfg.Options)
	if err != nil {
		return nil, err
	}
	for _, spec := range cfg.Agents { // fail fast on a bad spelling
		a, err := cfg.NewAgent(spec, cfg.Game, 0)
		if err != nil {
			return nil, err
		}
		agent.Close(a)
	}
	res := &Result{Agents: cfg.Agents, Scores: make([]Score, len(cfg.Agents))}
	done := make(map[int]bool, len(cfg.Played))
	for _, gr := range cfg.Played {
		if gr.Index < 0 || gr.Index >= cfg.Games || done[gr.Index] {
			return nil, fmt.Errorf("arena: played game %d is not a game of this match, or is there twice", gr.Index)
		}
		want := Seating(len(cfg.Agents), seats, gr.Index)
		if !slices.Equal(gr.Seats, want) {
			return nil, fmt.Errorf("arena: played game %d has seats %v, this match seats %v", gr.Index, gr.Seats, want)
		}
		done[gr.Index] = true
		res.add(gr)
	}
	var mu sync.Mutex
	jobs := make(chan int)
	var firstErr error
	var wg sync.WaitGroup
	for w := 0; w < cfg.Parallel; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range jobs {
				gr, err := playGame(ctx, &cfg, i, Seating(len(cfg.Agents), seats, i))
				mu.Lock()
				if err != nil {
					if firstErr == nil && ctx.Err() == nil {
						firstErr = err
					}
				} else {
					res.add(gr)
					if cfg.Progress != nil {
						cfg.Progress(len(res.Games), res)
					}
					if cfg.OnGame != nil {
						cfg.OnGame(gr)
					}
				}
				mu.Unlock()
			}
		}()
	}
	for i := 0; i < cfg.Games && ctx.Err() == nil; i++ {
		if done[i] {
			continue
		}
		mu.Lock()
		stop := firstErr != nil
		mu.Unlock()
		if stop {
			break
		}
		select {
		case jobs <- i:
		case <-ctx.Done():
		}
	}
	close(jobs)
	wg.Wait()
	return res, firstErr
}

// Seating returns which agent sits in each seat for game i (see Config.Agents).
func Seating(agents, seats, i int) []int {
	out := make([]int, seats)
	switch {
	case seats == 2 && agents == 2:
		out[0], out[1] = i%2, 1-i%2
	case seats == 2:
		pairs := agents * (agents - 1) / 2
		p, flip := i%pairs, (i/pairs)%2
		a, b := pairFor(agents, p)
		if flip == 1 {
			a, b = b, a
		}
		out[0], out[1] = a, b
	default:
		focus := i % seats
		k := 0
		for s := range out {
			if s == focus {
				out[s] = 0
				continue
			}
			out[s] = 1 + k%(agents-1)
			k++
		}
	}
	return out
}

// pairFor enumerates the unordered pairs of n agents.
func pairFor(n, p int) (int, int) {
	for a := 0; a < n; a++ {
		for b := a + 1; b < n; b++ {
			if p == 0 {
				return a, b
			}
			p--
		}
	}
	panic("arena: pair index out of range")
}

// rotation is the number of games in which the seating repeats, so that
// games of one rotation share one deal.
func rotation(agents, seats int) int {
	if seats == 2 && agents > 2 {
		return agents * (agents - 1)
	}
	return seats
}

func playGame(ctx context.Context, cfg *Config, i int, seating []int) (GameResult, error) {
	gameSeed := cfg.Seed + uint64(i/rotation(len(cfg.Agents), len(seating)))
	gr := GameResult{Index: i, Seats: seating, GameSeed: gameSeed, ForfeitSeat: -1}
	s, err := cfg.Game.New(cfg.Options, gameSeed)
	if err != nil {
		return gr, err
	}
	agents := make([]agent.Agent, len(seating))
	defer func() {
		for _, a := range agents {
			if a != nil {
				agent.Close(a)
			}
		}
	}()
	for seat, ai := range seating {
		a, err := cfg.NewAgent(cfg.Agents[ai], cfg.Game, cfg.Seed*1_000_003+uint64(i)*16+uint64(seat)+1)
		if err != nil {
			return gr, err
		}
		if e, ok := a.(*agent.Exec); ok {
			if _, v1 := cfg.noHello.Load(cfg.Agents[ai]); v1 {
				e.NoHello = true
			}
		}
		agents[seat] = a
	}
	// Start every agent that has something to start (an outside program)
	// before the first move, all at once: a start-up has its own limit and
	// is never charged to a move. One that fails loses the game unplayed.
	var failed []int
	var why []string
	errs := make([]error, len(agents))
	var wg sync.WaitGroup
	for seat, a := range agents {
		wg.Add(1)
		go func() { defer wg.Done(); errs[seat] = agent.Start(ctx, a) }()
	}
	wg.Wait()
	if err := ctx.Err(); err != nil {
		return gr, err
	}
	for seat, err := range errs {
		if err != nil {
			failed = append(failed, seat)
			why = append(why, fmt.Sprintf("seat %d: %v", seat, err))
			continue
		}
		if e, ok := agents[seat].(*agent.Exec); ok && !e.NoHello {
			if _, v2 := e.Hello(); !v2 {
				cfg.noHello.Store(cfg.Agents[seating[seat]], true)
			}
		}
	}
	if len(failed) > 0 {
		gr.ForfeitSeat, gr.Forfeit = failed[0], strings.Join(why, "; ")
		gr.Outcome = othersWin(len(seating), failed...)
		return gr, nil
	}
	var buf []game.Move
	for !s.Outcome().Over() {
		if err := ctx.Err(); err != nil {
			return gr, err
		}
		seat := s.ToMove()
		m, err := agent.Ask(ctx, agents[seat], s)
		if err == nil {
			buf = s.Legal(buf[:0])
			if !contains(buf, m) {
				err = fmt.Errorf("%w: %s chose an illegal move", agent.ErrForfeit, agents[seat].Name())
			}
		}
		if err != nil {
			if ctx.Err() != nil {
				return gr, ctx.Err()
			}
			// Any failure of an agent loses the game for its seat; the
			// match goes on.
			gr.ForfeitSeat, gr.Forfeit = seat, err.Error()
			gr.Outcome = othersWin(len(seating), seat)
			return gr, nil
		}
		gr.Moves = append(gr.Moves, s.FormatMove(m))
		s.Play(m)
		gr.Plies++
	}
	gr.Outcome = s.Outcome()
	return gr, nil
}

// othersWin is the outcome of a game some seats forfeited: the others
// share the win (a draw if none is left).
func othersWin(seats int, lost ...int) game.Outcome {
	var others []int
	for o := 0; o < seats; o++ {
		if !slices.Contains(lost, o) {
			others = append(others, o)
		}
	}
	if len(others) == 0 {
		return game.Outcome{Status: game.Drawn}
	}
	return game.WinOutcome(others...)
}

func contains(ms []game.Move, m game.Move) bool {
	for _, x := range ms {
		if x == m {
			return true
		}
	}
	return false
}

// add tallies one game into the per-agent scores. Each game hands out one
// point in all, game.Outcome.Reward's shares: a sole win is a win (W), a
// win shared by k seats — a tie for first, as after a forfeit in a game of
// more than two seats — and a drawn game are draws (D), worth 1/k and 1/n,
// and the rest losses. So every agent's W+D+L is its games, the W column
// adds up to at most the number of games, and Rate is Points per game.
func (r *Result) add(gr GameResult) {
	r.Games = append(r.Games, gr)
	r.Plies += gr.Plies
	if gr.ForfeitSeat >= 0 {
		r.Forfeits++
	}
	n := len(gr.Seats)
	winners := bits.OnesCount8(gr.Outcome.Winners)
	for seat, ai := range gr.Seats {
		sc := &r.Scores[ai]
		sc.Games++
		sc.Points += gr.Outcome.Reward(seat, n)
		switch {
		case gr.Outcome.Status == game.Drawn, gr.Outcome.IsWinner(seat) && winners > 1:
			sc.Draws++
		case gr.Outcome.IsWinner(seat):
			sc.Wins++
		default:
			sc.Losses++
		}
	}
}
