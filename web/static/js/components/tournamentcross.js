// What each player scored against whom, on a tournament's page (issue 25):
// a Swiss's or round robin's cross-table (rows the players by rank,
// columns the same players by number, each cell the results between the
// two with links to their games); an arena's games (those being played,
// those finished) and one player's games, opened from the standings, with
// the points each game brought (doubled on a streak, berserked); a Skyjo
// table tournament's results by round. Wide tables scroll inside their box
// (.tn-scroll), never the page. Their look is css/tournamentcross.css,
// which this module adds to the page once.

import {h} from '../dom.js'
import {t} from '../i18n.js'
import {named, points} from './tournamentview.js'

let styled = false
function style() {
  if (styled || typeof document === 'undefined') return
  styled = true
  document.head.append(h('link', {rel: 'stylesheet', href: 'css/tournamentcross.css'}))
}

const gameHref = (id) => '#/game/' + encodeURIComponent(id)

/** score is what name scored on board b: 1, 0, 0.5, '' (being played) or '-' (not played). */
function score(b, name) {
  const white = b.white === name
  switch (b.result) {
    case '1-0': return white ? 1 : 0
    case '0-1': return white ? 0 : 1
    case '1/2-1/2': return 0.5
    case '': case undefined: return ''
    default: return '-'
  }
}

const scoreText = (s) => (s === 1 ? '1' : s === 0 ? '0' : s === 0.5 ? '½' : s === '' ? '…' : '–')
const scoreClass = (s) => (s === 1 ? 'tn-x-win' : s === 0 ? 'tn-x-loss' : s === 0.5 ? 'tn-x-draw' : 'tn-x-none')
const scoreWord = (s) => (s === 1 ? t('tournament.won') : s === 0 ? t('tournament.lost') : s === 0.5 ? t('tournament.drew')
  : s === '' ? t('tournament.playing') : t('tournament.aborted'))

/**
 * crossTable: a Swiss's or round robin's cross-table from its standings
 * (ranked) and rounds; a double round robin's cell holds both games.
 */
export function crossTable(standings, rounds, bots) {
  style()
  const num = new Map(standings.map((s, i) => [s.name, i + 1]))
  const cells = new Map() // "row\ncol" → [{s, game, round}]
  for (const r of rounds) {
    for (const b of r.boards) {
      if (!b.black || b.result === 'bye') continue
      for (const [me, opp] of [[b.white, b.black], [b.black, b.white]]) {
        const k = me + '\n' + opp
        if (!cells.has(k)) cells.set(k, [])
        cells.get(k).push({s: score(b, me), game: b.gameId, round: r.number})
      }
    }
  }
  return h('div', {class: 'tn-scroll'}, h('table', {class: 'ratings tn-cross', 'data-test': 'tn-cross'},
    h('thead', {}, h('tr', {},
      h('th', {scope: 'col'}, '#'), h('th', {scope: 'col'}, t('tournament.player')),
      standings.map((s, i) => h('th', {scope: 'col', class: 'tn-x-col', title: s.name}, String(i + 1))),
      h('th', {scope: 'col'}, t('tournament.points')))),
    h('tbody', {}, standings.map((row) => h('tr', {'data-user': row.name},
      h('td', {class: 'muted'}, String(num.get(row.name))),
      h('th', {scope: 'row', class: 'tn-name'}, named(row.name, bots)),
      standings.map((col) => {
        if (col.name === row.name) return h('td', {class: 'tn-x tn-x-self', 'aria-hidden': 'true'}, '×')
        const games = cells.get(row.name + '\n' + col.name) || []
        return h('td', {class: 'tn-x', 'data-test': 'tn-cross-cell', 'data-opp': col.name}, games.map((g) => {
          const title = t('tournament.round', {n: g.round}) + ': ' + scoreWord(g.s) + ' — ' + col.name
          return g.game ? h('a', {href: gameHref(g.game), class: scoreClass(g.s), title, 'data-test': 'tn-cross-game', 'data-score': String(g.s)}, scoreText(g.s))
            : h('span', {class: scoreClass(g.s), title, 'data-score': String(g.s)}, scoreText(g.s))
        }))
      }),
      h('td', {class: 'tn-points'}, points(row.points)))))))
}

