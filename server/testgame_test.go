package server_test

// The test games tnim and tnimh (a pile of stones; with a secret bag of
// tokens) are registered by importing matchtest.
import _ "github.com/tabula-games/tabula/match/matchtest"
