// How lists of games (lobby, home, profile) show a game's players: each
// person's name links to their profile with their rating in the game
// beside it (docs/api.md: a seat's "rating", "provisional"), bots and
// open seats in words; and the game's time control in a few characters.

import {h} from '../dom.js'
import {t} from '../i18n.js'
import {seatText} from '../seats.js'
import {botBadge} from './botbadge.js'

/** ratingBadge is a seat's rating ("1623", "1500?" while provisional), or null. */
export function ratingBadge(se) {
  if (!se || typeof se.rating !== 'number') return null
  const title = se.provisional ? t('rating.provisional', {rating: se.rating}) : t('rating.title', {rating: se.rating})
  return h('span', {class: 'rating' + (se.provisional ? ' provisional' : ''), 'data-test': 'rating', title, 'aria-label': title},
    String(se.rating) + (se.provisional ? '?' : ''))
}

/** seatNode is one seat of a summary: the name (a link for people) and its rating. */
export function seatNode(se, seats) {
  const name = se.kind === 'human' && se.user ?
    h('a', {href: '#/user/' + encodeURIComponent(se.user), class: 'who'}, se.user) :
    h('span', {class: 'who' + (se.kind === 'open' ? ' muted' : '')}, seatText(se, seats))
  return h('span', {class: 'player', 'data-seat': se.seat}, name, botBadge(se.bot), ratingBadge(se))
}

/** playersLine lists a summary's seats, rating beside each rated name. */
export function playersLine(sum) {
  const out = []
  sum.seats.forEach((se, i) => {
    if (i) out.push(h('span', {class: 'sep', 'aria-hidden': 'true'}, ' · '))
    out.push(seatNode(se, sum.seats))
  })
  return h('span', {class: 'seats', 'data-test': 'players'}, out)
}

/** clockText is a summary's time control in short ("5+3", "3 days"), '' without a clock. */
export function clockText(clock) {
  if (!clock || clock.kind === 'none') return ''
  if (clock.kind === 'realtime') {
    const min = Math.round((clock.initialMs / 60000) * 10) / 10
    return `${min}+${Math.round(clock.incrementMs / 1000)}`
  }
  if (clock.kind === 'correspondence') return t('clock.perMove', {n: clock.days})
  return ''
}