/**
 * CROSS_MAX is the most players a Swiss's table shows opponent by
 * opponent; above it the table is round by round (roundSheet): a Swiss of
 * 200 players would be a table of 40,000 cells, most of them empty.
 */
export const CROSS_MAX = 16

/**
 * roundSheet: a Swiss's results round by round, as FIDE's crosstables
 * give them — rows the players by rank, a column a round, each cell the
 * opponent's rank, the side (○ moved first, ● second) and the result,
 * linked to its game; + a bye, – not paired (joined later, withdrawn or
 * paused).
 */
export function roundSheet(standings, rounds, bots) {
  style()
  const num = new Map(standings.map((s, i) => [s.name, i + 1]))
  const got = new Map() // name → Map(round → {opp, first, s, game} | {bye: true})
  const put = (name, round, entry) => {
    if (!got.has(name)) got.set(name, new Map())
    got.get(name).set(round, entry)
  }
  for (const r of rounds) {
    for (const b of r.boards) {
      if (!b.black || b.result === 'bye') {
        put(b.white, r.number, {bye: true})
        continue
      }
      put(b.white, r.number, {opp: b.black, first: true, s: score(b, b.white), game: b.gameId})
      put(b.black, r.number, {opp: b.white, first: false, s: score(b, b.black), game: b.gameId})
    }
  }
  const cell = (row, r) => {
    const e = got.get(row.name)?.get(r.number)
    if (!e) return h('td', {class: 'tn-x tn-x-none', 'data-test': 'tn-sheet-cell', title: t('tournament.notPaired')}, '–')
    if (e.bye) return h('td', {class: 'tn-x', 'data-test': 'tn-sheet-cell', 'data-bye': 'true'}, h('span', {class: 'tn-x-win', title: t('tournament.round', {n: r.number}) + ': ' + t('tournament.bye')}, '+'))
    const title = t('tournament.round', {n: r.number}) + ': ' + scoreWord(e.s) + ' — ' + e.opp
    const text = [h('span', {class: 'tn-sheet-opp'}, String(num.get(e.opp) ?? '?')), h('span', {class: 'tn-sheet-side', 'aria-hidden': 'true'}, e.first ? '○' : '●'), ' ',
      h('span', {class: 'tn-sheet-res ' + scoreClass(e.s)}, scoreText(e.s))]
    return h('td', {class: 'tn-x', 'data-test': 'tn-sheet-cell', 'data-opp': e.opp, 'data-score': String(e.s), 'data-first': String(e.first)},
      e.game ? h('a', {href: gameHref(e.game), title}, text) : h('span', {title}, text))
  }
  return h('div', {class: 'tn-scroll'}, h('table', {class: 'ratings tn-cross tn-round-sheet', 'data-test': 'tn-round-sheet'},
    h('thead', {}, h('tr', {},
      h('th', {scope: 'col'}, '#'), h('th', {scope: 'col'}, t('tournament.player')),
      rounds.map((r) => h('th', {scope: 'col', class: 'tn-x-col', title: t('tournament.round', {n: r.number})}, t('tournament.roundShort', {n: r.number}))),
      h('th', {scope: 'col'}, t('tournament.points')))),
    h('tbody', {}, standings.map((row) => h('tr', {'data-user': row.name},
      h('td', {class: 'muted'}, String(num.get(row.name))),
      h('th', {scope: 'row', class: 'tn-name'}, named(row.name, bots)),
      rounds.map((r) => cell(row, r)),
      h('td', {class: 'tn-points'}, points(row.points)))))))
}

