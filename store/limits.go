package store

import (
	"context"
	"time"
)

// Limits is the state of the limits that protect an account or the site —
// a sign-in back-off per account, budgets of sign-ups and sign-ins per
// address, a user's creations in flight — kept in the store so that every
// node sharing it counts the same: three nodes must not give an attacker
// three times the guesses. The store keeps the numbers and makes each
// update atomic; what they mean (a token bucket, a back-off) is the
// caller's.
//
// Times are the caller's clock (the server's Now), not the database's:
// nodes whose clocks differ by d may let a wait end up to d early or late.
type Limits interface {
	// UpdateLimit replaces the limit stored under name by f's result, in
	// one atomic step: updates of one name, by any node sharing the store,
	// happen one after another and each sees the one before. f gets the
	// zero Limit when there is none or the stored one had expired at now;
	// a result whose Expires is not after now forgets the limit (the next
	// update gets the zero Limit; DeleteExpiredLimits removes it). f must
	// only compute (it runs inside the store's transaction). UpdateLimit
	// returns what it stored (the zero Limit for one forgotten).
	UpdateLimit(ctx context.Context, name string, now time.Time, f func(Limit) Limit) (Limit, error)
	// DeleteExpiredLimits removes the limits expired at now and says how
	// many there were.
	DeleteExpiredLimits(ctx context.Context, now time.Time) (int64, error)
}

// Limit is one limit's state.
type Limit struct {
	// N is what the limit counts: tokens left in a bucket, failures in a
	// row.
	N float64
	// At is when it last counted.
	At time.Time
	// Until is the end of a wait it imposes (zero: none).
	Until time.Time
	// Holder names who holds a limit used as a short lock ("" if none).
	Holder string
	// Expires is when the entry stops meaning anything: a full bucket,
	// failures long forgotten. It is deleted then.
	Expires time.Time
}
