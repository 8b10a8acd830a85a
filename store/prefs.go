package store

import (
	"context"
	"time"
)

// UserPrefs keeps each account's board preferences (issue 27, point 10):
// one small JSON document per user, validated and bounded by the server
// before it is stored, so that a player finds their board size, zen mode
// and board themes in any browser they sign in with. The store does not
// read the document.
type UserPrefs interface {
	// Prefs returns the user's saved preferences; nil (and no error) when
	// none were ever saved.
	Prefs(ctx context.Context, userID int64) ([]byte, error)
	// SetPrefs replaces the user's preferences with data.
	SetPrefs(ctx context.Context, userID int64, data []byte, at time.Time) error
}
