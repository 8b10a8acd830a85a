package match

import "testing"

// A clone is the caller's to change: nothing written through it reaches the
// game it was copied from.
func TestCloneSharesNothingMutable(t *testing.T) {
	m := Meta{
		Options:       map[string]string{"size": "5"},
		StartPosition: []byte(`{"a":1}`),
		Seats:         []Seat{{UserID: 1}},
		Result:        &Result{Winners: []int{0}, Scores: []int{1, 0}},
	}
	c := m.Clone()
	c.Options["size"] = "7"
	c.StartPosition[0] = 'X'
	c.Seats[0].UserID = 2
	c.Result.Winners[0] = 1
	c.Result.Scores[0] = 9
	if m.Options["size"] != "5" {
		t.Errorf("the clone's options write through: size=%q", m.Options["size"])
	}
	if string(m.StartPosition) != `{"a":1}` {
		t.Errorf("the clone's start position writes through: %s", m.StartPosition)
	}
	if m.Seats[0].UserID != 1 || m.Result.Winners[0] != 0 || m.Result.Scores[0] != 1 {
		t.Errorf("the clone's seats or result write through: %+v %+v", m.Seats, *m.Result)
	}
}
