package server_test

import (
	"net/http"
	"testing"
	"time"
)

// TestTournamentSwissPause (issue 25): a Swiss player who pauses is not
// paired in the next round and scores nothing for it (no bye), and is
// paired again from the round after they resume. Only the player
// themself can pause or resume: the request names nobody else, so a
// body naming another player changes nothing of theirs, a user outside
// the tournament is refused, and an anonymous request is unauthorized.
func TestTournamentSwissPause(t *testing.T) {
	e := newEnv(t)
	names := []string{"ann", "bob", "cyd", "dee"}
	clients := map[string]*client{}
	for _, n := range names {
		clients[n] = e.register(n)
	}
	zed := e.register("zed")
	ann, dee := clients["ann"], clients["dee"]
	req := swissReq("Paused Swiss", 3)
	req["start"] = time.Now().Add(6 * time.Second).UTC().Format(time.RFC3339Nano)
	var created tournamentResp
	ann.must(http.StatusCreated, "POST", "/api/tournaments", req, &created)
	id := created.Tournament.ID
	for _, n := range names {
		clients[n].must(http.StatusOK, "POST", "/api/tournaments/"+id+"/join", nil, nil)
	}

	// dee pauses; bob's attempt to pause ann through the body pauses bob
	// alone, and he resumes at once.
	dee.must(http.StatusNoContent, "POST", "/api/tournaments/"+id+"/pause", nil, nil)
	clients["bob"].must(http.StatusNoContent, "POST", "/api/tournaments/"+id+"/pause", map[string]any{"user": "ann", "name": "ann"}, nil)
	zed.must(http.StatusConflict, "POST", "/api/tournaments/"+id+"/pause", nil, nil)
	if code, _ := e.anon().do("POST", "/api/tournaments/"+id+"/pause", nil); code != http.StatusUnauthorized {
		t.Fatalf("an anonymous pause: %d, want 401", code)
	}
	paused := func() map[string]bool {
		var tr struct {
			Players []struct {
				Name   string
				Paused bool
			}
		}
		ann.must(http.StatusOK, "GET", "/api/tournaments/"+id, nil, &tr)
		out := map[string]bool{}
		for _, p := range tr.Players {
			if p.Paused {
				out[p.Name] = true
			}
		}
		return out
	}
	if got := paused(); len(got) != 2 || !got["dee"] || !got["bob"] {
		t.Fatalf("paused %v, want dee and bob", got)
	}
	clients["bob"].must(http.StatusNoContent, "POST", "/api/tournaments/"+id+"/resume", nil, nil)
	if got := paused(); len(got) != 1 || !got["dee"] {
		t.Fatalf("paused %v after bob resumed, want dee alone", got)
	}

	// Round 1: three players, one board and the bye; dee sits out.
	round := func(n int) tournamentResp {
		t.Helper()
		deadline := time.Now().Add(30 * time.Second)
		for {
			tr := ann.tournament(id)
			if len(tr.Rounds) >= n {
				return tr
			}
			if time.Now().After(deadline) || tr.Tournament.Status == "finished" {
				t.Fatalf("round %d not paired: %+v", n, tr)
			}
			time.Sleep(50 * time.Millisecond)
		}
	}
	finish := func(n int) {
		t.Helper()
		for _, b := range round(n).Rounds[n-1].Boards {
			if b.GameID == "" {
				continue
			}
			deadline := time.Now().Add(30 * time.Second)
			for {
				if code, _ := ann.do("GET", "/api/games/"+b.GameID, nil); code == http.StatusOK {
					if g, _, _ := ann.game(b.GameID); g.Status == "live" {
						break
					}
				}
				if time.Now().After(deadline) {
					t.Fatalf("game %s never live", b.GameID)
				}
				time.Sleep(50 * time.Millisecond)
			}
			clients[b.Black].must(http.StatusOK, "POST", "/api/games/"+b.GameID+"/resign", nil, nil)
		}
	}
	in := func(tr tournamentResp, n int) map[string]bool {
		out := map[string]bool{}
		for _, b := range tr.Rounds[n-1].Boards {
			out[b.White] = true
			if b.Black != "" {
				out[b.Black] = true
			}
		}
		return out
	}
	r1 := round(1)
	if got := in(r1, 1); got["dee"] || len(got) != 3 || len(r1.Rounds[0].Boards) != 2 {
		t.Fatalf("round 1 %+v: want ann, bob and cyd on one board and a bye, dee paused", r1.Rounds[0].Boards)
	}
	// Still paused: round 2 leaves dee out too.
	finish(1)
	r2 := round(2)
	if got := in(r2, 2); got["dee"] || len(got) != 3 {
		t.Fatalf("round 2 %+v: dee is still paused", r2.Rounds[1].Boards)
	}
	dee.must(http.StatusNoContent, "POST", "/api/tournaments/"+id+"/resume", nil, nil)
	finish(2)
	r3 := round(3)
	if got := in(r3, 3); !got["dee"] || len(got) != 4 {
		t.Fatalf("round 3 %+v: dee resumed and is paired", r3.Rounds[2].Boards)
	}
	finish(3)
	tr := playOut(t, clients, id)
	for _, st := range tr.Standings {
		if st.Name == "dee" && (st.Byes != 0 || st.Points > 1) {
			t.Fatalf("dee's standing %+v: the paused rounds score nothing and are no bye", st)
		}
	}
	// A finished tournament refuses a pause.
	dee.must(http.StatusConflict, "POST", "/api/tournaments/"+id+"/pause", nil, nil)
}
