package account

import (
	"fmt"
	"time"

	"github.com/tabula-games/tabula/store"
)

// Sign-in back-off per account: FreeSignIns sign-ins in a row may fail;
// after that each try waits, firstWait after the first failure over and
// twice as long after each one more, up to maxWait. Failures forgetAfter
// old with no wait pending are forgotten.
const (
	FreeSignIns = 5
	firstWait   = time.Second
	maxWait     = 15 * time.Minute
	forgetAfter = time.Hour
)

// The sign-in back-off slows password guessing at one account however
// many addresses and nodes the guesses come from. It is kept in the store
// by account (the limit "signin:ID"), never by address, and only the
// password sign-in of that account waits: its sessions and API tokens keep
// working, and no other account is touched. Only existing accounts get an
// entry (names are public anyway), and an entry expires once forgotten.

// signInLimit is the name of account id's back-off in the store.
func signInLimit(id int64) string { return fmt.Sprint("signin:", id) }

// beginSignIn is one sign-in at an account whose back-off is l, counted
// before the password is checked so that concurrent guesses count too.
// While the account is backing off it returns the time left, and the try
// is refused and not counted; else it returns how many tries in a row
// this one makes.
func beginSignIn(l store.Limit, now time.Time) (next store.Limit, wait time.Duration, tries int) {
	if now.Before(l.Until) {
		return l, l.Until.Sub(now), int(l.N)
	}
	if l.At.IsZero() || now.Sub(l.At) > forgetAfter {
		l = store.Limit{}
	}
	l.N++
	l.At = now
	if over := int(l.N) - FreeSignIns; over >= 0 {
		wait := maxWait
		if over < 20 {
			wait = min(maxWait, firstWait<<over)
		}
		l.Until = now.Add(wait)
	}
	l.Expires = l.At.Add(forgetAfter)
	if l.Until.After(l.Expires) {
		l.Expires = l.Until
	}
	return l, 0, int(l.N)
}
