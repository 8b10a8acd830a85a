package server

import (
	"context"
	"fmt"
	"io/fs"
	"net/http"
	"runtime/debug"
	"strconv"
	"time"

	"github.com/tabula-games/tabula/account"
	"github.com/tabula-games/tabula/store"
)

func (s *Server) routes() {
	mux := http.NewServeMux()
	open := func(pattern string, h http.HandlerFunc) { mux.Handle(pattern, s.middleware(h)) }
	authed := func(pattern string, h func(http.ResponseWriter, *http.Request, *store.User)) {
		mux.Handle(pattern, s.middleware(func(w http.ResponseWriter, r *http.Request) {
			u, err := s.signedIn(r)
			if err != nil {
				writeError(w, err)
				return
			}
			h(w, r, u)
		}))
	}

	open("POST /api/guest", s.handleGuest)
	open("POST /api/users", s.handleRegister)
	open("POST /api/session", s.handleLogin)
	open("DELETE /api/session", s.handleLogout)
	open("GET /api/session", s.handleSession)
	authed("GET /api/me", s.handleMe)
	authed("POST /api/tokens", s.handleCreateToken)
	authed("GET /api/tokens", s.handleTokens)
	authed("DELETE /api/tokens/{id}", s.handleDeleteToken)
	// Bot accounts (bots.go): one way, for a registered user with no games.
	authed("POST /api/me/bot", s.handleMakeBot)
	// Board preferences per account (issue 27.10, prefs.go).
	authed("GET /api/me/prefs", s.handleGetPrefs)
	authed("PUT /api/me/prefs", s.handlePutPrefs)
	open("GET /api/users/{name}", s.handleUser)
	open("GET /api/users/{name}/stats", s.handleUserStats)
	authed("GET /api/blocks", s.handleBlocks)
	authed("POST /api/blocks/{name}", s.handleBlock)
	authed("DELETE /api/blocks/{name}", s.handleUnblock)
	// Follows and the inbox (follows.go, inbox.go).
	authed("GET /api/follows", s.handleFollows)
	authed("POST /api/follows/{name}", s.handleFollow)
	authed("DELETE /api/follows/{name}", s.handleUnfollow)
	authed("GET /api/inbox", s.handleInbox)
	authed("GET /api/inbox/unread", s.handleInboxUnread)
	authed("POST /api/inbox/read", s.handleInboxRead)

	open("GET /api/catalog", s.handleCatalog)
	authed("POST /api/games", s.handleCreateGame)
	open("GET /api/games", s.handleListGames)
	open("GET /api/games/{id}", s.handleGetGame)
	authed("POST /api/games/{id}/join", s.handleJoin)
	authed("POST /api/games/{id}/leave", s.handleLeave)
	authed("POST /api/games/{id}/abort", s.handleAbort)
	authed("POST /api/games/{id}/moves", s.handleMove)
	authed("POST /api/games/{id}/resign", s.handleResign)
	authed("POST /api/games/{id}/rematch", s.handleRematch)
	// Conditional moves of correspondence games (issue 27.9, conditional.go).
	authed("GET /api/games/{id}/conditional", s.handleGetConditional)
	authed("PUT /api/games/{id}/conditional", s.handlePutConditional)
	authed("DELETE /api/games/{id}/conditional", s.handleDeleteConditional)
	authed("POST /api/pairing", s.handlePairing)
	// Challenges (challenges.go).
	authed("POST /api/challenges", s.handleCreateChallenge)
	authed("GET /api/challenges", s.handleChallenges)
	authed("POST /api/challenges/{id}/accept", s.handleAcceptChallenge)
	authed("POST /api/challenges/{id}/decline", s.handleDeclineChallenge)
	authed("POST /api/challenges/{id}/cancel", s.handleCancelChallenge)
	open("GET /api/online", s.handleOnline)
	authed("GET /api/notifications", s.handleNotifications)
	open("GET /api/games/{id}/ws", s.handleGameWS)
	open("GET /api/ws", s.handleUserWS)

	open("GET /api/games/{id}/record", s.handleRecord)
	open("GET /api/games/{id}/record.txt", s.handleRecordText)
	open("GET /api/games/{id}/replay", s.handleReplay)
	authed("POST /api/records", s.handleImport)
	open("GET /api/leaderboard/{game}", s.handleLeaderboard)
	open("POST /api/rules/{game}", s.handleRules)
	// Rated puzzles, the streak, the daily puzzle, the history (issue 27.8, puzzles.go).
	open("GET /api/puzzles/daily", s.handlePuzzleDaily)
	authed("GET /api/puzzles/history", s.handlePuzzleHistory)
	open("GET /api/puzzles/{game}", s.handlePuzzleSet)
	authed("POST /api/puzzles/{game}/{id}/attempt", s.handlePuzzleAttempt)
	authed("POST /api/puzzles/{game}/streak", s.handlePuzzleStreakStart)
	authed("POST /api/puzzles/{game}/streak/attempt", s.handlePuzzleStreakAttempt)
	authed("POST /api/analysis", s.handleAnalysis)
	authed("GET /api/analysis/{id}/events", s.handleAnalysisEvents)
	authed("POST /api/analysis/{id}/stop", s.handleAnalysisStop)
	authed("POST /api/games/{id}/review", s.handleReview)

	authed("POST /api/tournaments", s.handleCreateTournament)
	open("GET /api/tournaments", s.handleListTournaments)
	open("GET /api/tournaments/{id}", s.handleGetTournament)
	authed("POST /api/tournaments/{id}/join", s.handleJoinTournament)
	authed("POST /api/tournaments/{id}/withdraw", s.handleWithdrawTournament)
	open("GET /api/tournaments/{id}/trf", s.handleTournamentTRF)
	open("GET /api/tournaments/{id}/games", s.handleTournamentPlayerGames)
	open("GET /api/tournaments/{id}/standings", s.handleArenaStandings)
	// The server's own bots in a tournament, by its creator; its page's live stream (tournamentserverbots.go, tournamentlive.go).
	authed("POST /api/tournaments/{id}/bots", s.handleAddTournamentBots)
	authed("DELETE /api/tournaments/{id}/bots/{number}", s.handleRemoveTournamentBot)
	open("GET /api/tournaments/{id}/events", s.handleTournamentEvents)
	// Arenas (issue 25): pause, resume, berserk; whether a game is an arena's (arena.go).
	authed("POST /api/tournaments/{id}/pause", s.handleArenaPause(true))
	authed("POST /api/tournaments/{id}/resume", s.handleArenaPause(false))
	authed("POST /api/tournaments/{id}/berserk", s.handleArenaBerserk)
	open("GET /api/arena-game", s.handleArenaGame)
	// The bot ladder (issue 26.5, ladder.go): bots opt in per game; one node's matchmaker pairs them.
	authed("POST /api/ladder/{game}/join", s.handleLadderJoin)
	authed("POST /api/ladder/{game}/leave", s.handleLadderLeave)
	open("GET /api/ladder/{game}", s.handleLadder)
	s.startLadder()

	// Game history (issue 24.7): a player's finished games, filtered and paged; the same as records, JSON lines.
	open("GET /api/users/{name}/games", s.handleHistory)
	open("GET /api/users/{name}/games.jsonl", s.handleHistoryExport)

	// Moderation: reports, and the moderators' endpoints (moderation.go).
	authed("POST /api/reports", s.handleReport)
	authed("GET /api/moderation/role", s.handleModerationRole)
	authed("GET /api/moderation/reports", s.moderator(s.handleModerationReports))
	authed("GET /api/moderation/log", s.moderator(s.handleModerationLog))
	authed("POST /api/moderation/{action}", s.moderator(s.handleModerationAction))

	// Finding people (issue 24.3, people.go): players by name prefix, who is online on the whole site.
	open("GET /api/users", s.handleSearchUsers)
	open("GET /api/online/players", s.handleOnlinePlayers)

	open("/api/", func(w http.ResponseWriter, r *http.Request) {
		writeError(w, errf(http.StatusNotFound, "not_found", "no API route %s %s", r.Method, r.URL.Path))
	})
	mux.HandleFunc("GET /healthz", s.handleHealth)
	if s.cfg.Web != nil {
		if entries, err := fs.ReadDir(s.cfg.Web, "."); err == nil && len(entries) > 0 {
			mux.Handle("/", newWebApp(s.cfg.Web))
		}
	}
	s.handler = s.protect(mux)
}

