package arena

import (
	"math"
	"testing"
)

func near(a, b, eps float64) bool { return math.Abs(a-b) <= eps }

// The expected values below were computed by hand from the closed forms
// (Wilson 1927; Elo = 400·log10(s/(1−s))), not by this code.
func TestWilsonHandComputed(t *testing.T) {
	cases := []struct {
		succ      float64
		n         int
		low, high float64
	}{
		// p=0.5, n=100: centre 0.5, half = 1.96*sqrt(.0025+.000096)/1.0384 = 0.0961
		{50, 100, 0.40383, 0.59617},
		// p=0.9, n=200: centre (0.9+0.0096)/1.0192 = 0.89246; half = 1.96*sqrt(0.00045+0.0000240)/1.0192 = 0.04187
		{180, 200, 0.85059, 0.93433},
		// p=1, n=10: (1 + 0.19208)/1.38415 = 0.86122 ± 1.96*sqrt(0.009604)/1.38415 = 0.13877
		{10, 10, 0.72246, 1},
		{0, 10, 0, 0.27754},
	}
	for _, c := range cases {
		iv := Wilson(c.succ, c.n)
		if !near(iv.Low, c.low, 5e-4) || !near(iv.High, c.high, 5e-4) {
			t.Errorf("Wilson(%v,%d) = [%.5f, %.5f], want [%.5f, %.5f]", c.succ, c.n, iv.Low, iv.High, c.low, c.high)
		}
	}
	if iv := Wilson(0, 0); iv.Low != 0 || iv.High != 1 {
		t.Errorf("no games: %v, want [0,1]", iv)
	}
}

func TestEloHandComputed(t *testing.T) {
	cases := []struct{ score, elo float64 }{
		{0.5, 0},
		{0.75, 190.849}, // 400*log10(3)
		{0.9, 381.697},  // 400*log10(9)
		{0.25, -190.849},
		{10.0 / 11, 400}, // odds 10:1 → 400*log10(10)
	}
	for _, c := range cases {
		if got := Elo(c.score); !near(got, c.elo, 1e-3) {
			t.Errorf("Elo(%v) = %v, want %v", c.score, got, c.elo)
		}
	}
	if !math.IsInf(Elo(1), 1) || !math.IsInf(Elo(0), -1) {
		t.Error("Elo at 0 and 1 must be infinite")
	}
}

func TestScoreWithDraws(t *testing.T) {
	// 120 wins, 40 draws, 40 losses of 200: score 140/200 = 0.7, Elo 400*log10(7/3) = 147.19.
	s := Score{Games: 200, Wins: 120, Draws: 40, Losses: 40, Points: 140}
	if !near(s.Rate(), 0.7, 1e-12) {
		t.Fatalf("rate %v", s.Rate())
	}
	elo, iv := s.EloDiff()
	if !near(elo, 147.19, 0.01) {
		t.Errorf("Elo %v, want 147.19", elo)
	}
	// Wilson(140,200): centre (0.7+0.0096)/1.0192=0.69623; half=1.96*sqrt(0.00105+0.000024)/1.0192=0.06302
	// → [0.63321, 0.75925]; odds 1.72635 and 3.15368 → Elo 400*0.23713 = 94.85, 400*0.49882 = 199.53
	if !near(iv.Low, 94.85, 0.1) || !near(iv.High, 199.53, 0.1) {
		t.Errorf("Elo interval %v, want about [94.85, 199.53]", iv)
	}
}
