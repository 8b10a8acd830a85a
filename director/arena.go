package director

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"time"

	"github.com/tabula-games/tabula/match"
	"github.com/tabula-games/tabula/store"
	"github.com/tabula-games/tabula/tournament"
)

// Arena is the format of an arena: a fixed time in which every player who
// is free is paired again at once (package tournament's PairArena), scored
// as lichess scores its arenas (tournament.ArenaPoints).
//
// On the server an arena's pairing waves are its rounds: each step of its
// director pairs the players free then as the next round, stored before
// its games are created, with the games' ids derived from the round and
// board as in a Swiss. So a director taking over mid-arena finds every
// wave and game its predecessor made. A board's result is stored with
// when its game ended and who berserked (store.Arenas), in one fenced
// write: the standings are a recomputation from those rows.
const Arena = "arena"

// Limits of an arena. Pairing 1,000 free players takes a few milliseconds
// (docs/tournaments.md).
const (
	MinArenaDuration = time.Minute
	MaxArenaDuration = 12 * time.Hour
	MaxArenaPlayers  = 1000
)

// ArenaStore is the store of a director that runs arenas.
type ArenaStore interface {
	Store
	store.Arenas
}

// ArenaTournament checks s, an arena's spec, with its length and berserk
// (which needs a realtime clock), and returns the tournament as
// Spec.Tournament does.
func (s Spec) ArenaTournament(now time.Time, a store.Arena) (store.Tournament, error) {
	s.Format = Arena
	if a.Duration < MinArenaDuration || a.Duration > MaxArenaDuration || a.Duration%time.Minute != 0 {
		return store.Tournament{}, refuse(match.CodeBadRequest, "minutes: %d to %d", int(MinArenaDuration/time.Minute), int(MaxArenaDuration/time.Minute))
	}
	t, err := s.Tournament(now)
	if err != nil {
		return t, err
	}
	if a.Berserk && t.Clock.Kind != match.ClockRealtime {
		return t, refuse(match.CodeBadOption, "berserk halves a clock: it needs a realtime clock")
	}
	return t, nil
}

// checkArena is Spec.Tournament's part for an arena.
func checkArena(t *store.Tournament) error {
	if t.Rounds != 0 || t.Double {
		return refuse(match.CodeBadRequest, "an arena lasts a time, not rounds; leave rounds and double out")
	}
	if t.MaxPlayers == 0 {
		t.MaxPlayers = MaxArenaPlayers
	}
	if t.MaxPlayers < 2 || t.MaxPlayers > MaxArenaPlayers {
		return refuse(match.CodeBadRequest, "maxPlayers: 2 to %d in an arena", MaxArenaPlayers)
	}
	return nil
}

// ArenaLine is one player's line of an arena's standings.
type ArenaLine struct {
	tournament.ArenaStanding
	// Streak is the games won in a row up to now; Fire marks the games of
	// Sheet that counted double.
	Streak int
	Fire   []bool
}

// ArenaStandings ranks an arena's players (by their places in players)
// after its finished boards, in the order their games ended.
func ArenaStandings(t *store.Tournament, players []store.TournamentPlayer, rounds []store.TournamentRound, games []store.ArenaGame) ([]ArenaLine, error) {
	tg, err := arenaHistory(players, rounds, games)
	if err != nil {
		return nil, err
	}
	st, err := tournament.ArenaStandings(len(players), tg, tournament.ArenaOptions{Clock: t.Clock.Kind == match.ClockRealtime})
	if err != nil {
		return nil, err
	}
	streak := make([]int, len(players))
	fire := make([][]bool, len(players))
	for _, g := range tg {
		for _, side := range [...]struct {
			p   int
			won bool
		}{{g.White, g.Result == tournament.WhiteWins}, {g.Black, g.Result == tournament.BlackWins}} {
			fire[side.p] = append(fire[side.p], streak[side.p] >= 2)
			if side.won {
				streak[side.p]++
			} else {
				streak[side.p] = 0
			}
		}
	}
	out := make([]ArenaLine, len(st))
	for i, s := range st {
		out[i] = ArenaLine{ArenaStanding: s, Streak: streak[s.Player], Fire: fire[s.Player]}
	}
	return out, nil
}

