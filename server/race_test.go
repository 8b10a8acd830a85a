//go:build race

package server_test

// raceEnabled: the race detector slows message-heavy tests about tenfold,
// so they play fewer games under it (the full counts run without -race).
const raceEnabled = true
