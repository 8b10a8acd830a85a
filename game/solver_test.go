package game

import (
	"context"
	"strings"
	"testing"
)

type fakeSolver struct{ bytes int }

func (f fakeSolver) Solve(context.Context, State, int64) (Solution, error) { return Solution{}, nil }
func (f fakeSolver) Reset()                                                {}

func TestSolverRegistry(t *testing.T) {
	const name = "solver-registry-test"
	if HasSolver(name) {
		t.Fatal("registered before registering")
	}
	if _, err := NewSolver(name, 0); err == nil || !strings.Contains(err.Error(), "no exact solver for "+name) {
		t.Fatalf("unknown game: %v", err)
	}
	RegisterSolver(name, func(b int) Solver { return fakeSolver{b} })
	s, err := NewSolver(name, 123)
	if err != nil || !HasSolver(name) || s.(fakeSolver).bytes != 123 {
		t.Fatalf("after registering: %v %v", s, err)
	}
	defer func() {
		if recover() == nil {
			t.Fatal("a second solver for one game did not panic")
		}
	}()
	RegisterSolver(name, func(int) Solver { return nil })
}
