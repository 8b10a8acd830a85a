package agent

import (
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/tabula-games/tabula/game"
)

// Levels maps the difficulty names to search settings. The steps are large
// on purpose — a player should feel each one: easy searches a few hundred
// iterations and picks among the moves it likes in proportion to how much
// it likes them (so it blunders now and then), medium thinks about a
// quarter of a second, hard about a second on both cores — and where the
// game has an exact solver (Sploof), hard lets it try each position first
// and plays the positions it proves perfectly. The games searched by UCT
// count medium's and hard's budgets in iterations of their own
// (topLevels); the times here serve a game without such budgets.
var Levels = map[string]MCTSConfig{
	"easy":   {Iters: 300, Temperature: 1, Epsilon: 0.1},
	"medium": {Time: 250 * time.Millisecond},
	"hard":   {Time: time.Second, Workers: 2, Solver: true},
}

// SamplingLevels are the difficulty levels of the sampling search used for
// games with hidden information. Budgets are iteration counts rather than
// times, so a level plays the same on a slow and a fast machine, and they
// are small because each iteration is a whole round of play.
var SamplingLevels = map[string]MCTSConfig{
	"easy":   {Iters: 10, Epsilon: 0.25},
	"medium": {Iters: 40},
	"hard":   {Iters: 100, Workers: 2},
}

// DefaultExecBudget is the time per move given to an outside program when
// the spec does not say.
const DefaultExecBudget = 5 * time.Second

// New builds an agent from its command-line spelling: "random", "greedy",
// "mcts", "mcts:time=1s", "mcts:iters=20000:c=0.5" (parameters separated
// by ':' or ','), "easy", "medium", "hard", "exec:./mybot --fast",
// "exec:time=2s:startup=30s:python3 bot.py" (parseExec). seed
// makes the agent's random choices reproducible.
func New(spec string, g game.Game, seed uint64) (Agent, error) {
	name, params, _ := strings.Cut(spec, ":")
	switch name {
	case "random", "greedy":
		if params != "" {
			return nil, fmt.Errorf("agent %q: %s takes no parameters", spec, name)
		}
		if name == "random" {
			return NewRandom(seed), nil
		}
		return NewGreedy(seed), nil
	case "exec":
		e, err := parseExec(params)
		if err != nil {
			return nil, fmt.Errorf("agent %q: %w", spec, err)
		}
		e.Game = g.Name()
		return e, nil
	case "mcts", "beginner", "easy", "casual", "club", "strong", "medium", "hard":
		cfg := levelConfig(g.Name(), name, isHidden(g))
		if err := parseMCTSParams(&cfg, params); err != nil {
			return nil, fmt.Errorf("agent %q: %w", spec, err)
		}
		label := spec
		if name == "mcts" && params == "" {
			label = "mcts:" + budgetText(cfg)
		}
		return newSearch(g, cfg, seed, label), nil
	}
	return nil, fmt.Errorf("unknown agent %q (agents: %s)", spec, strings.Join(Kinds(), ", "))
}

// execParams are the parameters an exec spec may give before its command.
var execParams = []string{"time", "grace", "startup"}

// parseExec reads "[time=D:][grace=D:][startup=D:]COMMAND": leading
// key=value pieces, each ended by ':', whose key is one of execParams; the
// rest, from the first piece that is not one, is the command (which may
// hold ':', ',' and '=' freely).
func parseExec(params string) (*Exec, error) {
	e := NewExec("", DefaultExecBudget)
	rest := params
	for {
		piece, after, found := strings.Cut(rest, ":")
		if !found {
			break
		}
		k, v, ok := strings.Cut(piece, "=")
		if !ok || !slices.Contains(execParams, k) {
			break
		}
		d, err := time.ParseDuration(v)
		if err != nil || d <= 0 {
			return nil, fmt.Errorf("exec parameter %s=%q: want a positive duration such as 5s", k, v)
		}
		switch k {
		case "time":
			e.budget = d
		case "grace":
			e.Grace = d
		case "startup":
			e.Startup = d
		}
		rest = after
	}
	if strings.TrimSpace(rest) == "" {
		return nil, fmt.Errorf("exec needs a command, as in exec:./mybot or exec:time=2s:startup=30s:python3 bot.py")
	}
	e.command = rest
	return e, nil
}

