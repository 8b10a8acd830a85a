package main

import (
	"container/heap"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"math"
	"math/bits"
	"os"
	"os/signal"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/tabula-games/tabula/agent"
	"github.com/tabula-games/tabula/game"
	"github.com/tabula-games/tabula/tournament"
)

// runTournament is `tabula tournament simulate`: a whole tournament between
// bots on this machine, with the pairing engines of package tournament, its
// standings printed and, for a Swiss, its TRF report written.
func runTournament(args []string, stdin io.Reader, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("tournament simulate", flag.ContinueOnError)
	var opts listFlag
	fs.Var(&opts, "o", "game option key=value (repeatable)")
	format := fs.String("format", "", "swiss, arena, roundrobin or tables (Skyjo tables of 3 to 8)")
	gameName := fs.String("game", "", "the game: "+strings.Join(game.Names(), ", "))
	players := fs.Int("players", 0, "number of players")
	rounds := fs.Int("rounds", 0, "rounds (swiss: default ⌈log2 players⌉; roundrobin: default all; tables: default 3)")
	trf := fs.String("trf", "", "write the Swiss tournament's TRF report to this file (-: standard output, the standings then go to standard error)")
	seed := fs.Uint64("seed", 1, "seed for the games and the bots")
	agents := fs.String("agents", "greedy,random", "the bots, given to the players in turn (player 1 the first, …)")
	double := fs.Bool("double", false, "roundrobin: a double round robin")
	minutes := fs.Float64("minutes", 60, "arena: its length in simulated minutes (a game lasts 10 s plus 2 s a ply)")
	berserk := fs.Float64("berserk", 0.1, "arena: how often a bot berserks (0 to 1)")
	maxTable := fs.Int("max-table", tournament.MaxTable, "tables: the most players at a table (3 to 8)")
	if len(args) > 0 && (args[0] == "-h" || args[0] == "--help" || args[0] == "help") {
		_, err := parseArgs(fs, []string{"--help"}) // the usage with every flag
		return err
	}
	if len(args) == 0 || args[0] != "simulate" {
		return errors.New("want the subcommand simulate: tabula tournament simulate --format swiss|arena|roundrobin|tables --game GAME --players N")
	}
	pos, err := parseArgs(fs, args[1:])
	if err != nil {
		return err
	}
	if len(pos) > 0 {
		return fmt.Errorf("unexpected arguments %q", pos)
	}
	g, err := game.Lookup(*gameName)
	if err != nil {
		return fmt.Errorf("--game: %w", err)
	}
	if *players < 2 || *players > 100_000 {
		return fmt.Errorf("--players: want 2 or more players, got %d", *players)
	}
	if *rounds < 0 {
		return fmt.Errorf("--rounds: want a positive number, got %d", *rounds)
	}
	if *berserk < 0 || *berserk > 1 || math.IsNaN(*berserk) {
		return fmt.Errorf("--berserk: want a probability from 0 to 1, got %v", *berserk)
	}
	list := agent.SplitList(*agents)
	if len(list) == 0 {
		return errors.New("--agents: want at least one bot, as in --agents greedy,random")
	}
	for _, spec := range list { // fail fast on a bad spelling
		a, err := agent.New(spec, g, 0)
		if err != nil {
			return fmt.Errorf("--agents: %w", err)
		}
		agent.Close(a)
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	sim := &simulation{ctx: ctx, g: g, agents: list, n: *players, seed: *seed, out: stdout}
	if *trf == "-" {
		sim.out = stderr
	} else if *trf != "" && *format != "swiss" {
		return errors.New("--trf: only a Swiss tournament has a TRF report")
	}
	if *format == "tables" {
		if g.Name() != "skyjo" {
			return fmt.Errorf("--format tables: tables are for Skyjo (3 to 8 a table), not %s", g.Name())
		}
		if sim.opts, err = game.ParseOptions(g, opts); err != nil {
			return err
		}
		if *rounds == 0 {
			*rounds = 3
		}
		return sim.tables(*rounds, *maxTable)
	}
	if sim.opts, err = twoSeats(g, opts); err != nil {
		return err
	}
	switch *format {
	case "swiss":
		if *players > tournament.MaxSwissPlayers {
			return fmt.Errorf("--players: a Swiss has at most %d players", tournament.MaxSwissPlayers)
		}
		if *rounds == 0 {
			*rounds = max(1, bits.Len(uint(*players-1)))
		}
		return sim.swiss(*rounds, *trf, stdout)
	case "roundrobin":
		if *players > tournament.MaxRoundRobinPlayers {
			return fmt.Errorf("--players: a round robin has at most %d players", tournament.MaxRoundRobinPlayers)
		}
		all := tournament.RoundRobinRounds(*players, *double)
		if *rounds == 0 {
			*rounds = all
		}
		if *rounds > all {
			return fmt.Errorf("--rounds: a round robin of %d players has %d rounds", *players, all)
		}
		return sim.roundRobin(*rounds, *double)
	case "arena":
		if *rounds != 0 {
			return errors.New("--rounds: an arena has no rounds; --minutes sets its length")
		}
		if !(*minutes > 0 && *minutes <= 24*60) {
			return fmt.Errorf("--minutes: want a length from 0 to 1440 minutes, got %v", *minutes)
		}
		return sim.arena(time.Duration(*minutes*float64(time.Minute)), *berserk)
	}
	return fmt.Errorf("--format: want swiss, arena, roundrobin or tables, got %q", *format)
}

// twoSeats returns the options for a two-player game of g: Skyjo is set to
// two players, a game that cannot seat two is refused.
func twoSeats(g game.Game, settings []string) (game.Options, error) {
	o, err := game.ParseOptions(g, settings)
	if err != nil {
		return nil, err
	}
	f := g.Facts()
	if f.MinPlayers != f.MaxPlayers {
		if err := o.Set(g, game.PlayersOption, "2"); err != nil {
			return nil, err
		}
	}
	if n, err := game.NumPlayers(g, o); err != nil || n != 2 {
		return nil, fmt.Errorf("%s is not a two-player game: use --format tables", g.Name())
	}
	return o, nil
}

type simulation struct {
	ctx    context.Context
	g      game.Game
	opts   game.Options
	agents []string
	n      int
	seed   uint64
	games  uint64 // games played, which seeds the next
	out    io.Writer
	pair   []time.Duration // time spent in each pairing
}

func (s *simulation) agentOf(p int) string { return s.agents[p%len(s.agents)] }

func (s *simulation) name(p int) string { return fmt.Sprintf("P%d %s", p+1, s.agentOf(p)) }

// play plays one game between the players seated in order and returns its
// outcome and, for games that keep scores, every seat's score. An agent
// that fails loses the game (its seat's score is then meaningless).
func (s *simulation) play(opts game.Options, seated []int) (game.Outcome, []int, int, error) {
	s.games++
	seed := s.seed*1_000_003 + s.games
	st, err := s.g.New(opts, seed)
	if err != nil {
		return game.Outcome{}, nil, 0, err
	}
	bots := make([]agent.Agent, len(seated))
	defer func() {
		for _, a := range bots {
			if a != nil {
				agent.Close(a)
			}
		}
	}()
	for seat, p := range seated {
		if bots[seat], err = agent.New(s.agentOf(p), s.g, seed*16+uint64(seat)+1); err != nil {
			return game.Outcome{}, nil, 0, err
		}
	}
	plies := 0
	var legal []game.Move
	for !st.Outcome().Over() {
		if err := s.ctx.Err(); err != nil {
			return game.Outcome{}, nil, 0, err
		}
		seat := st.ToMove()
		m, err := agent.Ask(s.ctx, bots[seat], st)
		legal = st.Legal(legal[:0])
		if err != nil || !containsMove(legal, m) {
			if s.ctx.Err() != nil {
				return game.Outcome{}, nil, 0, s.ctx.Err()
			}
			var others []int
			for o := range seated {
				if o != seat {
					others = append(others, o)
				}
			}
			return game.WinOutcome(others...), forfeitScores(st, seat), plies, nil
		}
		st.Play(m)
		plies++
	}
	var scores []int
	if sc, ok := st.(game.Scorer); ok {
		scores = sc.Scores()
	}
	return st.Outcome(), scores, plies, nil
}

// forfeitScores puts a forfeiting seat last in a scored game.
func forfeitScores(st game.State, seat int) []int {
	sc, ok := st.(game.Scorer)
	if !ok {
		return nil
	}
	scores := append([]int(nil), sc.Scores()...)
	worst := 0
	for _, v := range scores {
		worst = max(worst, v)
	}
	scores[seat] = worst + 1
	return scores
}

func containsMove(ms []game.Move, m game.Move) bool {
	for _, x := range ms {
		if x == m {
			return true
		}
	}
	return false
}

// result is a two-seat outcome from White's (seat 0's) side.
func result(o game.Outcome) tournament.Result {
	switch {
	case o.Status == game.Drawn || o.IsWinner(0) && o.IsWinner(1):
		return tournament.Draw
	case o.IsWinner(0):
		return tournament.WhiteWins
	}
	return tournament.BlackWins
}

func (s *simulation) header(format, detail string) {
	fmt.Fprintf(s.out, "%s · %s · %d players · %s · bots %s\n", format, s.g.Name(), s.n, detail, strings.Join(s.agents, ", "))
}

// timed runs a pairing and remembers how long it took.
func timed[T any](s *simulation, f func() (T, error)) (T, error) {
	t0 := time.Now()
	v, err := f()
	s.pair = append(s.pair, time.Since(t0))
	return v, err
}

func (s *simulation) pairingReport(what string) {
	var total, longest time.Duration
	for _, d := range s.pair {
		total += d
		longest = max(longest, d)
	}
	fmt.Fprintf(s.out, "pairing: %d %s, %s in all, the longest %s\n", len(s.pair), what, roundDur(total), roundDur(longest))
}

func roundDur(d time.Duration) time.Duration {
	if d > time.Second {
		return d.Round(time.Millisecond)
	}
	return d.Round(time.Microsecond)
}

func (s *simulation) playRound(rd *tournament.Round) error {
	for i := range rd.Pairings {
		p := &rd.Pairings[i]
		o, _, _, err := s.play(s.opts, []int{p.White, p.Black})
		if err != nil {
			return err
		}
		p.Result = result(o)
	}
	return nil
}

func (s *simulation) swiss(rounds int, trf string, stdout io.Writer) error {
	all := make([]int, s.n)
	for i := range all {
		all[i] = i
	}
	var hist []tournament.Round
	for r := 0; r < rounds; r++ {
		rd, err := timed(s, func() (tournament.Round, error) {
			return tournament.PairSwiss(s.n, hist, all, tournament.SwissOptions{LastRound: r == rounds-1})
		})
		if errors.Is(err, tournament.ErrNoPairing) {
			s.pair = s.pair[:len(s.pair)-1]
			fmt.Fprintf(s.out, "round %d cannot be paired (everyone has met everyone they may): the tournament ends after %d rounds\n", r+1, r)
			break
		}
		if err != nil {
			return err
		}
		if err := s.playRound(&rd); err != nil {
			return err
		}
		hist = append(hist, rd)
	}
	s.header("swiss", fmt.Sprintf("%d rounds", len(hist)))
	if err := s.printStandings(hist, tournament.SwissTieBreaks); err != nil {
		return err
	}
	s.pairingReport("rounds")
	if trf == "" {
		return nil
	}
	var players []tournament.TRFPlayer
	for p := 0; p < s.n; p++ {
		players = append(players, tournament.TRFPlayer{Name: s.name(p)})
	}
	info := tournament.TRFInfo{Name: fmt.Sprintf("Simulated Swiss (%s)", s.g.Name()), Start: time.Now().UTC().Format("2006/01/02"),
		TimeControl: "bots", Rounds: rounds}
	if trf == "-" {
		return tournament.WriteTRF(stdout, info, players, hist)
	}
	f, err := os.Create(trf)
	if err != nil {
		return err
	}
	if err := tournament.WriteTRF(f, info, players, hist); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

func (s *simulation) roundRobin(rounds int, double bool) error {
	var hist []tournament.Round
	for r := 0; r < rounds; r++ {
		rd, err := timed(s, func() (tournament.Round, error) { return tournament.RoundRobinRound(s.n, r, double) })
		if err != nil {
			return err
		}
		if err := s.playRound(&rd); err != nil {
			return err
		}
		hist = append(hist, rd)
	}
	kind := "single"
	if double {
		kind = "double"
	}
	s.header("roundrobin", fmt.Sprintf("%s, %d rounds", kind, rounds))
	if err := s.printStandings(hist, tournament.RoundRobinTieBreaks); err != nil {
		return err
	}
	s.pairingReport("rounds")
	return nil
}

func (s *simulation) printStandings(hist []tournament.Round, tbs []tournament.TieBreak) error {
	st, err := tournament.Standings(s.n, hist, tbs)
	if err != nil {
		return err
	}
	tw := tabwriter.NewWriter(s.out, 0, 0, 2, ' ', tabwriter.AlignRight)
	head := "rank\tplayer\tpoints\t+\t=\t-\tbyes"
	for _, tb := range tbs {
		head += "\t" + string(tb)
	}
	fmt.Fprintln(tw, head+"\t")
	for _, x := range st {
		line := fmt.Sprintf("%d\t%s\t%.1f\t%d\t%d\t%d\t%d", x.Rank, s.name(x.Player), x.Points, x.Wins, x.Draws, x.Losses, x.Byes)
		for _, v := range x.TieBreaks {
			line += fmt.Sprintf("\t%.2f", v)
		}
		fmt.Fprintln(tw, line+"\t")
	}
	return tw.Flush()
}

// arenaEvent is a game in progress in the simulated arena.
type arenaEvent struct {
	end  time.Duration
	game tournament.ArenaGame
}

type arenaQueue []arenaEvent

func (q arenaQueue) Len() int           { return len(q) }
func (q arenaQueue) Less(i, j int) bool { return q[i].end < q[j].end }
func (q arenaQueue) Swap(i, j int)      { q[i], q[j] = q[j], q[i] }
func (q *arenaQueue) Push(x any)        { *q = append(*q, x.(arenaEvent)) }
func (q *arenaQueue) Pop() any {
	old := *q
	x := old[len(old)-1]
	*q = old[:len(old)-1]
	return x
}

// arenaWave is how often the simulated arena pairs its free players.
const arenaWave = 10 * time.Second

// arena simulates an arena of the given length on a simulated clock: a
// game lasts 10 s plus 2 s a ply; players who finish are paired again at
// the next wave; games still running at the end are finished and counted.
func (s *simulation) arena(length time.Duration, berserk float64) error {
	a := tournament.NewArena(tournament.ArenaOptions{Clock: true})
	for p := 0; p < s.n; p++ {
		if err := a.Join(p, 1500); err != nil {
			return err
		}
	}
	rng := game.NewRNG(s.seed)
	var q arenaQueue
	start := func(now time.Duration) error {
		prs, err := timed(s, a.Pair)
		if err != nil {
			return err
		}
		for _, pr := range prs {
			o, _, plies, err := s.play(s.opts, []int{pr.White, pr.Black})
			if err != nil {
				return err
			}
			g := tournament.ArenaGame{White: pr.White, Black: pr.Black, Result: result(o),
				WhiteBerserk: rng.Float64() < berserk, BlackBerserk: rng.Float64() < berserk}
			heap.Push(&q, arenaEvent{now + 10*time.Second + time.Duration(plies)*2*time.Second, g})
		}
		return nil
	}
	// The arena pairs whoever is free every wave (as lichess pairs every
	// few seconds), so that players who finish near together meet new
	// opponents.
	for now := time.Duration(0); now < length; now += arenaWave {
		for q.Len() > 0 && q[0].end <= now {
			if err := a.Finish(heap.Pop(&q).(arenaEvent).game); err != nil {
				return err
			}
		}
		if err := start(now); err != nil {
			return err
		}
	}
	a.End()
	for q.Len() > 0 { // games still running at the end count
		if err := a.Finish(heap.Pop(&q).(arenaEvent).game); err != nil {
			return err
		}
	}
	s.header("arena", fmt.Sprintf("%s simulated, %d games", length, len(a.Games())))
	tw := tabwriter.NewWriter(s.out, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "rank\tplayer\tpoints\tgames\t+\t=\t-\tberserk\tfire\tsheet\t")
	for _, x := range a.Standings() {
		fire := ""
		if x.OnFire {
			fire = "on fire"
		}
		sheet := strings.Trim(strings.Join(strings.Fields(fmt.Sprint(x.Sheet)), ""), "[]")
		if len(sheet) > 40 {
			sheet = sheet[:40] + "…"
		}
		fmt.Fprintf(tw, "%d\t%s\t%d\t%d\t%d\t%d\t%d\t%d\t%s\t%s\t\n", x.Rank, s.name(x.Player), x.Points, x.Games, x.Wins, x.Draws, x.Losses, x.Berserks, fire, sheet)
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	s.pairingReport("waves")
	return nil
}

// tables plays Skyjo table rounds: players seated by standings (by number
// in round 1), one game a table, placement points.
func (s *simulation) tables(rounds, maxTable int) error {
	if _, err := tournament.TableSizes(s.n, maxTable); err != nil {
		return err
	}
	order := make([]int, s.n)
	for i := range order {
		order[i] = i
	}
	var hist [][]tournament.TableGame
	for r := 0; r < rounds; r++ {
		tables, err := timed(s, func() ([][]int, error) { return tournament.SeatTables(order, maxTable) })
		if err != nil {
			return err
		}
		var rd []tournament.TableGame
		for _, tb := range tables {
			opts := game.Options{}
			for k, v := range s.opts {
				opts[k] = v
			}
			if err := opts.Set(s.g, game.PlayersOption, fmt.Sprint(len(tb))); err != nil {
				return err
			}
			_, scores, _, err := s.play(opts, tb)
			if err != nil {
				return err
			}
			if len(scores) != len(tb) {
				return fmt.Errorf("%s keeps no scores a seat", s.g.Name())
			}
			rd = append(rd, tournament.TableGame{Players: tb, Totals: scores})
		}
		hist = append(hist, rd)
		st, err := tournament.TableStandings(s.n, hist)
		if err != nil {
			return err
		}
		for i, x := range st {
			order[i] = x.Player
		}
	}
	st, err := tournament.TableStandings(s.n, hist)
	if err != nil {
		return err
	}
	sizes, _ := tournament.TableSizes(s.n, maxTable)
	s.header("tables", fmt.Sprintf("%d rounds at tables of %s", rounds, strings.Trim(fmt.Sprint(sizes), "[]")))
	tw := tabwriter.NewWriter(s.out, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "rank\tplayer\tpoints\tgames\tfirsts\tskyjo total\t")
	for _, x := range st {
		fmt.Fprintf(tw, "%d\t%s\t%.1f\t%d\t%d\t%d\t\n", x.Rank, s.name(x.Player), x.Points, x.Games, x.Wins, x.SkyjoTotal)
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	s.pairingReport("seatings")
	return nil
}
