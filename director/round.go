package director

import (
	"context"
	"crypto/sha256"
	"errors"
	"fmt"
	"slices"

	"github.com/tabula-games/tabula/match"
	"github.com/tabula-games/tabula/store"
	"github.com/tabula-games/tabula/tournament"
)

// GameID is the id of the game of board (from 0) of round (from 1) of
// tournament id: derived, not drawn, so that a director taking over finds
// the games its predecessor created instead of making them again.
func GameID(id string, round, board int) string {
	const alphabet = "23456789abcdefghjkmnpqrstuvwxyz"
	sum := sha256.Sum256([]byte(fmt.Sprintf("tabula tournament %s round %d board %d", id, round, board)))
	b := make([]byte, 10)
	for i := range b {
		b[i] = alphabet[int(sum[i])%len(alphabet)]
	}
	return string(b)
}

// advance moves tournament id on as far as it can now, writing at epoch:
// it starts it at its time, collects the results of the current round,
// pairs the next and creates its games, and finishes it after the last.
// done reports that the tournament is finished.
func (d *Director) advance(ctx context.Context, id string, epoch int64) (done bool, err error) {
	st := d.cfg.Store
	t, err := st.Tournament(ctx, id)
	if err != nil {
		return false, err
	}
	if t.Status == store.TournamentFinished {
		return true, nil
	}
	if t.Format == Arena {
		return d.advanceArena(ctx, &t, epoch) // arena.go
	}
	players, err := st.TournamentPlayers(ctx, id)
	if err != nil {
		return false, err
	}
	rounds, err := st.TournamentRounds(ctx, id)
	if err != nil {
		return false, err
	}
	now := d.cfg.Now()
	finish := func(note string) (bool, error) {
		t.Status, t.Finished, t.Note = store.TournamentFinished, now, note
		if err := st.UpdateTournamentFenced(ctx, epoch, &t); err != nil {
			return false, err
		}
		d.cfg.Log.Info("tournament finished", "tournament", id, "rounds", len(rounds), "note", note)
		return true, nil
	}
	if t.Status == store.TournamentUpcoming {
		if now.Before(t.Start) {
			return false, nil
		}
		active := activePlayers(players)
		if active < 2 {
			return finish("cancelled: fewer than two players")
		}
		if t.Format == RoundRobin {
			t.Rounds = tournament.RoundRobinRounds(active, t.Double)
		}
		t.Status = store.TournamentRunning
		if err := st.UpdateTournamentFenced(ctx, epoch, &t); err != nil {
			return false, err
		}
		d.cfg.Log.Info("tournament started", "tournament", id, "players", active, "rounds", t.Rounds)
		d.started(&t, players) // started.go
	}
	if t.Format == Tables {
		return d.advanceTables(ctx, &t, epoch, players, rounds, finish) // tables.go
	}
	if len(rounds) > 0 {
		pending, err := d.play(ctx, &t, epoch, rounds[len(rounds)-1])
		if err != nil || pending {
			return false, err
		}
		// The results play has just recorded, read back: paired from the
		// rounds read before it, the next round saw its last games still
		// pending, and the pairing refused them ("has no result yet").
		if rounds, err = st.TournamentRounds(ctx, id); err != nil {
			return false, err
		}
	}
	if len(rounds) >= t.Rounds {
		return finish("")
	}
	if active := activePlayers(players); t.Format == Swiss && active < 2 {
		return finish(fmt.Sprintf("ended after round %d: fewer than two players left", len(rounds)))
	}
	var paused map[int64]bool
	if t.Format == Swiss {
		// A Swiss player who paused sits this round out (issue 25): kept
		// in the store with an arena's paused players, so any node's
		// director reads the same set.
		if as, ok := st.(store.Arenas); ok {
			if paused, err = as.ArenaPaused(ctx, id); err != nil {
				return false, fmt.Errorf("tournament %s: paused players: %w", id, err)
			}
		}
		if unpaused := activePlayers(players) - pausedActive(players, paused); unpaused < 2 {
			// Fewer than two to pair: the round waits for a player to
			// come back rather than ending the tournament.
			return false, nil
		}
	}
	next, err := nextRound(&t, players, rounds, paused)
	if err == nil && len(next.Boards) == 0 {
		err = tournament.ErrNoPairing
	}
	if errors.Is(err, tournament.ErrNoPairing) {
		return finish(fmt.Sprintf("ended after round %d: no pairing of the players left keeps the rules", len(rounds)))
	} else if err != nil {
		return false, err
	}
	if err := st.AddRoundFenced(ctx, epoch, id, next); errors.Is(err, store.ErrConflict) {
		// Paired already (by this director a moment ago, or the one before
		// it): the next step reads it.
		return false, nil
	} else if err != nil {
		return false, err
	}
	d.cfg.Log.Info("tournament round paired", "tournament", id, "round", next.Number, "boards", len(next.Boards))
	_, err = d.play(ctx, &t, epoch, next)
	return false, err
}

