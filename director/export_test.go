package director

// NextRound is nextRound, for the tests of the package's outside.
var NextRound = nextRound
