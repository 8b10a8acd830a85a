package server

// HoldUserChannels makes every user channel wait in hold between its
// handshake and being served, until the test ends.
func HoldUserChannels(t interface{ Cleanup(func()) }, hold func()) {
	testHookUserUpgraded.Store(&hold)
	t.Cleanup(func() { testHookUserUpgraded.Store(nil) })
}