// activePlayers counts the players who have not withdrawn.
func activePlayers(players []store.TournamentPlayer) int {
	n := 0
	for _, p := range players {
		if !p.Withdrawn {
			n++
		}
	}
	return n
}

// pausedActive counts the players not withdrawn who are paused.
func pausedActive(players []store.TournamentPlayer, paused map[int64]bool) int {
	n := 0
	for _, p := range players {
		if !p.Withdrawn && paused[p.UserID] {
			n++
		}
	}
	return n
}

// nextRound pairs the round after rounds: a Swiss by the Dutch system over
// the players neither withdrawn nor paused, a round robin by the Berger table of the
// players who started it. Byes and forfeits (a round-robin player who has
// withdrawn) have their results at once.
func nextRound(t *store.Tournament, players []store.TournamentPlayer, rounds []store.TournamentRound, paused map[int64]bool) (store.TournamentRound, error) {
	r := store.TournamentRound{Number: len(rounds) + 1}
	var pr tournament.Round
	var ids []int64 // the pairing's player numbers → user ids
	switch t.Format {
	case Swiss:
		hist, err := History(players, rounds)
		if err != nil {
			return r, err
		}
		var active []int
		for i, p := range players {
			ids = append(ids, p.UserID)
			if !p.Withdrawn && !paused[p.UserID] {
				active = append(active, i)
			}
		}
		if pr, err = tournament.PairSwiss(len(players), hist, active, tournament.SwissOptions{LastRound: r.Number == t.Rounds}); err != nil {
			return r, err
		}
	case RoundRobin:
		ids = roundRobinPlayers(players, rounds)
		var err error
		if pr, err = tournament.RoundRobinRound(len(ids), len(rounds), t.Double); err != nil {
			return r, err
		}
	default:
		return r, fmt.Errorf("tournament %s: unknown format %q", t.ID, t.Format)
	}
	withdrawn := map[int64]bool{}
	for _, p := range players {
		withdrawn[p.UserID] = p.Withdrawn
	}
	for _, p := range pr.Pairings {
		b := store.TournamentBoard{Board: len(r.Boards), White: ids[p.White], Black: ids[p.Black]}
		switch ww, bw := withdrawn[b.White], withdrawn[b.Black]; {
		case ww && bw:
			b.Result = store.BoardNotPlayed
		case ww:
			b.Result = store.BoardBlackWins
		case bw:
			b.Result = store.BoardWhiteWins
		default:
			b.GameID = GameID(t.ID, r.Number, b.Board)
		}
		r.Boards = append(r.Boards, b)
	}
	for _, p := range pr.Byes {
		r.Boards = append(r.Boards, store.TournamentBoard{Board: len(r.Boards), White: ids[p], Result: store.BoardBye})
	}
	return r, nil
}