// newSearch returns the search agent that fits g: MCTS on the true state
// for perfect-information games, sampling search for the others.
func newSearch(g game.Game, cfg MCTSConfig, seed uint64, label string) Agent {
	if isHidden(g) {
		a := NewSampling(cfg, seed)
		a.name = label
		return a
	}
	m := NewMCTS(cfg, seed)
	m.name = label
	return m
}

// isHidden reports whether g's states hide information from some seat.
func isHidden(g game.Game) bool { return g.Facts().HiddenInfo }

func budgetText(cfg MCTSConfig) string {
	switch {
	case cfg.Time > 0 && cfg.Iters > 0:
		return fmt.Sprintf("time=%v:iters=%d", cfg.Time, cfg.Iters)
	case cfg.Time > 0:
		return fmt.Sprintf("time=%v", cfg.Time)
	}
	return fmt.Sprintf("iters=%d", cfg.Iters)
}

func parseMCTSParams(cfg *MCTSConfig, params string) error {
	if params == "" {
		return nil
	}
	timeSet, itersSet := false, false
	exchangeSet, contactSet := false, false
	for _, kv := range strings.FieldsFunc(params, func(r rune) bool { return r == ':' || r == ',' }) {
		k, v, ok := strings.Cut(kv, "=")
		if !ok {
			return fmt.Errorf("parameter %q: want key=value", kv)
		}
		var err error
		switch k {
		case "time":
			cfg.Time, err = time.ParseDuration(v)
			if err == nil && cfg.Time <= 0 {
				err = fmt.Errorf("must be positive")
			}
			timeSet = true
		case "iters":
			cfg.Iters, err = positive(v)
			itersSet = true
		case "workers":
			cfg.Workers, err = positive(v)
		case "c":
			cfg.C, err = number(v)
			if err == nil && cfg.C <= 0 {
				err = fmt.Errorf("must be positive")
			}
		case "temp":
			cfg.Temperature, err = number(v)
			if err == nil && cfg.Temperature < 0 {
				err = fmt.Errorf("must not be negative")
			}
		case "playout":
			cfg.UniformPlayouts, err = v == "uniform", nil
			if v != "uniform" && v != "game" {
				err = fmt.Errorf("want uniform|game")
			}
		case "k":
			cfg.PlayoutK, err = positive(v)
		case "imb":
			cfg.Minimax, err = number(v)
			if err == nil && (cfg.Minimax < 0 || cfg.Minimax > 1) {
				err = fmt.Errorf("want 0…1")
			}
		case "exchange":
			cfg.Exchange, err = parseSeekMode(v)
			exchangeSet = true
		case "contact":
			cfg.Contact, err = parseSeekMode(v)
			contactSet = true
		case "boost":
			cfg.StallBoost, err = positive(v)
		case "stuck":
			cfg.Stuck, err = number(v)
			if err == nil && (cfg.Stuck < 0 || cfg.Stuck > 1) {
				err = fmt.Errorf("want 0…1")
			}
		case "bias":
			cfg.Bias, err = number(v)
			if err == nil && cfg.Bias < 0 {
				err = fmt.Errorf("must not be negative")
			}
		case "contempt":
			if v == "off" {
				cfg.Contempt = -1
				break
			}
			cfg.Contempt, err = number(v)
			if err == nil && (cfg.Contempt < 0 || cfg.Contempt > 0.5) {
				err = fmt.Errorf("want 0…0.5 or off")
			}
			if cfg.Contempt == 0 {
				cfg.Contempt = -1 // none, rather than the game's
			}
		case "eps":
			cfg.Epsilon, err = number(v)
			if err == nil && (cfg.Epsilon < 0 || cfg.Epsilon > 1) {
				err = fmt.Errorf("want 0…1")
			}
		case "plies":
			if v == "full" {
				cfg.PlayoutPlies = -1
			} else {
				cfg.PlayoutPlies, err = positive(v)
			}
		case "tt":
			cfg.NoTT, err = v == "off", nil
			if v != "on" && v != "off" {
				err = fmt.Errorf("want on|off")
			}
		case "solver":
			cfg.Solver, err = v == "on", nil
			if v != "on" && v != "off" {
				err = fmt.Errorf("want on|off")
			}
		case "solverkeep":
			cfg.KeepSolver, err = v == "on", nil
			if v != "on" && v != "off" {
				err = fmt.Errorf("want on|off")
			}
		case "solvernodes":
			var n int
			n, err = positive(v)
			cfg.SolverNodes = int64(n)
		case "stall":
			if v == "off" {
				cfg.Stall = -1
			} else {
				cfg.Stall, err = positive(v)
			}
		case "stallat":
			cfg.StallPlayoutsOnly, err = v == "playout", nil
			if v != "tree" && v != "playout" {
				err = fmt.Errorf("want tree|playout")
			}
		case "rep":
			cfg.NoRepetition, err = v == "off", nil
			if v != "on" && v != "off" {
				err = fmt.Errorf("want on|off")
			}
		case "keep":
			if v == "all" {
				cfg.KeepBytes = -1
				break
			}
			var kib int
			kib, err = positive(v)
			cfg.KeepBytes = int64(kib) << 10
			if err != nil {
				err = fmt.Errorf("want KiB (a positive integer) or all")
			}
		case "edges":
			cfg.EdgeBlocks, err = v == "blocks", nil
			if v != "all" && v != "blocks" {
				err = fmt.Errorf("want blocks|all")
			}
		case "reuse":
			cfg.NoReuse, err = v == "off", nil
			if v != "on" && v != "off" {
				err = fmt.Errorf("want on|off")
			}
		default:
			return fmt.Errorf("unknown parameter %q (time, iters, workers, c, temp, eps, playout, k, bias, imb, exchange, contact, contempt, plies, tt, reuse, edges, keep, solver, solverkeep, solvernodes, stall, stallat, boost, stuck, rep)", k)
		}
		if err != nil {
			return fmt.Errorf("parameter %s=%q: %v", k, v, err)
		}
	}
	// One way of scoring given alone replaces a level's other one, as a
	// budget given alone replaces the level's: "hard:contact=on" is the hard
	// level seeking contact, not a clash with the exchanges it seeks itself.
	if contactSet && !exchangeSet && cfg.Contact != SeekOff {
		cfg.Exchange = SeekOff
	}
	if exchangeSet && !contactSet && cfg.Exchange != SeekOff {
		cfg.Contact = SeekOff
	}
	if cfg.Contact != SeekOff && cfg.Exchange != SeekOff {
		return fmt.Errorf("contact=%s and exchange=%s are two ways of scoring the search's positions: choose one", cfg.Contact, cfg.Exchange)
	}
	// A budget given alone replaces the default one rather than adding to it.
	if itersSet && !timeSet {
		cfg.Time = 0
	}
	if timeSet && !itersSet {
		cfg.Iters = 0
	}
	return nil
}

