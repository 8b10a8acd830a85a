// Package tournament is the core of Tabula's tournaments, free of any
// server: Swiss pairing by the FIDE Dutch system, arena pairing and
// scoring in the style of lichess, Berger round-robin tables, Skyjo table
// seating, standings with their tie-breaks and the FIDE TRF report.
//
// Everything here is a pure function of its arguments: given the players,
// the rounds played (or the games finished) and the options, it returns the
// next pairings or the standings. It holds no clocks, goroutines or
// storage, so a director — one process that owns a tournament, on one node
// or under a lease among many — can recompute anything from what it stored
// and get the same answer. docs/tournaments.md explains the formats to
// players.
package tournament
