package solve

import (
	"context"
	"fmt"
	"os"
	"strconv"
	"strings"
	"testing"
	"time"
)

// TestCompareWinLossWithExact is the measurement in docs/solving.md, not a
// check: SPLOOF_COMPARE=N solves N positions at each of plies 12–16 of
// seeded random games (positions not over, 5N in all) with the exact search
// (`tabula solve`: winner and length) and with the win/loss solver in its
// variants (one worker each but the last: two, whose nodes are both's), and
// logs nodes and CPU seconds per ply. Tables: 256 MiB each, new for every
// position.
func TestCompareWinLossWithExact(t *testing.T) {
	per, _ := strconv.Atoi(os.Getenv("SPLOOF_COMPARE"))
	if per <= 0 {
		t.Skip("SPLOOF_COMPARE=N runs the measurement (N positions a ply)")
	}
	plies := []int{16, 15, 14, 13, 12}
	if s := os.Getenv("SPLOOF_COMPARE_PLIES"); s != "" {
		plies = nil
		for _, f := range strings.Split(s, ",") {
			p, _ := strconv.Atoi(f)
			plies = append(plies, p)
		}
	}
	type variant struct {
		name string
		opt  WinLossOptions
	}
	variants := []variant{
		{"winloss", WinLossOptions{}},
		{"no-threats", WinLossOptions{NoThreats: true}},
		{"etc<ply+4", WinLossOptions{ETCPly: -4}},
		{"2 workers", WinLossOptions{Workers: 2}},
	}
	if v, _ := strconv.Atoi(os.Getenv("SPLOOF_COMPARE_VARIANTS")); v > 0 && v < len(variants) {
		variants = variants[:v] // the first v only
	}
	const tb = 256 << 20
	ctx := context.Background()
	for _, ply := range plies {
		var exactNodes int64
		var exactCPU float64
		vn := make([]int64, len(variants))
		vc := make([]float64, len(variants))
		count := 0
		for seed := uint64(1000); count < per; seed++ {
			ps := gamePositions(seed)
			if len(ps) <= ply {
				continue
			}
			st := ps[ply]
			c0 := cpuSeconds()
			sv := New(tb)
			sol, err := sv.Solve(ctx, st, 0)
			if err != nil || !sol.Proven {
				t.Fatal(err)
			}
			exactNodes += sol.Nodes
			exactCPU += cpuSeconds() - c0
			for i, v := range variants {
				opt := v.opt
				opt.TableBytes = tb
				if opt.Workers == 0 {
					opt.Workers = 1
				}
				if opt.ETCPly < 0 {
					opt.ETCPly = ply - opt.ETCPly
				}
				c0 := cpuSeconds()
				r, err := NewWinLoss(opt).Solve(ctx, st)
				if err != nil {
					t.Fatal(err)
				}
				vc[i] += cpuSeconds() - c0
				vn[i] += r.Nodes
				if r.Winner != sol.Winner {
					t.Fatalf("seed %d ply %d: %s says seat %d wins, the exact search %d", seed, ply, v.name, r.Winner, sol.Winner)
				}
			}
			count++
		}
		line := fmt.Sprintf("ply %d, %d positions: exact %d nodes %.1f CPU s", ply, count, exactNodes, exactCPU)
		for i, v := range variants {
			line += fmt.Sprintf(" | %s %d nodes (×%.2f fewer) %.1f CPU s (×%.2f less)", v.name, vn[i],
				float64(exactNodes)/float64(vn[i]), vc[i], exactCPU/vc[i])
		}
		t.Log(line)
		fmt.Fprintf(os.Stderr, "%s %s\n", time.Now().UTC().Format(time.TimeOnly), line)
	}
}
