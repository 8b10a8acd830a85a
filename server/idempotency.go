package server

import (
	"context"
	"crypto/sha256"
	"errors"
	"fmt"
	"net/http"

	"github.com/tabula-games/tabula/match"
	"github.com/tabula-games/tabula/store"
)

// An HTTP command may reach the server twice although its client sent it
// once: a proxy that loses the node a request went to before the node
// answered tells the client the request was not processed, and the client
// sends it again. HAProxy does so (HTTP/2 RST_STREAM REFUSED_STREAM, or an
// HTTP/1.1 keep-alive connection closed without an answer), and browsers and
// Go's HTTP client resend such a request by themselves — a join, move or
// abort the dead node had already run or forwarded to the game's owner
// (cluster/e2e TestProxyResendsARequestItsNodeDropped). The game channel's
// commands are told apart by their message ids (gamechannel.go); an HTTP
// command by the Idempotency-Key header its client sends with it.

// headerIdempotencyKey names the client's key for one HTTP command: the same
// key on a command sent again makes it a copy (docs/api.md).
const headerIdempotencyKey = "Idempotency-Key"

// commandKey is the idempotency key of an HTTP command (match.Command.Key)
// and whether the command may be a copy of one sent before
// (match.Command.Retry): with no Idempotency-Key header, neither. With one,
// a copy that reaches the owner that answered the first gets the first
// answer; one that reaches the game's next owner, after the first's died, is
// judged by what is stored (a join by the seat held, a move by the move at
// its ply, an end by the game's result) — so every keyed command is marked
// as a possible copy: the mark changes the answer only where the command's
// effect is already there.
func commandKey(r *http.Request) (key string, retry bool, err error) {
	v := r.Header.Get(headerIdempotencyKey)
	if v == "" {
		return "", false, nil
	}
	if len(v) > maxKeyID {
		return "", false, errf(http.StatusBadRequest, "bad_request", "an %s is at most %d characters", headerIdempotencyKey, maxKeyID)
	}
	for i := 0; i < len(v); i++ {
		if v[i] < 0x21 || v[i] > 0x7e {
			return "", false, errf(http.StatusBadRequest, "bad_request", "an %s is printable ASCII without spaces", headerIdempotencyKey)
		}
	}
	// Its own prefix keeps an HTTP key apart from the game channel's keys
	// (a connection's prefix and a message id); the owner matches keys per
	// user.
	return "http/" + v, true, nil
}

// keyed is c with the idempotency key of the request that sent it.
func keyed(r *http.Request, c match.Command) (match.Command, error) {
	key, retry, err := commandKey(r)
	if err != nil {
		return c, err
	}
	c.Key, c.Retry = key, retry
	return c, nil
}

// keyedGameID is the id of the game user uid creates with the idempotency
// key key (commandKey's): derived from the two, as match.RematchID is from
// the finished game's, so that a copy of the creation names the same game
// on whatever node it lands, and the store, which holds one game by an id,
// tells the copy apart. It is two characters longer than other games' ids
// (newID's, RematchID's): a client chooses its keys, and searching keys
// for one whose id is that of a game to come — a finished game's rematch —
// would take that id away from it.
func keyedGameID(uid int64, key string) string {
	sum := sha256.Sum256(fmt.Appendf(nil, "tabula game of user %d with key %s", uid, key))
	return idOf(sum[:], 12)
}

// createdBefore is game id (keyedGameID) as it stands, if user u created
// it: a copy of u's creation of a game of name, a challenge or not; nil
// when there is no such game. A key used before for another kind of game
// is a client's mistake, refused.
func (s *Server) createdBefore(ctx context.Context, u *store.User, id, name string, challenge bool) (*match.Snapshot, error) {
	snap, err := s.snapshot(ctx, id)
	if errors.Is(err, errNotFound) {
		return nil, nil
	} else if err != nil {
		return nil, err
	}
	if snap.Meta.CreatorID != u.ID {
		// Not one of u's keys: another user's id, by a hash's chance.
		return nil, errf(http.StatusConflict, "conflict", "use another %s", headerIdempotencyKey)
	}
	if snap.Meta.Game != name || snap.Meta.Challenge() != challenge {
		return nil, errf(http.StatusBadRequest, "bad_request", "this %s made another game (of %s): send a new key with each game", headerIdempotencyKey, snap.Meta.Game)
	}
	return snap, nil
}

// createKeyed runs create, which makes a game for user u (of name, a
// challenge or not) with the id it is given ("": a new one): with the
// request's Idempotency-Key, an id derived from it, so that a copy of the
// creation is answered (by answer) with the game the first made, or is
// making, rather than making a second.
func createKeyed[T any](s *Server, r *http.Request, u *store.User, name string, challenge bool,
	create func(id string) (T, error), answer func(*match.Snapshot) T) (T, error) {
	var zero T
	key, _, err := commandKey(r)
	if err != nil {
		return zero, err
	}
	if key == "" {
		return create("")
	}
	id := keyedGameID(u.ID, key)
	if snap, err := s.createdBefore(r.Context(), u, id, name, challenge); snap != nil || err != nil {
		if err != nil {
			return zero, err
		}
		return answer(snap), nil
	}
	res, err := create(id)
	var me *match.Error
	if errors.As(err, &me) && me.Code == match.CodeConflict {
		// The first copy stored it a moment ago.
		if snap, err := s.createdBefore(r.Context(), u, id, name, challenge); snap != nil {
			return answer(snap), nil
		} else if err != nil {
			return zero, err
		}
	}
	return res, err
}
