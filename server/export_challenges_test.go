package server

import "time"

// ShortChallenges makes a challenge that is not correspondence expire d
// after it is made, not 10 minutes, until the test ends.
func ShortChallenges(t interface{ Cleanup(func()) }, d time.Duration) {
	testChallengeTTL.Store(int64(d))
	t.Cleanup(func() { testChallengeTTL.Store(0) })
}
