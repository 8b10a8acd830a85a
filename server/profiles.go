package server

import (
	"context"
	"errors"
	"math"
	"net/http"
	"slices"
	"sort"
	"time"

	"github.com/tabula-games/tabula/match"
	"github.com/tabula-games/tabula/server/wire"
	"github.com/tabula-games/tabula/store"
)

// The profile's statistics (GET /api/users/{name}/stats): a player's
// record per game, ratings with their history, streaks, time played and
// recent games with their rating changes. The record is computed from the
// player's finished games (the newest maxStatsGames of them); the rating
// history is the store's (written where each rated game ends).

const (
	// maxStatsGames bounds the games one request reads.
	maxStatsGames = 2000
	statsPage     = 200
	recentGames   = 10
	historyPoints = 500
)

// ratingHistory is the store's rating history; every store.Store of the
// project keeps it (store/internal/sqlstore).
func (s *Server) ratingHistory() (store.RatingHistory, error) {
	h, ok := s.store.(store.RatingHistory)
	if !ok {
		return nil, errf(http.StatusNotImplemented, "not_implemented", "this server's store keeps no rating history")
	}
	return h, nil
}

func (s *Server) handleUserStats(w http.ResponseWriter, r *http.Request) {
	ctx := r.Context()
	u, err := s.store.UserByName(ctx, r.PathValue("name"))
	if errors.Is(err, store.ErrNotFound) {
		writeError(w, errNotFound)
		return
	}
	if err != nil {
		writeError(w, s.internal("user", err))
		return
	}
	h, err := s.ratingHistory()
	if err != nil {
		writeError(w, err)
		return
	}
	st, err := s.statsOf(ctx, h, &u)
	if err != nil {
		writeError(w, s.internal("stats", err))
		return
	}
	writeJSON(w, http.StatusOK, st)
}

// finishedGames is a user's finished games, newest first, at most
// maxStatsGames; complete is false when there are more.
func (s *Server) finishedGames(ctx context.Context, uid int64) (games []match.Meta, complete bool, err error) {
	f := store.GameFilter{Statuses: []match.Status{match.Finished}, UserID: uid, Limit: statsPage}
	seen := map[string]bool{}
	for len(games) < maxStatsGames {
		page, err := s.store.Games(ctx, f)
		if err != nil {
			return nil, false, err
		}
		added := 0
		for _, g := range page {
			if !seen[g.ID] {
				seen[g.ID] = true
				games = append(games, g)
				added++
			}
		}
		if len(page) < statsPage || added == 0 {
			return games, len(page) < statsPage, nil
		}
		// The next page from the last game's millisecond on (the filter
		// is "created before"): games created in the same millisecond
		// as the page's last one are not skipped, and are counted once.
		f.Before = page[len(page)-1].Created.Add(time.Millisecond)
	}
	return games[:maxStatsGames], false, nil
}

// outcomeOf is the user's outcome in a finished game ("" if they held no
// seat in it).
func outcomeOf(m *match.Meta, uid int64) string {
	seat := slices.IndexFunc(m.Seats, func(se match.Seat) bool { return se.Kind == match.SeatHuman && se.UserID == uid })
	if seat < 0 || m.Result == nil {
		return ""
	}
	switch {
	case m.Result.Status == match.Drawn:
		return "draw"
	case slices.Contains(m.Result.Winners, seat):
		return "win"
	}
	return "loss"
}

// tally adds one game, played in time order, to a record.
func tally(gs *wire.GameStats, m *match.Meta, outcome string) {
	gs.Played++
	switch outcome {
	case "win":
		gs.Won++
		gs.CurrentStreak++
		gs.BestStreak = max(gs.BestStreak, gs.CurrentStreak)
	case "draw":
		gs.Drawn++
		gs.CurrentStreak = 0
	default:
		gs.Lost++
		gs.CurrentStreak = 0
	}
	if !m.Started.IsZero() && m.Finished.After(m.Started) {
		gs.PlayedSeconds += int64(m.Finished.Sub(m.Started).Seconds())
	}
	gs.WinRate = math.Round(float64(gs.Won)/float64(gs.Played)*1000) / 1000
}