// signedIn is the user behind a request's credentials; errUnauthorized
// when there are none.
func (s *Server) signedIn(r *http.Request) (*store.User, error) {
	u, err := s.authenticate(r)
	if err == nil && u == nil {
		err = errUnauthorized
	}
	return u, err
}

// middleware wraps every API handler: rate limits,
// panics turned into 503s, and the status code counted.
func (s *Server) middleware(h http.HandlerFunc) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		rec := &statusRecorder{ResponseWriter: w}
		start := time.Now()
		defer func() {
			if p := recover(); p != nil {
				if p == http.ErrAbortHandler {
					panic(p)
				}
				s.log.Error("panic", "method", r.Method, "path", r.URL.Path, "panic", fmt.Sprint(p), "stack", string(debug.Stack()))
				if rec.status == 0 {
					writeError(rec, errUnavailable)
				}
			}
			if rec.status != 0 {
				s.metrics.requests.WithLabelValues(strconv.Itoa(rec.status)).Inc()
			}
			s.log.Debug("request", "method", r.Method, "path", r.URL.Path, "status", rec.status, "ms", time.Since(start).Milliseconds())
		}()
		if !s.allow(r) {
			writeError(rec, errf(http.StatusTooManyRequests, "rate_limited", "too many requests; slow down"))
			return
		}
		h(rec, r)
	})
}

// allow applies the per-client rate limit: by credential when one is sent
// (each user has its own budget), and by address always, with a wider
// budget, so that inventing credentials does not escape the limit.
func (s *Server) allow(r *http.Request) bool {
	if s.cfg.RateLimit <= 0 {
		return true
	}
	now := s.now()
	if !s.ipLimits.allow(s.limitKey(r), now) {
		return false
	}
	key := r.Header.Get("Authorization")
	if key == "" {
		if c, err := r.Cookie(sessionCookie); err == nil {
			key = c.Value
		}
	}
	if key == "" {
		return true
	}
	return s.limits.allow(string(account.HashSecret(key)), now)
}

func (s *Server) handleHealth(w http.ResponseWriter, r *http.Request) {
	ctx, cancel := context.WithTimeout(r.Context(), 2*time.Second)
	defer cancel()
	if s.ctx.Err() != nil {
		writeJSON(w, http.StatusServiceUnavailable, map[string]string{"status": "shutting down"})
		return
	}
	if err := s.store.Ping(ctx); err != nil {
		writeJSON(w, http.StatusServiceUnavailable, map[string]string{"status": "store unavailable"})
		return
	}
	if s.cfg.Cluster != nil {
		if err := s.cfg.Cluster.Healthy(); err != nil {
			writeJSON(w, http.StatusServiceUnavailable, map[string]string{"status": "cluster: " + err.Error()})
			return
		}
	}
	writeJSON(w, http.StatusOK, map[string]string{"status": "ok"})
}
