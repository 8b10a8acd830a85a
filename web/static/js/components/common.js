// Pieces several pages use: error messages, seat names, results.

import {h} from '../dom.js'
import {t} from '../i18n.js'
import {games} from '../games/registry.js'
import {seatText, sideName as sideOf} from '../seats.js'

export {seatText}

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

/** sideName is how a game names a seat (Black, White, Player 1…), in the page's language. */
export function sideName(game, se) {
  return se ? sideOf(se.name) : ''
}

/**
 * moverNames names the side that made each move, as it was when the move
 * was made: after a Sgolte pie swap the seats play the other colours, so
 * the seats' current names do not name the earlier moves.
 */
export function moverNames(sum, moves) {
  const g = games[sum.game]
  const sides = g && g.moverSides ? g.moverSides(moves) : null
  return moves.map((m, i) => {
    const se = sum.seats[m.seat]
    return (sides ? sideOf(sides[i]) : sideName(sum.game, se)) || seatText(se, sum.seats)
  })
}

/** resultText says how a finished game ended, from the user's seat (or -1). */
export function resultText(sum, seat) {
  const r = sum.result
  if (!r) return sum.status === 'aborted' ? t('result.aborted') : ''
  const reason = r.reason && r.reason !== 'normal' ? ' ' + t('result.reason.' + r.reason) : ''
  if (r.status === 'drawn') return t('result.draw') + reason
  // The side follows the player after a dot, not in brackets: a bot's
  // name carries its level in brackets already ("Bot (easy) · Player 2").
  const names = r.winners.map((w) => seatText(sum.seats[w], sum.seats) + (sum.seats[w]?.name ? ` · ${sideName(sum.game, sum.seats[w])}` : ''))
  if (seat >= 0) {
    if (r.winners.includes(seat)) return (r.winners.length > 1 ? t('result.youShare') : t('result.youWon')) + reason
    return t('result.youLost', {winners: names.join(', ')}) + reason
  }
  return t('result.won', {winners: names.join(', ')}) + reason
}

/** resultOf says how a finished game ended for the player named name (not the reader). */
export function resultOf(sum, name) {
  const r = sum.result
  const seat = sum.seats.findIndex((se) => se.user === name)
  if (!r || seat < 0) return resultText(sum, -1)
  const reason = r.reason && r.reason !== 'normal' ? ' ' + t('result.reason.' + r.reason) : ''
  if (r.status === 'drawn') return t('result.draw') + reason
  if (!r.winners.includes(seat)) return t('result.theyLost', {name}) + reason
  return (r.winners.length > 1 ? t('result.theyShare', {name}) : t('result.theyWon', {name})) + reason
}

export function gameTitle(name) {
  return t('game.' + name + '.title')
}