/**
 * arenaPlayerGames: the games of one arena player (line: their standings
 * line) in the order played, each with the opponent, the result, the
 * points it brought (a player plays one game at a time, so their finished
 * games in round order are their sheet's order), whether it counted double
 * and whether they berserked.
 */
export function arenaPlayerGames(line, rounds) {
  const out = []
  let i = 0
  for (const r of rounds) {
    for (const b of r.boards) {
      if (b.white !== line.name && b.black !== line.name) continue
      const s = score(b, line.name)
      const g = {round: r.number, opponent: b.white === line.name ? b.black : b.white, s, game: b.gameId,
        berserk: b.white === line.name ? !!b.whiteBerserk : !!b.blackBerserk}
      if (s !== '' && s !== '-') {
        g.points = line.sheet[i]
        g.fire = !!line.fire[i]
        i++
      }
      out.push(g)
    }
  }
  return out
}

/**
 * arenaPlayerPanel: the games of the arena player of line, with a Close
 * button (data-action="close-games", for the page's listener). rounds are that player's boards (GET
 * /api/tournaments/{id}/games?player=NAME): null while they are asked
 * for (a quiet "loading"); failed, if set, says the asking failed.
 */
export function arenaPlayerPanel(line, rounds, bots, failed = null) {
  style()
  const games = rounds ? arenaPlayerGames(line, rounds) : []
  return h('div', {class: 'tn-player-games', 'data-test': 'tn-player-games', 'data-user': line.name, 'aria-busy': rounds || failed ? 'false' : 'true'},
    h('div', {class: 'tn-player-games-head'}, h('h3', {}, t('arena.gamesOf', {name: line.name})),
      h('button', {type: 'button', class: 'tn-close', 'data-test': 'tn-player-games-close', 'data-action': 'close-games'}, t('tournament.close'))),
    failed && !rounds ? h('p', {class: 'muted', role: 'status', 'data-test': 'tn-pg-failed'}, t('arena.gamesFailed'))
      : !rounds ? h('p', {class: 'muted', role: 'status', 'data-test': 'tn-pg-loading'}, t('arena.gamesLoading'))
      : games.length ? h('div', {class: 'tn-scroll'}, h('table', {class: 'ratings tn-pg'},
      h('thead', {}, h('tr', {}, h('th', {scope: 'col'}, '#'), h('th', {scope: 'col'}, t('tournament.opponent')),
        h('th', {scope: 'col'}, t('tournament.result')), h('th', {scope: 'col'}, t('tournament.points')))),
      h('tbody', {}, games.map((g, i) => h('tr', {'data-test': 'tn-pg-game', 'data-opp': g.opponent},
        h('td', {class: 'muted'}, String(i + 1)),
        h('td', {class: 'tn-name'}, named(g.opponent, bots)),
        h('td', {}, g.game ? h('a', {href: gameHref(g.game), class: scoreClass(g.s), 'data-test': 'tn-pg-result', 'data-score': String(g.s)}, scoreWord(g.s))
          : h('span', {class: scoreClass(g.s)}, scoreWord(g.s))),
        h('td', {class: 'tn-pg-points'},
          g.points != null ? h('span', {class: g.fire ? 'tn-pg-fire' : null, 'data-test': 'tn-pg-points', 'data-fire': g.fire ? 'true' : null}, String(g.points)) : '',
          g.fire ? h('span', {class: 'tn-pg-mark', title: t('arena.doubled'), 'data-test': 'tn-pg-doubled'}, ' 🔥') : null,
          g.berserk ? h('span', {class: 'tn-pg-mark', title: t('arena.berserkedMark'), 'data-test': 'tn-pg-berserk'}, ' ⚔') : null))))))
      : h('p', {class: 'muted'}, t('arena.noGames')))
}

const FINISHED_SHOWN = 30

const berserked = (yes) => (yes ? h('span', {class: 'tn-pg-mark', title: t('arena.berserkedMark'), 'data-test': 'tn-berserked'}, ' ⚔') : null)

