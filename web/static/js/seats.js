// How the interface names seats and sides, in the page's language. Boards
// and pages both use it, so a seat reads the same everywhere.

import {t} from './i18n.js'

/**
 * seatText names a seat of a game summary: its user, its bot, or its state.
 * seats (optional): every seat of the game; bots that would share a name
 * (three "easy" bots in a Skyjo game) are told apart by their seat number.
 */
export function seatText(se, seats) {
  if (!se) return ''
  if (se.kind === 'bot') {
    const level = t('bot.' + se.level)
    const twins = (seats || []).filter((o) => o.kind === 'bot' && o.level === se.level).length
    return twins > 1 ? t('seat.botN', {n: se.seat + 1, level}) : t('seat.bot', {level})
  }
  if (se.kind === 'open') return t('seat.open')
  if (se.kind === 'invite') return t('seat.invited', {user: se.user || ''})
  return se.user || t('seat.n', {n: se.seat + 1})
}

/** sideName is how a game names a seat's side (Black, White, Player 1…) from its notation name. */
export function sideName(name) {
  if (!name) return ''
  if (name === 'black' || name === 'white') return t('colour.' + name)
  return t('seat.player', {n: name})
}