// arenaHistory is an arena's finished games as package tournament reads
// them, players numbered by their places in players, in the order the
// games ended; boards not played (aborted) are left out.
func arenaHistory(players []store.TournamentPlayer, rounds []store.TournamentRound, games []store.ArenaGame) ([]tournament.ArenaGame, error) {
	idx := make(map[int64]int, len(players))
	for i, p := range players {
		idx[p.UserID] = i
	}
	boards := map[[2]int]store.TournamentBoard{}
	for _, r := range rounds {
		for _, b := range r.Boards {
			boards[[2]int{r.Number, b.Board}] = b
		}
	}
	var out []tournament.ArenaGame
	for _, g := range games {
		b, ok := boards[[2]int{g.Round, g.Board}]
		if !ok {
			return nil, fmt.Errorf("arena game of round %d board %d: no such board", g.Round, g.Board)
		}
		w, okw := idx[b.White]
		bl, okb := idx[b.Black]
		if !okw || !okb {
			return nil, fmt.Errorf("round %d board %d: a player is not in the arena", g.Round, g.Board)
		}
		ag := tournament.ArenaGame{White: w, Black: bl, WhiteBerserk: g.WhiteBerserk, BlackBerserk: g.BlackBerserk}
		switch b.Result {
		case store.BoardWhiteWins:
			ag.Result = tournament.WhiteWins
		case store.BoardBlackWins:
			ag.Result = tournament.BlackWins
		case store.BoardDraw:
			ag.Result = tournament.Draw
		default:
			continue // not played, or (a row written before its board's result: impossible in one transaction) pending
		}
		out = append(out, ag)
	}
	return out, nil
}

// ArenaEnd is when an arena stops pairing.
func ArenaEnd(t *store.Tournament, a store.Arena) time.Time { return t.Start.Add(a.Duration) }

// advanceArena moves arena t on: it starts it at its time, records the
// results of the games that ended, pairs every free player (not paused,
// not withdrawn, not playing) until the end, and finishes it once the end
// has passed and the last game has ended.
func (d *Director) advanceArena(ctx context.Context, t *store.Tournament, epoch int64) (done bool, err error) {
	st, ok := d.cfg.Store.(ArenaStore)
	if !ok {
		return false, fmt.Errorf("tournament %s is an arena, and this director's store keeps none", t.ID)
	}
	a, err := st.Arena(ctx, t.ID)
	if err != nil {
		return false, err
	}
	now := d.cfg.Now()
	end := ArenaEnd(t, a)
	begun := false // started by this step
	if t.Status == store.TournamentUpcoming {
		if now.Before(t.Start) {
			return false, nil
		}
		// An arena starts with whoever is in: players join while it runs.
		t.Status = store.TournamentRunning
		if err := st.UpdateTournamentFenced(ctx, epoch, t); err != nil {
			return false, err
		}
		d.cfg.Log.Info("arena started", "tournament", t.ID, "ends", end)
		begun = true
	}
	players, err := st.TournamentPlayers(ctx, t.ID)
	if err != nil {
		return false, err
	}
	if begun {
		d.started(t, players) // started.go
	}
	rounds, err := st.TournamentRounds(ctx, t.ID)
	if err != nil {
		return false, err
	}
	// The games being played: create or seat what a director before this
	// one left undone, record what has ended.
	busy := map[int64]bool{}
	for ri := range rounds {
		r := &rounds[ri]
		for bi := range r.Boards {
			b := &r.Boards[bi]
			if b.Result != store.BoardPending {
				continue
			}
			res, g, err := d.arenaBoard(ctx, t, a, r.Number, *b)
			if err != nil {
				return false, err
			}
			if res == store.BoardPending {
				busy[b.White], busy[b.Black] = true, true
				continue
			}
			if err := st.SetArenaResultFenced(ctx, epoch, t.ID, res, g); err != nil && !errors.Is(err, store.ErrConflict) {
				return false, err
			}
			b.Result = res
		}
	}
	if !now.Before(end) {
		if len(busy) > 0 {
			return false, nil // the games in progress still count: wait for them
		}
		t.Status, t.Finished = store.TournamentFinished, now
		if err := st.UpdateTournamentFenced(ctx, epoch, t); err != nil {
			return false, err
		}
		d.cfg.Log.Info("arena finished", "tournament", t.ID, "waves", len(rounds))
		return true, nil
	}
	next, err := d.arenaWave(ctx, st, t, players, rounds, busy)
	if err != nil || len(next.Boards) == 0 {
		return false, err
	}
	if err := st.AddRoundFenced(ctx, epoch, t.ID, next); errors.Is(err, store.ErrConflict) {
		return false, nil // paired already: the next step reads it
	} else if err != nil {
		return false, err
	}
	d.cfg.Log.Info("arena wave paired", "tournament", t.ID, "wave", next.Number, "games", len(next.Boards))
	for _, b := range next.Boards {
		if _, _, err := d.arenaBoard(ctx, t, a, next.Number, b); err != nil {
			return false, err
		}
	}
	return false, nil
}