// roundRobinPlayers are the user ids of a round robin's players in the
// order of its Berger table: those who were in it when it started (every
// one of them is in round 1), by pairing number.
func roundRobinPlayers(players []store.TournamentPlayer, rounds []store.TournamentRound) []int64 {
	in := map[int64]bool{}
	if len(rounds) > 0 {
		for _, b := range rounds[0].Boards {
			in[b.White], in[b.Black] = true, true
		}
	}
	var ids []int64
	for _, p := range players {
		if (len(rounds) == 0 && !p.Withdrawn) || in[p.UserID] {
			ids = append(ids, p.UserID)
		}
	}
	return ids
}

// History is the stored rounds as package tournament reads them, with
// players numbered by their pairing numbers (players' order): a bye is a
// bye, a board not played is left out (both players absent), a pending
// board is Pending.
func History(players []store.TournamentPlayer, rounds []store.TournamentRound) ([]tournament.Round, error) {
	idx := make(map[int64]int, len(players))
	for i, p := range players {
		idx[p.UserID] = i
	}
	out := make([]tournament.Round, 0, len(rounds))
	for _, r := range rounds {
		var tr tournament.Round
		for _, b := range r.Boards {
			w, ok := idx[b.White]
			if !ok {
				return nil, fmt.Errorf("round %d board %d: user %d is not a player", r.Number, b.Board, b.White)
			}
			if b.Result == store.BoardBye {
				tr.Byes = append(tr.Byes, w)
				continue
			}
			bl, ok := idx[b.Black]
			if !ok {
				return nil, fmt.Errorf("round %d board %d: user %d is not a player", r.Number, b.Board, b.Black)
			}
			p := tournament.Pairing{White: w, Black: bl}
			switch b.Result {
			case store.BoardNotPlayed:
				continue
			case store.BoardWhiteWins:
				p.Result = tournament.WhiteWins
			case store.BoardBlackWins:
				p.Result = tournament.BlackWins
			case store.BoardDraw:
				p.Result = tournament.Draw
			}
			tr.Pairings = append(tr.Pairings, p)
		}
		out = append(out, tr)
	}
	return out, nil
}

// play makes sure every game of round r exists and has its players
// seated, and records the results of the games that have finished.
// pending reports that some board has no result yet.
func (d *Director) play(ctx context.Context, t *store.Tournament, epoch int64, r store.TournamentRound) (pending bool, err error) {
	for _, b := range r.Boards {
		if b.Result != store.BoardPending {
			continue
		}
		res, err := d.board(ctx, t, r.Number, b)
		if err != nil {
			return true, err
		}
		if res == store.BoardPending {
			pending = true
			continue
		}
		if err := d.cfg.Store.SetBoardResultFenced(ctx, epoch, t.ID, r.Number, b.Board, res); err != nil && !errors.Is(err, store.ErrConflict) {
			return true, err
		}
	}
	return pending, nil
}

// board creates board b's game if it does not exist yet, seats its
// players, and returns its result (BoardPending while it is being
// played).
func (d *Director) board(ctx context.Context, t *store.Tournament, round int, b store.TournamentBoard) (string, error) {
	m, err := d.seatGame(ctx, t, round, b.Board, b.GameID, t.Options, []int64{b.White, b.Black}) // games.go
	if err != nil {
		return "", err
	}
	switch m.Status {
	case match.Open, match.Live:
		return store.BoardPending, nil
	case match.Finished:
		if m.Result == nil {
			return store.BoardPending, nil
		}
		switch {
		case m.Result.Status == match.Drawn:
			return store.BoardDraw, nil
		case slices.Contains(m.Result.Winners, 0) && !slices.Contains(m.Result.Winners, 1):
			return store.BoardWhiteWins, nil
		case slices.Contains(m.Result.Winners, 1) && !slices.Contains(m.Result.Winners, 0):
			return store.BoardBlackWins, nil
		}
		return store.BoardDraw, nil
	}
	// Aborted (or imported, which a tournament's id never is): not played.
	return store.BoardNotPlayed, nil
}
