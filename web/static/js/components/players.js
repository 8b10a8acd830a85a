// How lists of games (lobby, home, profile) and the game room show a
// game's players: each person's name links to their profile with their
// rating in the game beside it (docs/api.md: a seat's "rating",
// "provisional") and, once a rated game is over, what it changed
// ("ratingChange"); bots and open seats in words; and the game's time
// control in a few characters.

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

/** signed writes a rating change as people read one: "+12", "−8" (a minus sign, not a hyphen), "±0". */
export const signed = (d) => (d > 0 ? '+' + d : d < 0 ? '\u2212' + -d : '±0')

/**
 * ratingChangeBadge is what a finished rated game changed of a seat's
 * rating ("+12", with the ratings before and after as its title), or null
 * for a seat without one (an unrated game, a game not over, a bot).
 */
export function ratingChangeBadge(se) {
  const c = se && se.ratingChange
  if (!c || typeof c.delta !== 'number') return null
  const d = Math.round(c.delta)
  const title = t('rating.change', {before: Math.round(c.before), after: Math.round(c.after)})
  return h('span', {class: 'profile-delta rating-change' + (d > 0 ? ' up' : d < 0 ? ' down' : ''), 'data-test': 'rating-change', title,
    'aria-label': title + ' (' + signed(d) + ')'}, signed(d))
}

/**
 * myRatingChange is the result's line for the seat the reader plays in a
 * finished rated game ("Your rating: 1500 → 1512 +12"), or null.
 */
export function myRatingChange(sum, seat) {
  const se = seat >= 0 && sum.seats[seat]
  const badge = ratingChangeBadge(se)
  if (!badge) return null
  const c = se.ratingChange
  return h('span', {class: 'my-rating-change', 'data-test': 'my-rating-change'},
    t('rating.yourChange', {before: Math.round(c.before), after: Math.round(c.after)}), ' ', badge)
}

/**
 * provisionalNote says in words what the "?" after a rating means, for
 * the places that show seats' ratings (a tooltip alone is not seen on a
 * phone); null when no seat's rating is provisional.
 */
export function provisionalNote(seats) {
  if (!seats.some((se) => se.provisional && typeof se.rating === 'number')) return null
  return h('p', {class: 'muted provisional-note', 'data-test': 'provisional-note'}, t('rating.provisionalNote'))
}

/** seatNode is one seat of a summary: the name (a link for people), its rating and what a finished rated game changed of it. */
export function seatNode(se, seats) {
  const name = se.kind === 'human' && se.user ?
    h('a', {href: '#/user/' + encodeURIComponent(se.user), class: 'who'}, se.user) :
    h('span', {class: 'who' + (se.kind === 'open' ? ' muted' : '')}, seatText(se, seats))
  return h('span', {class: 'player', 'data-seat': se.seat}, name, botBadge(se.bot), ratingBadge(se), ratingChangeBadge(se))
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
    // The API leaves a zero out (omitempty): "1+0", not "1+NaN".
    const min = Math.round(((clock.initialMs || 0) / 60000) * 10) / 10
    return `${min}+${Math.round((clock.incrementMs || 0) / 1000)}`
  }
  if (clock.kind === 'correspondence') return t('clock.perMove', {n: clock.days})
  return ''
}
