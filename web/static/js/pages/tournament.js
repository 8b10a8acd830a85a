// A tournament (#/tournament/ID): its facts and status, its players, Join
// and Withdraw (asking for the password when one is needed), the standings
// with the format's tie-breaks as the server gives them, every round's
// pairings with links to their games, and a podium once it has finished.
// An arena shows instead its standings with each game's points and the
// streaks (🔥), your current game, Pause/Resume and a countdown to its end.
// Skyjo tables show their standings with the Skyjo totals that break ties,
// and each round's tables with their seats, scores and games.
// What each player scored against whom (components/tournamentcross.js): a
// Swiss's or round robin's cross-table; an arena's games being played and
// finished, and one player's games opened from the standings; a table
// tournament's results by round. A link leads to #/help/tournaments.
// While it is upcoming or running the server pushes the tournament to the page
// as it changes (components/tournamentlive.js); the page still asks every 30 s,
// and every 3 s while the stream is down. The creator of an unrated tournament
// that admits bots adds the server's bots here (components/tournamentbots.js).

import {h, clear} from '../dom.js'
import {t} from '../i18n.js'
import * as session from '../session.js'
import {tournaments, countdown} from '../components/tournamentapi.js'
import {facts, problem, standingsTable, arenaTable, tablesTable, tableRounds, named} from '../components/tournamentview.js'
import {liveTournament} from '../components/tournamentlive.js'
import {crossTable, arenaPlayerPanel, arenaGameList, tableResults} from '../components/tournamentcross.js'
import {mayAddBots, addBotsForm, removeBotButton} from '../components/tournamentbots.js'

const POLL_MS = 3000
const LIVE_POLL_MS = 30000 // while the stream is up

