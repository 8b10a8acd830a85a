package director

import (
	"io"

	"github.com/tabula-games/tabula/store"
	"github.com/tabula-games/tabula/tournament"
)

// TieBreaks are the tie-breaks of a tournament's format.
func TieBreaks(t *store.Tournament) []tournament.TieBreak {
	if t.Format == RoundRobin {
		return tournament.RoundRobinTieBreaks
	}
	return tournament.SwissTieBreaks
}

// Standings ranks a tournament's players (by their pairing numbers, as
// players lists them) after the stored rounds; boards still being played
// count nothing yet.
func Standings(t *store.Tournament, players []store.TournamentPlayer, rounds []store.TournamentRound) ([]tournament.Standing, error) {
	hist, err := History(players, rounds)
	if err != nil {
		return nil, err
	}
	return tournament.Standings(len(players), hist, TieBreaks(t))
}

// WriteTRF writes the tournament's FIDE TRF report (docs/tournaments.md
// describes it): players numbered by pairing number plus one.
func WriteTRF(w io.Writer, t *store.Tournament, players []store.TournamentPlayer, rounds []store.TournamentRound) error {
	hist, err := History(players, rounds)
	if err != nil {
		return err
	}
	info := tournament.TRFInfo{Name: t.Name, Start: t.Start.Format("2006/01/02"), Rounds: t.Rounds}
	if !t.Finished.IsZero() {
		info.End = t.Finished.Format("2006/01/02")
	}
	tp := make([]tournament.TRFPlayer, len(players))
	for i, p := range players {
		tp[i] = tournament.TRFPlayer{Name: p.Name}
	}
	return tournament.WriteTRF(w, info, tp, hist)
}
