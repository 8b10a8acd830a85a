package main

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"math"
	"os"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/tabula-games/tabula/agent"
	"github.com/tabula-games/tabula/game"
	"github.com/tabula-games/tabula/ladder"
	"github.com/tabula-games/tabula/store"
)

// `tabula ladder` is the operator's side of the levels' ratings (docs/ai.md,
// Calibration): `rate` rates the arena logs of a calibration match as the
// site rates games, and `anchor` sets the rating a level is held at on a
// site's ladder of one game.

const ladderUsage = "ladder rate [--anchor LEVEL=RATING]… [--json] LOG… | ladder anchor [--db FILE|postgres://…] --game GAME --level LEVEL --rating R [--deviation D] [--inactive]"

func runLadder(args []string, _ io.Reader, stdout, stderr io.Writer) error {
	if len(args) == 0 || strings.HasPrefix(args[0], "-") && args[0] != "-h" && args[0] != "--help" {
		return fmt.Errorf("name a subcommand: %s", ladderUsage)
	}
	switch args[0] {
	case "rate":
		return runLadderRate(args[1:], stdout)
	case "anchor":
		return runLadderAnchor(args[1:], stdout)
	case "-h", "--help":
		// Both subcommands' flags, as every command's --help lists its own.
		rate, _, _ := ladderRateFlags()
		anchor, _ := ladderAnchorFlags()
		return helpError{flagList(rate) + flagList(anchor)}
	}
	return fmt.Errorf("unknown subcommand %q: %s", args[0], ladderUsage)
}

// anchorFlag collects --anchor LEVEL=RATING.
type anchorFlag map[string]float64

func (a anchorFlag) String() string { return "" }

func (a anchorFlag) Set(v string) error {
	name, r, ok := strings.Cut(v, "=")
	x, err := strconv.ParseFloat(r, 64)
	if !ok || name == "" || err != nil || math.IsNaN(x) || math.IsInf(x, 0) {
		return fmt.Errorf("want LEVEL=RATING, as in easy=1200")
	}
	a[name] = x
	return nil
}

// ladderRateRow is one player of `ladder rate --json`.
type ladderRateRow struct {
	Player    string  `json:"player"`
	Rating    float64 `json:"rating"`
	Deviation float64 `json:"deviation"`
	Fixed     bool    `json:"fixed,omitempty"`
	Games     int     `json:"games"`
	Wins      int     `json:"wins"`
	Draws     int     `json:"draws"`
	Losses    int     `json:"losses"`
}

// ladderRateReport is `ladder rate --json`: one match.
type ladderRateReport struct {
	Log     string          `json:"log"`
	Game    string          `json:"game"`
	Options string          `json:"options"`
	Seed    uint64          `json:"seed"`
	Games   int             `json:"games"`
	Players []ladderRateRow `json:"players"` // strongest first
}

func ladderRateFlags() (*flag.FlagSet, anchorFlag, *bool) {
	fs := flag.NewFlagSet("ladder rate", flag.ContinueOnError)
	anchors := anchorFlag{}
	fs.Var(anchors, "anchor", "rate: hold `LEVEL=RATING` fixed (repeatable; a player of the match, as its log names it)")
	asJSON := fs.Bool("json", false, "rate: print one JSON object per log, one a line")
	return fs, anchors, asJSON
}

func runLadderRate(args []string, stdout io.Writer) error {
	fs, anchors, asJSON := ladderRateFlags()
	logs, err := parseArgs(fs, args)
	if err != nil {
		return err
	}
	if len(logs) == 0 {
		return fmt.Errorf("ladder rate: name at least one arena log (tabula arena --log FILE)")
	}
	for _, path := range logs {
		rep, err := rateLog(path, anchors)
		if err != nil {
			return err
		}
		if *asJSON {
			data, _ := json.Marshal(rep)
			fmt.Fprintf(stdout, "%s\n", data)
			continue
		}
		fmt.Fprintf(stdout, "%s (%s), seed %d: %d games (%s)\n", rep.Game, rep.Options, rep.Seed, rep.Games, path)
		for i, p := range rep.Players {
			gap := ""
			if i+1 < len(rep.Players) {
				gap = fmt.Sprintf("  +%.0f over the next", p.Rating-rep.Players[i+1].Rating)
			}
			fixed := ""
			if p.Fixed {
				fixed = " (held)"
			}
			fmt.Fprintf(stdout, "  %-28s %5.0f ± %3.0f%s  %3d games  %3d-%d-%d%s\n", p.Player, p.Rating, p.Deviation, fixed,
				p.Games, p.Wins, p.Draws, p.Losses, gap)
		}
	}
	return nil
}