export function tournamentPage(main, [id]) {
  let data = null
  let failed = null
  let actionError = null
  let asking = false // the password field is shown
  let busy = false
  let poll = null
  let tick = null
  let bots = new Set() // the bot accounts' names (players marked bot)
  let picked = null // the arena player whose games are shown

  function render() {
    // Keep the page's height through the redraw: a poll must not scroll the reader away.
    main.style.minHeight = main.offsetHeight + 'px'
    clear(main)
    draw()
    main.style.minHeight = ''
  }

  function draw() {
    if (!data) {
      main.append(h('h1', {}, t('tournament.title')), failed ? problem(failed) : h('p', {class: 'muted'}, t('tournament.loading')))
      return
    }
    const tr = data.tournament
    const me = session.current()
    const mine = me && data.players.find((p) => p.name === me.name)
    const inIt = mine && !mine.withdrawn
    const arena = tr.format === 'arena' && data.arena
    const tables = tr.format === 'tables' && data.tables
    bots = new Set(data.players.filter((p) => p.bot).map((p) => p.name)) // BOT beside their names everywhere below
    bots.levels = new Map(data.players.filter((p) => p.level).map((p) => [p.name, p.level])) // the server's bots
    const creator = mayAddBots(tr, me)
    // (native append writes a null as "null": the absent parts are left out first)
    main.append(...[
      h('p', {class: 'tn-nav'}, h('a', {href: '#/tournaments', 'data-test': 'tn-back'}, '← ' + t('tournament.all')), ' · ',
        h('a', {href: '#/help/tournaments', 'data-test': 'tn-help'}, t('help.tournaments'))),
      h('h1', {'data-test': 'tn-title'}, tr.name),
      h('p', {class: 'tn-facts muted', 'data-test': 'tn-facts'}, facts(tr)),
      h('p', {class: 'tn-status', 'data-test': 'tn-status', 'data-status': tr.status}, statusLine(tr)),
      tr.note ? h('p', {class: 'muted', 'data-test': 'tn-note'}, tr.note) : null,
      failed ? problem(failed) : null,
      tr.status === 'finished' ? podium() : null,
      actions(tr, me, inIt),
      h('div', {class: 'tn-columns'},
        h('section', {class: 'panel tn-standings-panel'}, h('h2', {}, t('tournament.standings')),
          arena ? (arena.standings.length ? arenaStandings(arena) : h('p', {class: 'muted'}, t('tournament.noStandings')))
            : tables ? (tables.rounds.length ? tablesTable(tables.standings, bots) : h('p', {class: 'muted'}, t('tournament.noStandings')))
            : data.standings.length ? standingsTable(data.standings, tr.format, bots) : h('p', {class: 'muted'}, t('tournament.noStandings'))),
        h('section', {class: 'panel tn-players'}, h('h2', {}, t('tournament.players', {n: data.players.filter((p) => !p.withdrawn).length})),
          data.players.length ? h('ol', {class: 'tn-player-list', 'data-test': 'tn-players'}, data.players.map((p) => h('li', {'data-user': p.name, class: p.withdrawn ? 'withdrawn' : null},
            named(p.name, bots), p.withdrawn ? h('span', {class: 'muted'}, ' (' + t('tournament.withdrawn') + ')') : null,
            creator && p.level && !p.withdrawn ? removeBotButton(id, p, busy, act) : null)))
            : h('p', {class: 'muted'}, t('tournament.noPlayers')),
          creator ? addBotsForm(id, busy, act) : null)),
      arena ? h('section', {class: 'panel tn-arena-games-panel', 'data-test': 'tn-arena-games'}, h('h2', {}, t('arena.gameList')), arenaGameList(data.rounds, bots))
        : tables ? (tables.rounds.length ? h('section', {class: 'panel tn-cross-panel', 'data-test': 'tn-table-results-panel'}, h('h2', {}, t('tables.byPlayer')),
          h('p', {class: 'muted tn-cross-help'}, t('tables.byPlayerHelp')), tableResults(tables, bots)) : null)
          : cross(),
      arena ? null : tables ? (tables.rounds.length ? h('section', {class: 'panel tn-rounds'}, h('h2', {}, t('tables.tables')), tableRounds(tables.rounds, bots)) : null)
        : rounds()].filter(Boolean))
  }

  // An arena's standings, and under them the games of the player picked
  // there (a click on their line).
  function arenaStandings(arena) {
    const pick = (name) => {
      picked = picked === name ? null : name
      render()
    }
    const line = picked && arena.standings.find((s) => s.name === picked)
    return [arenaTable(arena.standings, bots, pick, line ? picked : null),
      line ? arenaPlayerPanel(line, data.rounds, bots, () => pick(picked)) : h('p', {class: 'muted tn-pick-help'}, t('arena.pickPlayer'))]
  }

  // A Swiss's or round robin's cross-table, once a round is paired.
  function cross() {
    if (!data.rounds.length || !data.standings.length) return null
    return h('section', {class: 'panel tn-cross-panel'}, h('h2', {}, t('tournament.crossTable')),
      h('p', {class: 'muted tn-cross-help'}, t('tournament.crossHelp')), crossTable(data.standings, data.rounds, bots))
  }

  function statusLine(tr) {
    const start = new Date(tr.start)
    if (tr.status === 'upcoming') return h('span', {}, t('tournament.status.upcoming') + ' — ' + t('tournament.startsAt', {time: start.toLocaleString()}) + ' ',
      h('strong', {class: 'tn-countdown', 'data-test': 'tn-countdown'}, t('tournament.startsIn', {time: countdown(start.getTime())})))
    if (tr.status === 'running' && data.arena) {
      const end = Date.parse(data.arena.end)
      return h('span', {}, t('tournament.status.running') + ' — ', Date.now() < end
        ? h('strong', {class: 'tn-countdown', 'data-test': 'tn-ends'}, t('arena.endsIn', {time: countdown(end)}))
        : h('strong', {'data-test': 'tn-ending'}, t('arena.lastGames')))
    }
    const played = data.tables ? data.tables.rounds.length : data.rounds.length
    if (tr.status === 'running') return t('tournament.status.running') + ' — ' + t('tournament.roundOf', {n: played, total: tr.rounds || '?'})
    return t('tournament.status.finished') + (tr.finished ? ' — ' + new Date(tr.finished).toLocaleString() : '')
  }

  function actions(tr, me, inIt) {
    if (tr.status === 'finished') return null
    const box = h('div', {class: 'tn-actions', 'data-test': 'tn-actions'})
    if (!me || me.guest) {
      box.append(h('p', {class: 'muted'}, t('tournament.registerToJoin')))
      return box
    }
    const line = data.arena && data.arena.standings.find((s) => s.name === me.name)
    if (inIt && line && line.playing) {
      box.append(h('a', {href: '#/game/' + encodeURIComponent(line.playing), class: 'button primary', 'data-test': 'tn-my-game'}, t('arena.yourGame')))
    }
    if (inIt && data.arena && tr.status === 'running') {
      box.append(line && line.paused
        ? h('button', {type: 'button', 'data-test': 'tn-resume', disabled: busy, onclick: () => act(() => tournaments.resume(id))}, t('arena.resume'))
        : h('button', {type: 'button', 'data-test': 'tn-pause', disabled: busy, onclick: () => act(() => tournaments.pause(id))}, t('arena.pause')))
    }
    if (inIt && tr.format === 'swiss') { // Swiss pause (issue 25): sit out the rounds paired while paused
      const paused = data.players.find((p) => p.name === me.name)?.paused
      box.append(h('button', {type: 'button', 'data-test': paused ? 'tn-resume' : 'tn-pause', disabled: busy,
        onclick: () => act(() => paused ? tournaments.resume(id) : tournaments.pause(id))}, t(paused ? 'arena.resume' : 'arena.pause')), ' ')
    }
    if (inIt) {
      box.append(h('span', {class: 'tn-in', 'data-test': 'tn-in'}, t('tournament.youAreIn')), ' ',
        h('button', {type: 'button', 'data-test': 'tn-withdraw', disabled: busy, onclick: () => act(() => tournaments.withdraw(id))}, t('tournament.withdraw')))
    } else {
      const pw = h('input', {type: 'password', 'data-test': 'tn-join-password', autocomplete: 'off', 'aria-label': t('tournament.password')})
      const join = () => {
        if (tr.password && !asking) {
          asking = true
          render()
          main.querySelector('[data-test=tn-join-password]')?.focus()
          return
        }
        act(() => tournaments.join(id, asking ? pw.value : undefined))
      }
      if (asking) box.append(h('label', {class: 'tn-field'}, h('span', {}, t('tournament.password')), pw))
      box.append(h('button', {type: 'button', class: 'primary', 'data-test': 'tn-join', disabled: busy, onclick: join}, t('tournament.join')))
      pw.addEventListener('keydown', (ev) => ev.key === 'Enter' && join())
    }
    if (actionError) box.append(problem(actionError))
    return box
  }

  function act(fn) {
    busy = true
    actionError = null
    render()
    fn().then(() => {
      asking = false
      return load()
    }, (e) => {
      actionError = e
    }).finally(() => {
      busy = false
      render()
    })
  }

  function podium() {
    const top = (data.arena ? data.arena.standings : data.tables ? data.tables.standings : data.standings).filter((s) => s.rank <= 3)
    if (!top.length) return null
    return h('ol', {class: 'tn-podium', 'data-test': 'tn-podium', 'aria-label': t('tournament.podium')},
      top.map((s) => h('li', {class: 'place-' + s.rank}, h('span', {class: 'tn-medal', 'aria-hidden': 'true'}, String(s.rank)),
        h('span', {class: 'tn-place'}, t('tournament.place', {n: s.rank})), ' ', named(s.name, bots), ' ',
        h('span', {class: 'muted'}, t('tournament.pointsN', {n: s.points})))))
  }

  function resultText(b) {
    if (b.result === 'bye') return t('tournament.bye')
    if (b.result === '-') return t('tournament.aborted')
    if (!b.result) return t('tournament.playing')
    return b.result.replace('1/2', '½')
  }

  function rounds() {
    if (!data.rounds.length) return null
    return h('section', {class: 'panel tn-rounds'}, h('h2', {}, t('tournament.pairings')),
      [...data.rounds].reverse().map((r) => h('div', {class: 'tn-round', 'data-test': 'tn-round', 'data-round': r.number},
        h('h3', {}, t('tournament.round', {n: r.number})),
        h('ul', {class: 'tn-boards'}, r.boards.map((b) => h('li', {'data-board': b.board},
          h('span', {class: 'tn-board muted'}, String(b.board)),
          h('span', {class: 'tn-pair'}, named(b.white, bots), b.black ? h('span', {class: 'muted'}, ' – ') : null, b.black ? named(b.black, bots) : null),
          b.gameId ? h('a', {href: '#/game/' + encodeURIComponent(b.gameId), class: 'tn-result', 'data-test': 'tn-game', 'data-result': b.result}, resultText(b))
            : h('span', {class: 'tn-result', 'data-result': b.result}, resultText(b))))))))
  }

  function apply(res) {
    const same = !failed && data && JSON.stringify(data) === JSON.stringify(res)
    data = res
    failed = null
    heard = Date.now()
    if (!same && !busy && !asking) render()
    if (res.tournament.status === 'finished') clearInterval(poll)
  }

  function load() {
    return tournaments.get(id).then((res) => {
      apply(res)
    }, (e) => {
      failed = e
      render()
    })
  }

  let heard = 0 // when the page last had the tournament
  render()
  load()
  const live = liveTournament(id, apply)
  poll = setInterval(() => {
    if (!busy && !asking && (!live.open() || Date.now() - heard >= LIVE_POLL_MS)) load()
  }, POLL_MS)
  tick = setInterval(() => {
    const el = main.querySelector('[data-test=tn-countdown]')
    if (el && data) el.textContent = t('tournament.startsIn', {time: countdown(Date.parse(data.tournament.start))})
    const ends = main.querySelector('[data-test=tn-ends]')
    if (ends && data && data.arena) ends.textContent = t('arena.endsIn', {time: countdown(Date.parse(data.arena.end))})
  }, 1000)
  return {
    relang: render,
    destroy() {
      live.close()
      clearInterval(poll)
      clearInterval(tick)
    },
  }
}
