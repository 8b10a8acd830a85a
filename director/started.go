package director

import "github.com/tabula-games/tabula/store"

// started tells Config.Started that t has just started (its status stored
// as running by this director), with the players still registered. It is
// called once, by the director that stored the start: one that takes the
// lease over later finds the tournament running and calls nothing, so a
// director that dies between the two tells nobody rather than twice.
func (d *Director) started(t *store.Tournament, players []store.TournamentPlayer) {
	if d.cfg.Started == nil {
		return
	}
	var ids []int64
	for _, p := range players {
		if !p.Withdrawn && p.BotLevel == "" { // a built-in bot has no inbox
			ids = append(ids, p.UserID)
		}
	}
	d.cfg.Started(*t, ids)
}