func (s *Server) statsOf(ctx context.Context, h store.RatingHistory, u *store.User) (wire.Stats, error) {
	out := wire.Stats{User: *s.userWire(ctx, u), Games: []wire.GameStats{}, Recent: []wire.RecentGame{}, ProvisionalAbove: maxLeaderboardDeviation}
	games, complete, err := s.finishedGames(ctx, u.ID)
	if err != nil {
		return out, err
	}
	out.Counted, out.Complete = len(games), complete
	changes, err := h.RatingChanges(ctx, u.ID, "", maxStatsGames)
	if err != nil {
		return out, err
	}
	byGame := make(map[string]store.RatingChange, len(changes))
	for _, c := range changes {
		byGame[c.GameID] = c
	}
	per := map[string]*wire.GameStats{}
	// Oldest first, so that streaks run in the order the games ended.
	sort.SliceStable(games, func(i, j int) bool { return games[i].Finished.Before(games[j].Finished) })
	for i := range games {
		m := &games[i]
		o := outcomeOf(m, u.ID)
		if o == "" {
			continue
		}
		gs := per[m.Game]
		if gs == nil {
			gs = &wire.GameStats{Game: m.Game}
			per[m.Game] = gs
		}
		tally(gs, m, o)
		tally(&out.Total, m, o)
	}
	for i := len(games) - 1; i >= 0 && len(out.Recent) < recentGames; i-- {
		m := &games[i]
		o := outcomeOf(m, u.ID)
		if o == "" {
			continue
		}
		rg := wire.RecentGame{ID: m.ID, Game: m.Game, Finished: m.Finished.UTC(), Outcome: o, Rated: m.Rated, Opponents: []string{}}
		for _, se := range m.Seats {
			switch {
			case se.UserID == u.ID:
			case se.Kind == match.SeatBot:
				rg.Opponents = append(rg.Opponents, "bot "+se.Level)
			default:
				rg.Opponents = append(rg.Opponents, s.userName(ctx, se.UserID))
			}
		}
		if c, ok := byGame[m.ID]; ok {
			rg.RatingChange = ratingChangeOf(c)
		}
		out.Recent = append(out.Recent, rg)
	}
	ratings, err := s.store.Ratings(ctx, u.ID)
	if err != nil {
		return out, err
	}
	for _, r := range ratings {
		if r.Games == 0 {
			continue
		}
		gr := &wire.GameRating{Rating: round1(r.Rating), Deviation: round1(r.Deviation), RatedGames: r.Games, Best: round1(r.Rating),
			Provisional: r.Deviation > maxLeaderboardDeviation, History: []wire.RatingPoint{}}
		for _, c := range changes {
			if c.Game == r.Game {
				gr.Best = max(gr.Best, round1(c.After))
				gr.History = append(gr.History, wire.RatingPoint{GameID: c.GameID, At: c.At.UTC(), Rating: round1(c.After)})
			}
		}
		if n := len(gr.History); n > historyPoints {
			gr.History = gr.History[n-historyPoints:]
		}
		gs := per[r.Game]
		if gs == nil {
			gs = &wire.GameStats{Game: r.Game}
			per[r.Game] = gs
		}
		gs.Rating = gr
	}
	for _, gs := range per {
		out.Games = append(out.Games, *gs)
	}
	sort.Slice(out.Games, func(i, j int) bool { return out.Games[i].Game < out.Games[j].Game })
	return out, nil
}

// addRatingChanges sets each seat's rating change in a finished rated
// game (a summary's, so the game list and the end of the game in the room
// show it). A store that cannot say leaves them out: the summary is still
// right without them.
func (s *Server) addRatingChanges(ctx context.Context, m *match.Meta, seats []wire.Seat) {
	h, ok := s.store.(store.RatingHistory)
	if !ok {
		return
	}
	cs, err := h.GameRatingChanges(ctx, m.ID)
	if err != nil {
		s.log.Warn("rating changes", "game", m.ID, "err", err)
		return
	}
	for _, c := range cs {
		for i, se := range m.Seats {
			if se.UserID == c.UserID && i < len(seats) {
				seats[i].RatingChange = ratingChangeOf(c)
				break
			}
		}
	}
}

// ratingChangeOf is a change as the wire says it: rounded to one place,
// the difference being that of the rounded ratings (round1 is for
// positive numbers only).
func ratingChangeOf(c store.RatingChange) *wire.RatingChange {
	before, after := round1(c.Before), round1(c.After)
	return &wire.RatingChange{Before: before, After: after, Delta: math.Round((after-before)*10) / 10}
}