/**
 * arenaGameList: an arena's games being played, then those finished (the
 * latest first), each linked. The answer's rounds carry only the latest
 * finished boards; finishedTotal (arena.finishedGames) counts them all, so
 * the list says how many earlier ones it leaves out.
 */
export function arenaGameList(rounds, bots, finishedTotal) {
  style()
  const playing = []
  const done = []
  for (const r of rounds) for (const b of r.boards) (b.result === '' || b.result == null ? playing : done).push(b)
  done.reverse()
  const shown = Math.min(done.length, FINISHED_SHOWN)
  const earlier = Math.max(finishedTotal ?? done.length, done.length) - shown
  const item = (b) => h('li', {'data-test': 'tn-arena-game', 'data-game': b.gameId, 'data-key': b.gameId},
    h('span', {class: 'tn-pair'}, named(b.white, bots), berserked(b.whiteBerserk), h('span', {class: 'muted'}, ' – '), named(b.black, bots), berserked(b.blackBerserk)),
    b.gameId ? h('a', {href: gameHref(b.gameId), class: 'tn-result', 'data-test': 'tn-game', 'data-result': b.result},
      b.result ? (b.result === '-' ? t('tournament.aborted') : b.result.replace('1/2-1/2', '½-½')) : t('tournament.playing')) : null)
  const list = (items) => h('ul', {class: 'tn-boards tn-arena-games'}, items.map(item))
  return [
    h('h3', {}, t('arena.ongoing')),
    playing.length ? h('div', {'data-test': 'tn-arena-ongoing'}, list(playing)) : h('p', {class: 'muted'}, t('arena.noGames')),
    h('h3', {}, t('arena.finishedGames')),
    done.length ? h('div', {'data-test': 'tn-arena-finished'}, list(done.slice(0, FINISHED_SHOWN)),
      earlier > 0 ? h('p', {class: 'muted', 'data-test': 'tn-arena-earlier', 'data-n': String(earlier)}, t('arena.moreGames', {n: earlier})) : null)
      : h('p', {class: 'muted'}, t('arena.noGames')),
  ]
}

/**
 * tableResults: a Skyjo table tournament's results by round — rows the
 * players by rank, a column a round, each cell the placement points and
 * Skyjo points the player made at their table, linked to its game.
 */
export function tableResults(tables, bots) {
  style()
  const seatOf = (r, name) => {
    for (const tb of r.tables) {
      const st = tb.seats.find((x) => x.name === name)
      if (st) return {tb, st}
    }
    return null
  }
  return h('div', {class: 'tn-scroll'}, h('table', {class: 'ratings tn-cross tn-table-results', 'data-test': 'tn-table-results'},
    h('thead', {}, h('tr', {}, h('th', {scope: 'col'}, '#'), h('th', {scope: 'col'}, t('tournament.player')),
      tables.rounds.map((r) => h('th', {scope: 'col', class: 'tn-x-col', title: t('tournament.round', {n: r.number})}, t('tables.roundShort', {n: r.number}))),
      h('th', {scope: 'col'}, t('tournament.points')))),
    h('tbody', {}, tables.standings.map((s) => h('tr', {'data-user': s.name, 'data-key': s.name},
      h('td', {}, String(s.rank)), h('th', {scope: 'row', class: 'tn-name'}, named(s.name, bots)),
      tables.rounds.map((r) => {
        const at = seatOf(r, s.name)
        if (!at) return h('td', {class: 'tn-x'}, '')
        const {tb, st} = at
        const text = st.points != null ? t('tables.seatScore', {points: points(st.points), total: st.total}) : tb.result === '-' ? '–' : '…'
        return h('td', {class: 'tn-x', 'data-test': 'tn-table-result', 'data-round': r.number},
          h('a', {href: gameHref(tb.gameId), title: t('tables.table', {n: tb.table}), 'data-test': 'tn-table-game'}, text))
      }),
      h('td', {class: 'tn-points'}, points(s.points)))))))
}