// rateLog reads an arena log — a match's header and its finished games; a
// last line cut short is a game still being written, and is left out — and
// rates it with ladder.RateMatch. It only reads the file, so it may read the
// log of a match that is running.
func rateLog(path string, anchors map[string]float64) (ladderRateReport, error) {
	f, err := os.Open(path)
	if err != nil {
		return ladderRateReport{}, err
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 0, 64<<10), 1<<20)
	var h arenaLogHeader
	var games []ladder.CalibrationGame
	for line := 0; sc.Scan(); line++ {
		if line == 0 {
			if err := json.Unmarshal(sc.Bytes(), &h); err != nil || len(h.Agents) < 2 {
				return ladderRateReport{}, fmt.Errorf("log %s: the first line is not an arena log header", path)
			}
			continue
		}
		var lg arenaLogGame
		if err := json.Unmarshal(sc.Bytes(), &lg); err != nil {
			continue // the line a running match is writing
		}
		games = append(games, ladder.CalibrationGame{Index: lg.Index, Seats: lg.Seats, Winners: lg.Winners})
	}
	if err := sc.Err(); err != nil {
		return ladderRateReport{}, fmt.Errorf("log %s: %w", path, err)
	}
	if len(h.Agents) == 0 {
		return ladderRateReport{}, fmt.Errorf("log %s: empty", path)
	}
	st, err := ladder.RateMatch(h.Agents, games, anchors)
	if err != nil {
		return ladderRateReport{}, fmt.Errorf("log %s: %w", path, err)
	}
	rep := ladderRateReport{Log: path, Game: h.Game, Options: h.Options, Seed: h.Seed, Games: len(games)}
	for _, s := range st {
		rep.Players = append(rep.Players, ladderRateRow{Player: s.Player, Rating: math.Round(s.Rating.R), Deviation: math.Round(s.Rating.RD),
			Fixed: s.Fixed, Games: s.Games, Wins: s.Wins, Draws: s.Draws, Losses: s.Losses})
	}
	slices.SortStableFunc(rep.Players, func(a, b ladderRateRow) int {
		switch {
		case a.Rating > b.Rating:
			return -1
		case a.Rating < b.Rating:
			return 1
		}
		return 0
	})
	return rep, nil
}

// ladderAnchorOpts are the flags of `ladder anchor`.
type ladderAnchorOpts struct {
	db, game, level *string
	rating, dev     *float64
	inactive        *bool
}

func ladderAnchorFlags() (*flag.FlagSet, ladderAnchorOpts) {
	fs := flag.NewFlagSet("ladder anchor", flag.ContinueOnError)
	return fs, ladderAnchorOpts{
		db:       fs.String("db", "tabula.db", "anchor: the site's SQLite database file (it must exist), or a postgres:// URL (TABULA_DB stands in for it)"),
		game:     fs.String("game", "", "anchor: the game whose ladder holds the level"),
		level:    fs.String("level", "", "anchor: the built-in level, one of "+strings.Join(agent.LevelOrder, ", ")),
		rating:   fs.Float64("rating", 0, "anchor: the rating the level is held at"),
		dev:      fs.Float64("deviation", ladder.AnchorDeviation, "anchor: the deviation it is held at"),
		inactive: fs.Bool("inactive", false, "anchor: take the level off the ladder's pairing (its rating stays)"),
	}
}

func runLadderAnchor(args []string, stdout io.Writer) error {
	fs, o := ladderAnchorFlags()
	db, gameName, level, r, dev, inactive := o.db, o.game, o.level, o.rating, o.dev, o.inactive
	pos, err := parseArgs(fs, args)
	if err != nil {
		return err
	}
	if len(pos) > 0 {
		return fmt.Errorf("ladder anchor takes no arguments, only flags (%q given)", pos)
	}
	if _, err := game.Lookup(*gameName); err != nil {
		return fmt.Errorf("--game: %w", err)
	}
	if !agent.IsLevel(*level) {
		return fmt.Errorf("--level %q: want one of %s", *level, strings.Join(agent.LevelOrder, ", "))
	}
	set := map[string]bool{}
	fs.Visit(func(f *flag.Flag) { set[f.Name] = true })
	if !set["rating"] || *r < 100 || *r > 4000 || math.IsNaN(*r) {
		return fmt.Errorf("--rating: want a rating from 100 to 4000")
	}
	if *dev <= 0 || *dev > 350 || math.IsNaN(*dev) {
		return fmt.Errorf("--deviation: want more than 0 and at most 350")
	}
	if v := os.Getenv("TABULA_DB"); v != "" && !set["db"] {
		*db = v
	}
	ctx := context.Background()
	st, err := openAdminStore(ctx, *db)
	if err != nil {
		return err
	}
	defer st.Close()
	ls, ok := st.(store.Ladder)
	if !ok {
		return errors.New("this store keeps no ladder")
	}
	if err := ls.SetLadderAnchor(ctx, *gameName, *level, *r, *dev, !*inactive, time.Now()); err != nil {
		return fmt.Errorf("ladder anchor: %w", err)
	}
	state := "active"
	if *inactive {
		state = "inactive"
	}
	fmt.Fprintf(stdout, "%s ladder: %s held at %.0f ± %.0f (%s)\n", *gameName, *level, *r, *dev, state)
	return nil
}
