package main

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tabula-games/tabula/agent"
	"github.com/tabula-games/tabula/ladder"
	"github.com/tabula-games/tabula/store"
	"github.com/tabula-games/tabula/store/sqlite"
)

// TestCalibratedTableMatchesTheLogs: the levels' ratings the site shows
// (ladder.Calibrated) are what `tabula ladder rate` makes of the committed
// calibration logs, level by level — the table is the run's result, not a
// number typed in. The levels up to strong come from ladder-GAME.log with
// easy held at 1200; medium and hard, where a game has a log of its top
// levels (ladder-GAME-top.log), from that log with strong held at the
// rating the first log gave it, the log naming them by their iteration
// budgets (medium:iters=N), which must be the levels' own.
func TestCalibratedTableMatchesTheLogs(t *testing.T) {
	if len(ladder.Calibrated) == 0 {
		t.Fatal("no calibrated levels")
	}
	rate := func(game, log string, anchor string) map[string]ladderRateRow {
		t.Helper()
		code, out, errs := tabula(t, "", "ladder", "rate", "--json", "--anchor", anchor, log)
		if code != 0 {
			t.Fatalf("%s: ladder rate %s: exit %d: %s", game, log, code, errs)
		}
		var rep ladderRateReport
		if err := json.Unmarshal([]byte(out), &rep); err != nil {
			t.Fatalf("%s: %v: %s", game, err, out)
		}
		if rep.Game != game {
			t.Errorf("%s: %s is of %s", game, log, rep.Game)
		}
		rated := map[string]ladderRateRow{}
		for _, p := range rep.Players {
			rated[p.Player] = p
		}
		return rated
	}
	for game, levels := range ladder.Calibrated {
		dir := filepath.Join("..", "..", "docs", "measurements")
		rated := rate(game, filepath.Join(dir, "ladder-"+game+".log"), ladder.CalibrationScale+"=1200")
		top := map[string]ladderRateRow{}
		if c, ok := levels[ladder.TopScale]; ok {
			if _, err := os.Stat(filepath.Join(dir, "ladder-"+game+"-top.log")); err == nil {
				top = rate(game, filepath.Join(dir, "ladder-"+game+"-top.log"), fmt.Sprintf("%s=%g", ladder.TopScale, c.Rating))
			}
		}
		for level, c := range levels {
			p, ok := rated[level]
			if !ok {
				name := level
				if cfg, ok := agent.LevelConfig(game, level); ok && cfg.Iters > 0 {
					name = fmt.Sprintf("%s:iters=%d", level, cfg.Iters)
					// The level's minimax weight is named too, so that a
					// log of the level before it had one is not taken for
					// the level as it plays now.
					if cfg.Minimax > 0 {
						name += fmt.Sprintf(":imb=%g", cfg.Minimax)
					}
					// And whether it seeks exchanges or contact, boosts its
					// search where the game stands still or values stuck
					// positions nearer a draw, for the same reason.
					if cfg.Exchange != agent.SeekOff {
						name += ":exchange=" + cfg.Exchange.String()
					}
					if cfg.Contact != agent.SeekOff {
						name += ":contact=" + cfg.Contact.String()
					}
					if cfg.StallBoost > 1 {
						name += fmt.Sprintf(":boost=%d", cfg.StallBoost)
					}
					if cfg.Stuck > 0 {
						name += fmt.Sprintf(":stuck=%g", cfg.Stuck)
					}
				}
				if p, ok = top[name]; !ok {
					t.Errorf("%s: %s is in the table but did not play in its logs (as %s)", game, level, name)
					continue
				}
			}
			if p.Rating != c.Rating || p.Deviation != c.Deviation {
				t.Errorf("%s %s: table %.0f ± %.0f, the log says %.0f ± %.0f", game, level, c.Rating, c.Deviation, p.Rating, p.Deviation)
			}
		}
		if c := levels[ladder.CalibrationScale]; c.Rating != ladder.CalibrationScaleRating {
			t.Errorf("%s: the scale's level %s at %.0f", game, ladder.CalibrationScale, c.Rating)
		}
	}
}

