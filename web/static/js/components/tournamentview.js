// Pieces of the tournament pages: a tournament's facts in one line, an
// error with the server's own words, and the standings table.

import {h} from '../dom.js'
import {t} from '../i18n.js'
import {errorText, gameTitle} from './common.js'
import {clockText} from './players.js'
import {userLink} from './leaderboard.js'
import {botBadge} from './botbadge.js'
import {serverBot} from './tournamentbots.js'

/**
 * named: a player's link, with BOT beside a bot account (bots: the Set of the bot accounts' names, from the players);
 * a server bot (bots.levels: its name → its level) is its level and number, with BOT and no link.
 */
export function named(name, bots) {
  const level = bots && bots.levels && bots.levels.get(name)
  if (level) return serverBot(name, level)
  return [userLink(name), botBadge(!!bots && bots.has(name))]
}

/** facts: format, game, clock, rounds (a double round robin), rated, minimum rated games, password, bots — one short line. */
export function facts(tr) {
  const parts = [t('tournament.format.' + tr.format), gameTitle(tr.game)]
  const c = clockText(tr.clock)
  if (c) parts.push(c)
  if (tr.format === 'tables' && tr.options?.players) parts.push(t('tables.upTo', {n: tr.options.players}))
  if (tr.double) parts.push(t('tournament.doubleShort'))
  if (tr.rounds) parts.push(t('tournament.roundsN', {n: tr.rounds}))
  parts.push(tr.rated ? t('tournament.rated') : t('tournament.casual'))
  if (tr.minRatedGames) parts.push(t('tournament.minRatedGamesN', {n: tr.minRatedGames}))
  if (tr.password) parts.push(t('tournament.private'))
  if (tr.bots) parts.push(t('tournament.bots'))
  return parts.join(' · ')
}

/** problem explains an API refusal: the page's words, and the server's where they say more. */
export function problem(err) {
  const text = err.code === 'password' ? t('tournament.error.password') : errorText(err)
  const more = err.message && err.message !== text && err.code !== 'password' ? ' — ' + err.message : ''
  return h('p', {class: 'error', role: 'alert', 'data-test': 'tn-error'}, text + more)
}

/** points: a half as ".5" ("1.5") in every language, as the API and the rules pages write it. */
export const points = (x) => String(Math.round(x * 100) / 100)

/**
 * tablesTable: a Skyjo table tournament's standings — rank, player,
 * placement points, the Skyjo total that breaks ties (the lower first),
 * games and first places.
 */
export function tablesTable(lines, bots) {
  return h('div', {class: 'tn-scroll'}, h('table', {class: 'ratings tn-standings tn-tables-standings', 'data-test': 'tn-standings'},
    h('thead', {}, h('tr', {},
      h('th', {scope: 'col'}, '#'), h('th', {scope: 'col'}, t('tournament.player')), h('th', {scope: 'col'}, t('tournament.points')),
      h('th', {scope: 'col', title: t('tables.skyjoTotalHelp')}, t('tables.skyjoTotal')),
      h('th', {scope: 'col', class: 'tn-opt'}, t('tables.games')), h('th', {scope: 'col', class: 'tn-opt', title: t('tables.firstsHelp')}, t('tables.firsts')))),
    h('tbody', {}, lines.map((s) => h('tr', {'data-user': s.name, 'data-key': s.name, class: s.withdrawn ? 'withdrawn' : null},
      h('td', {}, String(s.rank)),
      h('td', {class: 'tn-name'}, named(s.name, bots), s.withdrawn ? h('span', {class: 'muted'}, ' (' + t('tournament.withdrawn') + ')') : null),
      h('td', {class: 'tn-points', 'data-test': 'tn-points'}, points(s.points)),
      h('td', {'data-test': 'tn-skyjo-total'}, String(s.skyjoTotal)),
      h('td', {class: 'tn-opt'}, String(s.games)), h('td', {class: 'tn-opt'}, String(s.wins)))))))
}

/**
 * tableRounds: each round of a table tournament, the latest first: its
 * tables, each with its seats in order (points and Skyjo total once the
 * game has ended) and a link to its game.
 */
export function tableRounds(rounds, bots) {
  const state = (tb) => (tb.result === 'placed' ? t('tables.finished') : tb.result === '-' ? t('tournament.aborted') : t('tournament.playing'))
  return [...rounds].reverse().map((r) => h('div', {class: 'tn-round', 'data-test': 'tn-round', 'data-round': r.number, 'data-key': r.number},
    h('h3', {}, t('tournament.round', {n: r.number})),
    h('div', {class: 'tn-tables'}, r.tables.map((tb) => h('div', {class: 'tn-table', 'data-test': 'tn-table', 'data-table': tb.table},
      h('div', {class: 'tn-table-head'}, h('strong', {}, t('tables.table', {n: tb.table})), ' ',
        h('a', {href: '#/game/' + encodeURIComponent(tb.gameId), class: 'tn-result', 'data-test': 'tn-game', 'data-result': tb.result}, state(tb))),
      h('ol', {class: 'tn-seats'}, tb.seats.map((st) => h('li', {'data-user': st.name}, named(st.name, bots),
        st.points != null ? h('span', {class: 'muted tn-seat-score', 'data-test': 'tn-seat-score'},
          ' ' + t('tables.seatScore', {points: points(st.points), total: st.total})) : null))))))))
}

const TIE_BREAKS = ['buchholz', 'buchholz-cut1', 'sonneborn-berger', 'wins', 'direct-encounter']