// number reads a finite decimal number: ParseFloat alone also takes "NaN"
// and "Inf", which pass every range check and leave a search that scores
// nothing.
func number(v string) (float64, error) {
	x, err := strconv.ParseFloat(v, 64)
	if err != nil || math.IsNaN(x) || math.IsInf(x, 0) {
		return 0, fmt.Errorf("want a number")
	}
	return x, nil
}

func positive(v string) (int, error) {
	n, err := strconv.Atoi(v)
	if err != nil || n <= 0 {
		return 0, fmt.Errorf("want a positive integer")
	}
	return n, nil
}

// Kinds lists the agent spellings New accepts, for help texts.
func Kinds() []string {
	return []string{"human", "random", "greedy", "mcts[:time=1s|:iters=N]", "beginner", "easy", "casual", "club", "strong", "medium", "hard", "exec:[time=5s:][startup=20s:]COMMAND"}
}

// SplitList splits a comma-separated list of agents ("mcts:time=200ms,c=0.5,
// greedy"): a piece that is a bare key=value continues the agent before it.
func SplitList(list string) []string {
	var out []string
	for _, p := range strings.Split(list, ",") {
		p = strings.TrimSpace(p)
		if p == "" {
			continue
		}
		head, _, _ := strings.Cut(p, ":")
		if len(out) > 0 && strings.Contains(head, "=") && !strings.HasPrefix(out[len(out)-1], "exec:") {
			out[len(out)-1] += "," + p
			continue
		}
		out = append(out, p)
	}
	return out
}

// parseSeekMode is the mode an agent spec names.
func parseSeekMode(name string) (SeekMode, error) {
	for m, n := range seekModeNames {
		if n == name {
			return SeekMode(m), nil
		}
	}
	return SeekOff, fmt.Errorf("want %s", strings.Join(seekModeNames[:], "|"))
}
