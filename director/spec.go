package director

import (
	"fmt"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/tabula-games/tabula/game"
	"github.com/tabula-games/tabula/match"
	"github.com/tabula-games/tabula/store"
	"github.com/tabula-games/tabula/tournament"
)

// The formats a director runs.
const (
	Swiss      = "swiss"
	RoundRobin = "roundrobin"
)

// Limits of a tournament and of each user's tournaments. A node holds a
// 200-player Swiss comfortably: its pairing takes well under a second
// (docs/tournaments.md has the measurements).
const (
	MaxSwissPlayers = 200
	MaxRounds       = 20
	MaxNameLen      = 80
	// MaxStartAhead is how far ahead a tournament may be scheduled.
	MaxStartAhead = 30 * 24 * time.Hour
	// MaxCreated is the upcoming and running tournaments a user may have
	// created; MaxJoined those a user may be playing in.
	MaxCreated = 3
	MaxJoined  = 10
)

func refuse(code match.Code, format string, args ...any) error {
	return &match.Error{Code: code, Message: fmt.Sprintf(format, args...)}
}

// Spec is what a user asks for in a new tournament.
type Spec struct {
	Name    string
	Format  string
	Game    string
	Options map[string]string
	Clock   match.Clock
	Start   time.Time
	// Rounds: a Swiss's number of rounds (a round robin's follows from
	// its players); Double plays a round robin twice.
	Rounds        int
	Double        bool
	Rated         bool
	Password      string
	MinRatedGames int
	// Bots admits bot accounts (the server refuses them a tournament
	// without it); people may join either kind.
	Bots       bool
	MaxPlayers int
}

// Tournament checks s and returns the tournament it describes (its ID,
// CreatorID, Created and PasswordHash are the caller's), or a
// *match.Error saying what is wrong.
func (s Spec) Tournament(now time.Time) (store.Tournament, error) {
	t := store.Tournament{Name: strings.TrimSpace(s.Name), Format: s.Format, Rounds: s.Rounds, Double: s.Double, Start: s.Start.UTC().Truncate(time.Millisecond),
		Rated: s.Rated, MinRatedGames: s.MinRatedGames, Bots: s.Bots, MaxPlayers: s.MaxPlayers, Clock: s.Clock}
	if t.Name == "" || utf8.RuneCountInString(t.Name) > MaxNameLen {
		return t, refuse(match.CodeBadRequest, "name: 1 to %d characters", MaxNameLen)
	}
	g, err := game.Lookup(s.Game)
	if err != nil {
		return t, refuse(match.CodeBadOption, "unknown game %q (games: %v)", s.Game, game.Names())
	}
	t.Game = g.Name()
	if t.Options, err = game.Complete(g, s.Options); err != nil {
		return t, refuse(match.CodeBadOption, "%v", err)
	}
	st, err := g.New(t.Options, 1)
	if err != nil {
		return t, refuse(match.CodeBadOption, "%v", err)
	}
	if st.NumPlayers() != 2 && t.Format != Tables {
		return t, refuse(match.CodeBadOption, "%s with these options is for %d players; tournaments pair two", g.Title(), st.NumPlayers())
	}
	if err := checkClock(t.Clock); err != nil {
		return t, err
	}
	if t.Clock.Kind == "" {
		t.Clock.Kind = match.ClockNone
	}
	switch t.Format {
	case Swiss:
		if t.Rounds < 1 || t.Rounds > MaxRounds {
			return t, refuse(match.CodeBadRequest, "rounds: 1 to %d", MaxRounds)
		}
		if t.Double {
			return t, refuse(match.CodeBadRequest, "double is for a round robin")
		}
		if t.MaxPlayers == 0 {
			t.MaxPlayers = MaxSwissPlayers
		}
		if t.MaxPlayers < 2 || t.MaxPlayers > MaxSwissPlayers {
			return t, refuse(match.CodeBadRequest, "maxPlayers: 2 to %d in a Swiss", MaxSwissPlayers)
		}
	case RoundRobin:
		if t.Rounds != 0 {
			return t, refuse(match.CodeBadRequest, "a round robin's rounds follow from its players; leave rounds out")
		}
		if t.MaxPlayers == 0 {
			t.MaxPlayers = tournament.MaxRoundRobinPlayers
		}
		if t.MaxPlayers < 2 || t.MaxPlayers > tournament.MaxRoundRobinPlayers {
			return t, refuse(match.CodeBadRequest, "maxPlayers: 2 to %d in a round robin", tournament.MaxRoundRobinPlayers)
		}
	case Arena:
		if err := checkArena(&t); err != nil { // arena.go
			return t, err
		}
	case Tables:
		if err := checkTables(&t, s.Options); err != nil { // tables.go
			return t, err
		}
	default:
		return t, refuse(match.CodeBadRequest, "format %q: want swiss, roundrobin, arena or tables", t.Format)
	}
	if t.Start.IsZero() {
		return t, refuse(match.CodeBadRequest, "start: a time is needed (RFC 3339)")
	}
	if t.Start.Before(now.Add(-time.Minute)) || t.Start.After(now.Add(MaxStartAhead)) {
		return t, refuse(match.CodeBadRequest, "start: from now to %d days ahead", int(MaxStartAhead/(24*time.Hour)))
	}
	if t.MinRatedGames < 0 || t.MinRatedGames > 1000 {
		return t, refuse(match.CodeBadRequest, "minRatedGames: 0 to 1000")
	}
	if len(s.Password) > 100 {
		return t, refuse(match.CodeBadRequest, "password: at most 100 characters")
	}
	return t, nil
}

// checkClock is match's rule for a time control (match.Clock), which a
// tournament checks before any of its games is created.
func checkClock(c match.Clock) error {
	switch c.Kind {
	case "", match.ClockNone:
		if c.InitialMs != 0 || c.IncrementMs != 0 || c.Days != 0 {
			return refuse(match.CodeBadOption, "a clock of kind none has no times")
		}
	case match.ClockRealtime:
		if c.InitialMs < 1000 || c.InitialMs > 24*3600*1000 || c.IncrementMs < 0 || c.IncrementMs > 600*1000 || c.Days != 0 {
			return refuse(match.CodeBadOption, "realtime clock: initialMs 1000…%d, incrementMs 0…%d", 24*3600*1000, 600*1000)
		}
	case match.ClockCorrespondence:
		if c.Days < 1 || c.Days > 14 || c.InitialMs != 0 || c.IncrementMs != 0 {
			return refuse(match.CodeBadOption, "correspondence clock: days 1…14")
		}
	default:
		return refuse(match.CodeBadOption, "clock kind %q: want none, realtime or correspondence", c.Kind)
	}
	return nil
}
