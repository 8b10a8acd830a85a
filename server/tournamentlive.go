package server

import (
	"bytes"
	"context"
	"net/http"
	"sync"
	"time"

	"github.com/tabula-games/tabula/director"
	"github.com/tabula-games/tabula/store"
)

// Standings pushed to the tournament page (issue 25): GET
// /api/tournaments/{id}/events is a stream of Server-Sent Events, each
// "tournament" event's data the tournament as GET /api/tournaments/{id}
// answers it — first at once, then whenever it changes. A change is said
// where it happens (a player joins or withdraws, the creator adds a bot,
// the director stores a start, a round, a result or the end) and reaches
// every node: in a cluster on the bus (PREFIX.tournament, the cluster's
// TournamentChanged), which the other nodes hand to their streams
// (remoteEvents.TournamentChanged). Each node builds a changed
// tournament's answer once for all its streams of it. The page still asks
// every 30 s, and every 3 s while its stream is down.

// tournamentNews is what a Cluster that carries tournament changes between
// nodes implements (package cluster's Node does).
type tournamentNews interface {
	TournamentChanged(id string)
}

// MaxTournamentStreams is the most tournament streams a node serves at
// once; past it a page is answered 503 and keeps asking every 3 s.
const MaxTournamentStreams = 5000

// MaxTournamentStreamsPerAddress is the most tournament streams a node
// serves at once to one address (limitKey: an IPv4 address or an IPv6
// /64), so that one client cannot hold all of a node's streams; past it a
// page is answered 429 and keeps asking every 3 s. A club's or a school's
// screens behind one address follow a tournament with room to spare.
const MaxTournamentStreamsPerAddress = 50

// tournamentPushGap is the least time between two events of one stream: a
// busy arena's results come in bursts, and one answer carries them all.
const tournamentPushGap = 300 * time.Millisecond

// tournamentLive is a node's streams of tournaments.
type tournamentLive struct {
	mu      sync.Mutex
	streams int
	rooms   map[string]*tournamentRoom
	byAddr  map[string]int // streams per limitKey
	// maxStreams and maxPerAddr are the caps when set (tests);
	// MaxTournamentStreams and MaxTournamentStreamsPerAddress when 0.
	maxStreams, maxPerAddr int
}

// tournamentRoom is the streams of one tournament on this node, with its
// latest answer.
type tournamentRoom struct {
	subs  map[chan struct{}]struct{}
	gen   uint64 // changes heard
	built uint64 // the change data was built after
	data  []byte
}

// tournamentChanged tells this node's streams of tournament id, and the
// other nodes', that it changed.
func (s *Server) tournamentChanged(id string) {
	s.tournamentChangedLocally(id)
	if tn, ok := s.cfg.Cluster.(tournamentNews); ok && s.cfg.Cluster != nil {
		tn.TournamentChanged(id)
	}
}

// TournamentChanged hands another node's news of tournament id to this
// node's streams.
func (r remoteEvents) TournamentChanged(id string) { r.h.s.tournamentChangedLocally(id) }

func (s *Server) tournamentChangedLocally(id string) {
	l := &s.tournaments.live
	l.mu.Lock()
	defer l.mu.Unlock()
	room := l.rooms[id]
	if room == nil {
		return
	}
	room.gen++
	for c := range room.subs {
		select {
		case c <- struct{}{}:
		default: // a poke is waiting already
		}
	}
}

// Why join refuses a stream.
const (
	streamsNodeFull = iota + 1 // the node serves as many as it may
	streamsAddrFull            // the address holds as many as it may
)

// join adds a stream of tournament id for the client at addr (limitKey),
// or refuses one past the node's most or the address's (why).
func (l *tournamentLive) join(id, addr string) (poke chan struct{}, leave func(), why int) {
	l.mu.Lock()
	defer l.mu.Unlock()
	maxStreams, maxPerAddr := l.maxStreams, l.maxPerAddr
	if maxStreams <= 0 {
		maxStreams = MaxTournamentStreams
	}
	if maxPerAddr <= 0 {
		maxPerAddr = MaxTournamentStreamsPerAddress
	}
	if l.streams >= maxStreams {
		return nil, nil, streamsNodeFull
	}
	if l.byAddr[addr] >= maxPerAddr {
		return nil, nil, streamsAddrFull
	}
	l.streams++
	if l.byAddr == nil {
		l.byAddr = map[string]int{}
	}
	l.byAddr[addr]++
	if l.rooms == nil {
		l.rooms = map[string]*tournamentRoom{}
	}
	room := l.rooms[id]
	if room == nil {
		room = &tournamentRoom{subs: map[chan struct{}]struct{}{}, gen: 1}
		l.rooms[id] = room
	}
	c := make(chan struct{}, 1)
	room.subs[c] = struct{}{}
	return c, func() {
		l.mu.Lock()
		defer l.mu.Unlock()
		l.streams--
		if l.byAddr[addr]--; l.byAddr[addr] <= 0 {
			delete(l.byAddr, addr)
		}
		delete(room.subs, c)
		if len(room.subs) == 0 {
			delete(l.rooms, id)
		}
	}, 0
}