// arenaWave pairs the free players of arena t as round len(rounds)+1.
func (d *Director) arenaWave(ctx context.Context, st ArenaStore, t *store.Tournament, players []store.TournamentPlayer,
	rounds []store.TournamentRound, busy map[int64]bool) (store.TournamentRound, error) {
	next := store.TournamentRound{Number: len(rounds) + 1}
	paused, err := st.ArenaPaused(ctx, t.ID)
	if err != nil {
		return next, err
	}
	games, err := st.ArenaGames(ctx, t.ID)
	if err != nil {
		return next, err
	}
	hist, err := arenaHistory(players, rounds, games)
	if err != nil {
		return next, err
	}
	tally, err := tournament.ArenaStandings(len(players), hist, tournament.ArenaOptions{Clock: t.Clock.Kind == match.ClockRealtime})
	if err != nil {
		return next, err
	}
	points := make([]int, len(players))
	for _, s := range tally {
		points[s.Player] = s.Points
	}
	last := make([]int, len(players))
	colour := make([]int, len(players))
	for i := range last {
		last[i] = -1
	}
	for _, g := range hist {
		last[g.White], last[g.Black] = g.Black, g.White
		colour[g.White]++
		colour[g.Black]--
	}
	var waiting []tournament.ArenaWaiting
	for i, p := range players {
		if p.Withdrawn || paused[p.UserID] || busy[p.UserID] {
			continue
		}
		waiting = append(waiting, tournament.ArenaWaiting{Player: i, Points: points[i], LastOpponent: last[i], Colour: colour[i]})
	}
	for _, pr := range tournament.PairArena(waiting) {
		b := store.TournamentBoard{Board: len(next.Boards), White: players[pr.White].UserID, Black: players[pr.Black].UserID}
		b.GameID = GameID(t.ID, next.Number, b.Board)
		next.Boards = append(next.Boards, b)
	}
	return next, nil
}

// arenaBoard is board for an arena: it creates and seats the game, and
// once the game has ended returns its result with when it ended and who
// berserked (only in an arena that allows it).
func (d *Director) arenaBoard(ctx context.Context, t *store.Tournament, a store.Arena, round int, b store.TournamentBoard) (string, store.ArenaGame, error) {
	g := store.ArenaGame{Round: round, Board: b.Board}
	res, err := d.board(ctx, t, round, b)
	if err != nil || res == store.BoardPending {
		return res, g, err
	}
	m, err := d.cfg.Store.Game(ctx, b.GameID)
	if errors.Is(err, store.ErrNotFound) {
		return res, g, nil
	} else if err != nil {
		return "", g, err
	}
	g.Ended = m.Finished
	if g.Ended.IsZero() {
		g.Ended = d.cfg.Now()
	}
	if a.Berserk && res != store.BoardNotPlayed && slices.Contains([]match.ClockKind{match.ClockRealtime}, m.Clock.Kind) {
		g.WhiteBerserk, g.BlackBerserk = m.Clock.Berserked(0), m.Clock.Berserked(1)
	}
	return res, g, nil
}
