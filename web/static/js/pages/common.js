// Pieces several pages use: error messages, seat names, results.

import {h} from '../dom.js'
import {t} from '../i18n.js'

/** errorText explains an API error in the page's language. */
export function errorText(err) {
  if (!err) return ''
  const key = 'error.' + err.code
  const msg = t(key)
  return msg === key ? (err.message || String(err)) : msg
}

export function errorBox(err) {
  return h('p', {class: 'error', role: 'alert'}, errorText(err))
}

/** seatText names a seat of a game summary: its user, its bot, or its state. */
export function seatText(se) {
  if (!se) return ''
  if (se.kind === 'bot') return t('seat.bot', {level: t('bot.' + se.level)})
  if (se.kind === 'open') return t('seat.open')
  if (se.kind === 'invite') return t('seat.invited', {user: se.user || ''})
  return se.user || t('seat.n', {n: se.seat + 1})
}

/** sideName is how a game names a seat (Black, White, Player 1…), in the page's language. */
export function sideName(game, se) {
  if (!se || !se.name) return ''
  if (se.name === 'black' || se.name === 'white') return t('colour.' + se.name)
  return t('seat.player', {n: se.name})
}

/** resultText says how a finished game ended, from the user's seat (or -1). */
export function resultText(sum, seat) {
  const r = sum.result
  if (!r) return sum.status === 'aborted' ? t('result.aborted') : ''
  const reason = r.reason && r.reason !== 'normal' ? ' ' + t('result.reason.' + r.reason) : ''
  if (r.status === 'drawn') return t('result.draw') + reason
  const names = r.winners.map((w) => seatText(sum.seats[w]) + (sum.seats[w]?.name ? ` (${sideName(sum.game, sum.seats[w])})` : ''))
  if (seat >= 0) {
    if (r.winners.includes(seat)) return (r.winners.length > 1 ? t('result.youShare') : t('result.youWon')) + reason
    return t('result.youLost', {winners: names.join(', ')}) + reason
  }
  return t('result.won', {winners: names.join(', ')}) + reason
}

export function gameTitle(name) {
  return t('game.' + name + '.title')
}
