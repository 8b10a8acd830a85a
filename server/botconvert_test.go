package server_test

import (
	"net/http"
	"testing"
	"time"
)

// TestMakeBotRefusedInBotlessTournament: a person in an upcoming
// tournament that admits no bots cannot turn the account into a bot (409
// in_tournament, nothing changed: the account stays a person in it); once
// withdrawn they can. A tournament that admits bots does not stand in the
// way.
func TestMakeBotRefusedInBotlessTournament(t *testing.T) {
	e := newEnv(t)
	ann, bob, carol := e.register("ann"), e.register("bob"), e.register("carol")
	soon := time.Now().Add(time.Hour).UTC().Format(time.RFC3339)

	people := swissReq("People's cup", 3)
	people["start"] = soon
	var pc tournamentResp
	ann.must(http.StatusCreated, "POST", "/api/tournaments", people, &pc)
	bob.must(http.StatusOK, "POST", "/api/tournaments/"+pc.Tournament.ID+"/join", nil, nil)
	bob.apiErr(http.StatusConflict, "in_tournament", "POST", "/api/me/bot", nil)
	if got := playerBots(ann, pc.Tournament.ID); len(got) != 1 || got["bob"] {
		t.Fatalf("people's cup players %v: want bob, still a person", got)
	}
	bob.must(http.StatusNoContent, "POST", "/api/tournaments/"+pc.Tournament.ID+"/withdraw", nil, nil)
	bob.must(http.StatusOK, "POST", "/api/me/bot", nil, nil)

	open := swissReq("Open cup", 3)
	open["start"] = soon
	open["bots"] = true
	var oc tournamentResp
	ann.must(http.StatusCreated, "POST", "/api/tournaments", open, &oc)
	carol.must(http.StatusOK, "POST", "/api/tournaments/"+oc.Tournament.ID+"/join", nil, nil)
	carol.must(http.StatusOK, "POST", "/api/me/bot", nil, nil)
}
