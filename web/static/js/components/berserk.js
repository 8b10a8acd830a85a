// The Berserk button of an arena's game (docs/tournaments.md, Arena): shown
// to a player of a live game with a realtime clock, whose arena allows
// berserk, before that player's first move. Pressing it halves the
// player's own clock (the server then sends every client a fresh snapshot,
// which shows it) for one more point if they win.

import {h} from '../dom.js'
import {t} from '../i18n.js'
import {tournaments} from './tournamentapi.js'

export class Berserk {
  /** changed is called when the buttons should be drawn again; fail shows an error. */
  constructor(gameId, changed, fail) {
    this.gameId = gameId
    this.arena = null // {tournament, berserk} once known; false when the game is no arena's
    this.busy = false
    this.changed = changed
    this.fail = fail
  }

  /** buttons are the block for the game as st holds it (the game page's state). */
  buttons(st) {
    const sum = st.summary
    if (!sum || sum.status !== 'live' || st.seat < 0 || sum.clock?.kind !== 'realtime') return []
    if (this.arena === null) {
      this.arena = undefined // asking
      tournaments.arenaOf(this.gameId).then((a) => (this.arena = a.tournament ? a : false), () => (this.arena = false)).then(() => this.changed())
      return []
    }
    if (!this.arena || !this.arena.berserk) return []
    if ((sum.clock.berserk || 0) & (1 << st.seat)) return [h('span', {class: 'berserked', 'data-test': 'berserked'}, '⚔ ' + t('arena.berserked'))]
    if (st.moves.some((m) => m.seat === st.seat)) return []
    return [h('button', {type: 'button', class: 'berserk', 'data-test': 'berserk', disabled: this.busy, title: t('arena.berserkHelp'), onclick: () => {
      this.busy = true
      this.changed()
      tournaments.berserk(this.arena.tournament, this.gameId).catch((e) => this.fail(e)).finally(() => {
        this.busy = false
        this.changed()
      })
    }}, '⚔ ' + t('arena.berserk'))]
  }
}