// TestLadderRate: a log whose last line is cut short (a match still
// writing it) is rated on its whole games; the held level stays put and
// the winner rises above it.
func TestLadderRate(t *testing.T) {
	log := filepath.Join(t.TempDir(), "m.log")
	lines := []string{`{"game":"sploof","options":"","agents":["easy","club"],"seed":1}`}
	for i := range 10 {
		w := 1 // club wins, from whichever seat it holds
		seats := "[0,1]"
		if i%2 == 1 {
			seats, w = "[1,0]", 0
		}
		lines = append(lines, `{"index":`+string(rune('0'+i))+`,"seats":`+seats+`,"result":"won","winners":[`+string(rune('0'+w))+`],"plies":20,"forfeitSeat":-1}`)
	}
	data := strings.Join(lines, "\n") + "\n" + `{"index":10,"seats":[0,` // cut short
	if err := os.WriteFile(log, []byte(data), 0o644); err != nil {
		t.Fatal(err)
	}
	code, out, errs := tabula(t, "", "ladder", "rate", log, "--anchor", "easy=1200")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	if !strings.Contains(out, "10 games") || !strings.Contains(out, "1200 ±  50 (held)") || !strings.Contains(out, "0-0-10") {
		t.Errorf("output:\n%s", out)
	}
	code, out, _ = tabula(t, "", "ladder", "rate", "--json", log)
	var rep ladderRateReport
	if code != 0 || json.Unmarshal([]byte(out), &rep) != nil || rep.Players[0].Player != "club" || rep.Players[0].Wins != 10 {
		t.Errorf("--json: exit %d, %s", code, out)
	}
	if code, _, errs := tabula(t, "", "ladder", "rate", log, "--anchor", "medium=1500"); code == 0 || !strings.Contains(errs, "medium") {
		t.Errorf("an anchor not in the match: exit %d, %q", code, errs)
	}
}

// TestLadderAnchor: the operator's command sets a level's rating on a
// site's ladder, puts a level that was not there on it, and refuses an
// unknown level, game or rating without touching the store.
func TestLadderAnchor(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "tabula.db")
	st, err := sqlite.Open(ctx, path, sqlite.Options{NoSync: true})
	if err != nil {
		t.Fatal(err)
	}
	st.Close()
	code, out, errs := tabula(t, "", "ladder", "anchor", "--db", path, "--game", "sploof", "--level", "casual", "--rating", "1430", "--deviation", "80")
	if code != 0 || out != "sploof ladder: casual held at 1430 ± 80 (active)\n" {
		t.Fatalf("exit %d, %q, %q", code, out, errs)
	}
	code, _, errs = tabula(t, "", "ladder", "anchor", "--db", path, "--game", "sploof", "--level", "casual", "--rating", "1450")
	if code != 0 {
		t.Fatalf("setting it again: %s", errs)
	}
	for _, bad := range [][]string{
		{"--game", "sploof", "--level", "grandmaster", "--rating", "1500"},
		{"--game", "chess", "--level", "easy", "--rating", "1500"},
		{"--game", "sploof", "--level", "easy"},
		{"--game", "sploof", "--level", "easy", "--rating", "NaN"},
		{"--game", "sploof", "--level", "easy", "--rating", "1500", "--deviation", "0"},
	} {
		code, _, errs := tabula(t, "", append([]string{"ladder", "anchor", "--db", path}, bad...)...)
		if code == 0 || strings.Count(strings.TrimSpace(errs), "\n") != 0 {
			t.Errorf("%v: exit %d, %q: want one line and a failure", bad, code, errs)
		}
	}
	st, err = sqlite.Open(ctx, path, sqlite.Options{NoSync: true})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	es, err := store.Ladder(st).LadderEntries(ctx, "sploof")
	if err != nil {
		t.Fatal(err)
	}
	if len(es) != 1 || es[0].Level != "casual" || es[0].Rating != 1450 || es[0].Deviation != ladder.AnchorDeviation || !es[0].Active {
		t.Errorf("entries %+v: want casual alone at 1450 ± %d, active", es, ladder.AnchorDeviation)
	}
}
