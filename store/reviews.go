package store

import (
	"context"
	"time"
)

// Reviews keeps the engine's review of each finished game that has been
// reviewed (the analysis package's work, minutes of a core for a long
// game), so that it is made once for the whole site: any node, any user,
// after a restart. A finished game never changes, so neither does its
// review. The store does not read the document (the server's JSON of it).
type Reviews interface {
	// Review is game id's kept review; nil (and no error) when there is
	// none.
	Review(ctx context.Context, gameID string) ([]byte, error)
	// KeepReview keeps data as game id's review; a second keeps the first.
	KeepReview(ctx context.Context, gameID string, data []byte, at time.Time) error
}
