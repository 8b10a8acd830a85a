// Pieces of the tournament pages: a tournament's facts in one line, an
// error with the server's own words, and the standings table.

import {h} from '../dom.js'
import {t} from '../i18n.js'
import {errorText, gameTitle} from './common.js'
import {clockText} from './players.js'
import {userLink} from './leaderboard.js'

/** facts: format, game, clock, rounds, rated, password — one short line. */
export function facts(tr) {
  const parts = [t('tournament.format.' + tr.format), gameTitle(tr.game)]
  const c = clockText(tr.clock)
  if (c) parts.push(c)
  if (tr.rounds) parts.push(t('tournament.roundsN', {n: tr.rounds}))
  parts.push(tr.rated ? t('tournament.rated') : t('tournament.casual'))
  if (tr.password) parts.push(t('tournament.private'))
  return parts.join(' · ')
}

/** problem explains an API refusal: the page's words, and the server's where they say more. */
export function problem(err) {
  const text = err.code === 'password' ? t('tournament.error.password') : errorText(err)
  const more = err.message && err.message !== text && err.code !== 'password' ? ' — ' + err.message : ''
  return h('p', {class: 'error', role: 'alert', 'data-test': 'tn-error'}, text + more)
}

const TIE_BREAKS = ['buchholz', 'buchholz-cut1', 'sonneborn-berger', 'wins', 'direct-encounter']

/** standingsTable: rank, player, points, W/D/L, and the format's tie-breaks in the API's order. */
export function standingsTable(standings, format) {
  const order = format === 'roundrobin' ? ['direct-encounter', 'sonneborn-berger', 'wins'] : TIE_BREAKS
  const keys = order.filter((k) => standings.some((s) => s.tieBreaks && k in s.tieBreaks))
  const num = (x) => (Number.isInteger(x) ? String(x) : x.toFixed(2).replace(/0$/, '').replace('.5', '½').replace(/^0½/, '½'))
  return h('div', {class: 'tn-scroll'}, h('table', {class: 'ratings tn-standings', 'data-test': 'tn-standings'},
    h('thead', {}, h('tr', {},
      h('th', {scope: 'col'}, '#'), h('th', {scope: 'col'}, t('tournament.player')), h('th', {scope: 'col'}, t('tournament.points')),
      h('th', {scope: 'col'}, t('tournament.wdl')),
      keys.map((k) => h('th', {scope: 'col', class: 'tn-tb', title: t('tournament.tb.' + k)}, t('tournament.tbShort.' + k))))),
    h('tbody', {}, standings.map((s) => h('tr', {'data-user': s.name},
      h('td', {}, String(s.rank)), h('td', {class: 'tn-name'}, userLink(s.name)),
      h('td', {class: 'tn-points', 'data-test': 'tn-points'}, num(s.points)),
      h('td', {'data-test': 'tn-wdl'}, `${s.wins}/${s.draws}/${s.losses}`),
      keys.map((k) => h('td', {class: 'tn-tb'}, num(s.tieBreaks[k] ?? 0))))))))
}

/**
 * arenaTable: an arena's standings — rank, player (🔥 on fire, paused,
 * withdrawn), points, each game's points in the order played (those that
 * counted double marked), W/D/L, berserks, and the game being played.
 */
export function arenaTable(lines) {
  return h('div', {class: 'tn-scroll'}, h('table', {class: 'ratings tn-standings tn-arena', 'data-test': 'tn-standings'},
    h('thead', {}, h('tr', {},
      h('th', {scope: 'col'}, '#'), h('th', {scope: 'col'}, t('tournament.player')), h('th', {scope: 'col'}, t('tournament.points')),
      h('th', {scope: 'col', class: 'tn-sheet-h'}, t('arena.sheet')), h('th', {scope: 'col'}, t('tournament.wdl')),
      h('th', {scope: 'col', class: 'tn-bz', title: t('arena.berserks')}, '⚔'), h('th', {scope: 'col'}, t('arena.now')))),
    h('tbody', {}, lines.map((s) => h('tr', {'data-user': s.name, class: s.withdrawn ? 'withdrawn' : null},
      h('td', {}, String(s.rank)),
      h('td', {class: 'tn-name'}, userLink(s.name),
        s.onFire ? h('span', {class: 'tn-fire', 'data-test': 'tn-fire', title: t('arena.onFire', {n: s.streak})}, ' 🔥') : null,
        s.paused ? h('span', {class: 'muted', 'data-test': 'tn-paused'}, ' (' + t('arena.paused') + ')') : null,
        s.withdrawn ? h('span', {class: 'muted'}, ' (' + t('tournament.withdrawn') + ')') : null),
      h('td', {class: 'tn-points', 'data-test': 'tn-points'}, String(s.points)),
      h('td', {class: 'tn-sheet-c'}, h('span', {class: 'tn-sheet', 'data-test': 'tn-sheet'},
        s.sheet.slice(-12).map((p, i, a) => h('span', {class: s.fire[s.fire.length - a.length + i] ? 'fire' : null}, String(p))))),
      h('td', {'data-test': 'tn-wdl'}, `${s.wins}/${s.draws}/${s.losses}`),
      h('td', {class: 'tn-bz'}, s.berserks ? String(s.berserks) : ''),
      h('td', {}, s.playing ? h('a', {href: '#/game/' + encodeURIComponent(s.playing), 'data-test': 'tn-playing'}, t('tournament.playing')) : ''))))))
}