// latest is tournament id's answer after the latest change, built once
// for every stream of it on this node.
func (s *Server) latestTournament(ctx context.Context, id string) ([]byte, int) {
	l := &s.tournaments.live
	l.mu.Lock()
	room := l.rooms[id]
	if room != nil && room.built == room.gen && room.data != nil {
		data := room.data
		l.mu.Unlock()
		return data, http.StatusOK
	}
	var gen uint64
	if room != nil {
		gen = room.gen
	}
	l.mu.Unlock()
	rec := &recorder{header: http.Header{}, status: http.StatusOK}
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, "/api/tournaments/"+id, nil)
	if err != nil {
		return nil, http.StatusInternalServerError
	}
	req.SetPathValue("id", id)
	s.handleGetTournament(rec, req)
	if rec.status != http.StatusOK {
		return nil, rec.status
	}
	data := bytes.TrimSpace(rec.body.Bytes())
	l.mu.Lock()
	if room != nil && gen > room.built {
		room.built, room.data = gen, data
	}
	l.mu.Unlock()
	return data, http.StatusOK
}

// recorder keeps what a handler answers, for a stream to send on.
type recorder struct {
	header http.Header
	status int
	body   bytes.Buffer
}

func (r *recorder) Header() http.Header         { return r.header }
func (r *recorder) Write(b []byte) (int, error) { return r.body.Write(b) }
func (r *recorder) WriteHeader(status int)      { r.status = status }

// handleTournamentEvents streams tournament id's answers as they change.
func (s *Server) handleTournamentEvents(w http.ResponseWriter, r *http.Request) {
	t, _, _, err := s.tournamentState(r)
	if err != nil {
		writeError(w, err)
		return
	}
	poke, leave, why := s.tournaments.live.join(t.ID, s.limitKey(r))
	switch why {
	case streamsNodeFull:
		w.Header().Set("Retry-After", "30")
		writeError(w, errf(http.StatusServiceUnavailable, "unavailable", "this server follows as many tournaments as it may; the page asks again every few seconds"))
		return
	case streamsAddrFull:
		writeError(w, &apiError{Status: http.StatusTooManyRequests, Code: "rate_limited", RetryAfter: 30 * time.Second,
			Message: "too many tournament streams from your address; the page asks again every few seconds"})
		return
	}
	defer leave()
	rc := openEventStream(w)
	beat := time.NewTicker(sseHeartbeat)
	defer beat.Stop()
	var sent []byte
	for {
		data, status := s.latestTournament(r.Context(), t.ID)
		if status == http.StatusOK && !bytes.Equal(data, sent) {
			if _, err := w.Write(append(append([]byte("event: tournament\ndata: "), data...), '\n', '\n')); err != nil {
				return
			}
			sent = data
			if bytes.Contains(data, []byte(`"status":"`+string(store.TournamentFinished)+`"`)) {
				rc.Flush()
				return // nothing changes any more
			}
		}
		if rc.Flush() != nil {
			return
		}
		select {
		case <-time.After(tournamentPushGap):
		case <-r.Context().Done():
			return
		}
		select {
		case <-poke:
		case <-beat.C:
			if _, err := w.Write([]byte(": beat\n\n")); err != nil {
				return
			}
		case <-r.Context().Done():
			return
		case <-s.ctx.Done():
			return
		}
	}
}

// liveStore is the director's store, telling the tournament's streams of
// every write it makes (the start, a round, a result, the end). It keeps
// the store's table and arena parts, which the director looks for.
type liveStore struct {
	director.Store
	store.Tables
	store.Arenas
	s *Server
}

func (l liveStore) UpdateTournamentFenced(ctx context.Context, epoch int64, t *store.Tournament) error {
	err := l.Store.UpdateTournamentFenced(ctx, epoch, t)
	l.changed(t.ID, err)
	return err
}

func (l liveStore) AddRoundFenced(ctx context.Context, epoch int64, id string, r store.TournamentRound) error {
	err := l.Store.AddRoundFenced(ctx, epoch, id, r)
	l.changed(id, err)
	return err
}

func (l liveStore) SetBoardResultFenced(ctx context.Context, epoch int64, id string, round, board int, result string) error {
	err := l.Store.SetBoardResultFenced(ctx, epoch, id, round, board, result)
	l.changed(id, err)
	return err
}

func (l liveStore) AddTableRoundFenced(ctx context.Context, epoch int64, id string, r store.TournamentRound, seats [][]int64) error {
	err := l.Tables.AddTableRoundFenced(ctx, epoch, id, r, seats)
	l.changed(id, err)
	return err
}

func (l liveStore) SetTableResultFenced(ctx context.Context, epoch int64, id string, round, board int, result string, half, totals []int) error {
	err := l.Tables.SetTableResultFenced(ctx, epoch, id, round, board, result, half, totals)
	l.changed(id, err)
	return err
}

func (l liveStore) SetArenaResultFenced(ctx context.Context, epoch int64, id string, result string, g store.ArenaGame) error {
	err := l.Arenas.SetArenaResultFenced(ctx, epoch, id, result, g)
	l.changed(id, err)
	return err
}

func (l liveStore) changed(id string, err error) {
	if err == nil {
		l.s.tournamentChanged(id)
	}
}

// directorStore is the store the node's director runs on: liveStore when
// the store has tables and arenas (every store of the project), else the
// store itself.
func (s *Server) directorStore(ds director.Store) director.Store {
	tb, ok1 := ds.(store.Tables)
	ar, ok2 := ds.(store.Arenas)
	if !ok1 || !ok2 {
		return ds
	}
	return liveStore{Store: ds, Tables: tb, Arenas: ar, s: s}
}
