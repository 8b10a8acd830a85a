package server_test

import (
	"net/http"
	"slices"
	"testing"
	"time"
)

type tablesResp struct {
	Tournament struct {
		ID     string `json:"id"`
		Format string `json:"format"`
		Status string `json:"status"`
		Note   string `json:"note"`
	} `json:"tournament"`
	Standings []struct{} `json:"standings"`
	Tables    *struct {
		MaxTable  int `json:"maxTable"`
		Standings []struct {
			Rank       int     `json:"rank"`
			Name       string  `json:"name"`
			Points     float64 `json:"points"`
			SkyjoTotal int     `json:"skyjoTotal"`
			Games      int     `json:"games"`
		} `json:"standings"`
		Rounds []struct {
			Number int `json:"number"`
			Tables []struct {
				Table  int    `json:"table"`
				GameID string `json:"gameId"`
				Result string `json:"result"`
				Seats  []struct {
					Name   string   `json:"name"`
					Points *float64 `json:"points"`
					Total  *int     `json:"total"`
				} `json:"seats"`
			} `json:"tables"`
		} `json:"rounds"`
	} `json:"tables"`
}

// TestTablesThroughAPI: tables for a two-player game, or for Skyjo at
// tables of two, are refused with a clear 422 and nothing stored; a Skyjo
// table tournament of 2 rounds at tables of at most 4 is created, seven
// players join, each round shows its tables (4 + 3) with their games,
// seated by the standings; at every table the first seat resigns, and the
// others split the places above it (2 points each at a table of 4, 1.5 at
// a table of 3); the standings add the tables' points up, ties sharing a
// rank.
func TestTablesThroughAPI(t *testing.T) {
	e := newEnv(t)
	names := []string{"ann", "bob", "cyd", "dee", "eve", "fay", "gus"}
	clients := map[string]*client{}
	for _, n := range names {
		clients[n] = e.register(n)
	}
	ann := clients["ann"]
	req := func() map[string]any {
		return map[string]any{"name": "Skyjo night", "format": "tables", "game": "skyjo", "rounds": 2, "rated": true,
			"options": map[string]string{"players": "4"}, "start": time.Now().Add(6 * time.Second).UTC().Format(time.RFC3339Nano)}
	}
	bad := req()
	bad["game"] = "sgolte"
	delete(bad, "options")
	ann.apiErr(http.StatusUnprocessableEntity, "bad_option", "POST", "/api/tournaments", bad)
	bad = req()
	bad["options"] = map[string]string{"players": "2"}
	ann.apiErr(http.StatusUnprocessableEntity, "bad_option", "POST", "/api/tournaments", bad)
	bad = req()
	bad["minutes"] = 30
	ann.apiErr(http.StatusBadRequest, "bad_request", "POST", "/api/tournaments", bad)
	var list struct{ Tournaments []struct{ ID string } }
	e.anon().must(http.StatusOK, "GET", "/api/tournaments", nil, &list)
	if len(list.Tournaments) != 0 {
		t.Fatalf("refused tournaments were stored: %+v", list)
	}

	var created tablesResp
	ann.must(http.StatusCreated, "POST", "/api/tournaments", req(), &created)
	id := created.Tournament.ID
	for _, n := range names {
		clients[n].must(http.StatusOK, "POST", "/api/tournaments/"+id+"/join", nil, nil)
	}
	var tr tablesResp
	get := func() tablesResp {
		var r tablesResp
		e.anon().must(http.StatusOK, "GET", "/api/tournaments/"+id, nil, &r)
		return r
	}
	deadline := time.Now().Add(60 * time.Second)
	resigned := map[string]bool{}
	var orders [][]string
	for tr = get(); tr.Tournament.Status != "finished"; tr = get() {
		if time.Now().After(deadline) {
			t.Fatalf("the tournament did not finish: %+v", tr)
		}
		if tr.Tables == nil || tr.Tables.MaxTable != 4 || len(tr.Standings) != 0 {
			t.Fatalf("a table tournament's page: %+v", tr)
		}
		if n := len(tr.Tables.Rounds); n > len(orders) {
			var order []string
			for _, tb := range tr.Tables.Rounds[n-1].Tables {
				for _, s := range tb.Seats {
					order = append(order, s.Name)
				}
			}
			orders = append(orders, order)
		}
		for _, r := range tr.Tables.Rounds {
			for _, tb := range r.Tables {
				if resigned[tb.GameID] {
					continue
				}
				if code, _ := ann.do("GET", "/api/games/"+tb.GameID, nil); code == http.StatusNotFound {
					continue // the round is stored before its games are created
				}
				g, _, _ := ann.game(tb.GameID)
				if g.Status != "live" {
					continue
				}
				if g.Game != "skyjo" || len(g.Seats) != len(tb.Seats) || g.Options["players"] != []string{"", "", "", "3", "4"}[len(tb.Seats)] {
					t.Fatalf("table %d's game: %+v", tb.Table, g)
				}
				for i, s := range g.Seats {
					if s.User != tb.Seats[i].Name {
						t.Fatalf("table %d seat %d: %s in the game, %s at the table", tb.Table, i, s.User, tb.Seats[i].Name)
					}
				}
				clients[tb.Seats[0].Name].must(http.StatusOK, "POST", "/api/games/"+tb.GameID+"/resign", nil, nil)
				resigned[tb.GameID] = true
			}
		}
		time.Sleep(50 * time.Millisecond)
	}
	if tr.Tournament.Note != "" || len(tr.Tables.Rounds) != 2 {
		t.Fatalf("finished: %+v", tr)
	}
	if !slices.Equal(orders[0], names) {
		t.Fatalf("round 1 seats %v, want the pairing order", orders[0])
	}
	// Round 1: ann and eve resigned; the others are equal on points (2 at
	// the table of 4, 1.5 at the table of 3) and on totals (none), so
	// round 2 seats bob, cyd, dee (2), fay (1.5) at table 1, gus (1.5),
	// ann, eve (0) at table 2.
	if want := []string{"bob", "cyd", "dee", "fay", "gus", "ann", "eve"}; !slices.Equal(orders[1], want) {
		t.Fatalf("round 2 seats %v, want %v", orders[1], want)
	}
	points := map[string]float64{}
	for _, r := range tr.Tables.Rounds {
		if sizes := []int{len(r.Tables[0].Seats), len(r.Tables[1].Seats)}; len(r.Tables) != 2 || sizes[0] != 4 || sizes[1] != 3 {
			t.Fatalf("round %d tables %+v", r.Number, r.Tables)
		}
		for _, tb := range r.Tables {
			if tb.Result != "placed" {
				t.Fatalf("round %d table %d: result %q", r.Number, tb.Table, tb.Result)
			}
			for i, s := range tb.Seats {
				want := map[int]float64{4: 2, 3: 1.5}[len(tb.Seats)]
				if i == 0 {
					want = 0
				}
				if s.Points == nil || *s.Points != want || s.Total == nil || *s.Total != 0 {
					t.Fatalf("round %d table %d seat %d: %+v, want %v points", r.Number, tb.Table, i, s, want)
				}
				points[s.Name] += *s.Points
			}
		}
	}
	if len(tr.Tables.Standings) != 7 {
		t.Fatalf("standings %+v", tr.Tables.Standings)
	}
	for i, st := range tr.Tables.Standings {
		if st.Points != points[st.Name] || st.Games != 2 || (i > 0 && st.Points > tr.Tables.Standings[i-1].Points) {
			t.Fatalf("standings %+v; points from the tables %v", tr.Tables.Standings, points)
		}
	}
	// cyd and dee lead together (2 + 2, no totals), then fay (1.5 + 2).
	if st := tr.Tables.Standings; st[0].Name != "cyd" || st[1].Name != "dee" || st[0].Rank != 1 || st[1].Rank != 1 || st[0].Points != 4 ||
		st[2].Name != "fay" || st[2].Rank != 3 || st[2].Points != 3.5 {
		t.Fatalf("the podium: %+v", st[:3])
	}
}