/**
 * standingsTable: rank, player, points, W/D/L, and the format's tie-breaks
 * in the API's order. The tie-breaks' short heads are explained by their
 * titles, and by a legend under the table that only a screen without
 * hover shows (a phone shows no title; tournament.css).
 */
export function standingsTable(standings, format, bots) {
  const order = format === 'roundrobin' ? ['direct-encounter', 'sonneborn-berger', 'wins'] : TIE_BREAKS
  const keys = order.filter((k) => standings.some((s) => s.tieBreaks && k in s.tieBreaks))
  const num = points
  const legend = keys.length ? h('dl', {class: 'tn-tb-legend', 'data-test': 'tn-tb-legend'},
    keys.map((k) => [h('dt', {}, t('tournament.tbShort.' + k)), h('dd', {}, t('tournament.tb.' + k))])) : null
  const table = h('div', {class: 'tn-scroll'}, h('table', {class: 'ratings tn-standings', 'data-test': 'tn-standings'},
    h('thead', {}, h('tr', {},
      h('th', {scope: 'col'}, '#'), h('th', {scope: 'col'}, t('tournament.player')), h('th', {scope: 'col'}, t('tournament.points')),
      h('th', {scope: 'col'}, t('tournament.wdl')),
      keys.map((k) => h('th', {scope: 'col', class: 'tn-tb', title: t('tournament.tb.' + k)}, t('tournament.tbShort.' + k))))),
    h('tbody', {}, standings.map((s) => h('tr', {'data-user': s.name, 'data-key': s.name},
      h('td', {}, String(s.rank)), h('td', {class: 'tn-name'}, named(s.name, bots)),
      h('td', {class: 'tn-points', 'data-test': 'tn-points'}, num(s.points)),
      h('td', {'data-test': 'tn-wdl'}, `${s.wins}/${s.draws}/${s.losses}`),
      keys.map((k) => h('td', {class: 'tn-tb'}, num(s.tieBreaks[k] ?? 0))))))))
  return h('div', {}, table, legend)
}

/**
 * arenaTable: an arena's standings — rank, player (🔥 on fire, paused,
 * withdrawn), points, each game's points in the order played (those that
 * counted double marked), W/D/L, berserks, and the game being played.
 * With pickable, a player's line (and their points, a button) is marked
 * data-action="pick" for the page's listener, which shows their games on
 * a click; picked is the name shown; me (the signed-in user's name) marks
 * their own line. The lines carry no listeners, and data-key (their
 * player), so that the page renews them in place (dom.js renewTree). The ranks are the server's
 * (players level on points share one), on every page of the standings.
 */
export function arenaTable(lines, bots, pickable, picked, me) {
  return h('div', {class: 'tn-scroll'}, h('table', {class: 'ratings tn-standings tn-arena', 'data-test': 'tn-standings'},
    h('thead', {}, h('tr', {},
      h('th', {scope: 'col'}, '#'), h('th', {scope: 'col'}, t('tournament.player')), h('th', {scope: 'col'}, t('tournament.points')),
      h('th', {scope: 'col', class: 'tn-sheet-h'}, t('arena.sheet')), h('th', {scope: 'col'}, t('tournament.wdl')),
      h('th', {scope: 'col', class: 'tn-bz', title: t('arena.berserks')}, '⚔'), h('th', {scope: 'col'}, t('arena.now')))),
    h('tbody', {}, lines.map((s) => h('tr', {'data-user': s.name, 'data-key': s.name,
      class: [s.withdrawn ? 'withdrawn' : '', s.name === picked ? 'tn-picked' : '', me && s.name === me ? 'tn-me' : ''].join(' ').trim() || null,
      'data-action': pickable ? 'pick' : null},
      h('td', {'data-test': 'tn-rank'}, String(s.rank)),
      h('td', {class: 'tn-name'}, named(s.name, bots),
        s.onFire ? h('span', {class: 'tn-fire', 'data-test': 'tn-fire', title: t('arena.onFire', {n: s.streak})}, ' 🔥') : null,
        s.paused ? h('span', {class: 'muted', 'data-test': 'tn-paused'}, ' (' + t('arena.paused') + ')') : null,
        s.withdrawn ? h('span', {class: 'muted'}, ' (' + t('tournament.withdrawn') + ')') : null),
      h('td', {class: 'tn-points', 'data-test': 'tn-points'}, pickable
        ? h('button', {type: 'button', 'data-test': 'tn-show-games', 'data-action': 'pick', 'aria-expanded': s.name === picked ? 'true' : 'false',
          'aria-label': t('arena.showGames', {name: s.name}), title: t('arena.showGames', {name: s.name})}, String(s.points))
        : String(s.points)),
      h('td', {class: 'tn-sheet-c'}, h('span', {class: 'tn-sheet', 'data-test': 'tn-sheet'},
        s.sheet.slice(-12).map((p, i, a) => h('span', {class: s.fire[s.fire.length - a.length + i] ? 'fire' : null}, String(p))))),
      h('td', {'data-test': 'tn-wdl'}, `${s.wins}/${s.draws}/${s.losses}`),
      h('td', {class: 'tn-bz'}, s.berserks ? String(s.berserks) : ''),
      h('td', {}, s.playing ? h('a', {href: '#/game/' + encodeURIComponent(s.playing), 'data-test': 'tn-playing'}, t('tournament.playing')) : ''))))))
}
