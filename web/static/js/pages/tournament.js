// A tournament (#/tournament/ID): its facts and status, its players, Join
// and Withdraw (asking for the password when one is needed), the standings
// with the format's tie-breaks as the server gives them, every round's
// pairings with links to their games, and a podium once it has finished.
// An arena shows instead its standings with each game's points and the
// streaks (🔥), your current game, Pause/Resume and a countdown to its end.
// While it is upcoming or running the page asks the server again every few
// seconds (the API has no tournament events).

import {h, clear} from '../dom.js'
import {t} from '../i18n.js'
import * as session from '../session.js'
import {userLink} from '../components/leaderboard.js'
import {tournaments, countdown} from '../components/tournamentapi.js'
import {facts, problem, standingsTable, arenaTable} from '../components/tournamentview.js'

const POLL_MS = 3000

export function tournamentPage(main, [id]) {
  let data = null
  let failed = null
  let actionError = null
  let asking = false // the password field is shown
  let busy = false
  let poll = null
  let tick = null

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
    // (native append writes a null as "null": the absent parts are left out first)
    main.append(...[
      h('p', {}, h('a', {href: '#/tournaments', 'data-test': 'tn-back'}, '← ' + t('tournament.all'))),
      h('h1', {'data-test': 'tn-title'}, tr.name),
      h('p', {class: 'tn-facts muted', 'data-test': 'tn-facts'}, facts(tr)),
      h('p', {class: 'tn-status', 'data-test': 'tn-status', 'data-status': tr.status}, statusLine(tr)),
      tr.note ? h('p', {class: 'muted', 'data-test': 'tn-note'}, tr.note) : null,
      failed ? problem(failed) : null,
      tr.status === 'finished' ? podium() : null,
      actions(tr, me, inIt),
      h('div', {class: 'tn-columns'},
        h('section', {class: 'panel tn-standings-panel'}, h('h2', {}, t('tournament.standings')),
          arena ? (arena.standings.length ? arenaTable(arena.standings) : h('p', {class: 'muted'}, t('tournament.noStandings')))
            : data.standings.length ? standingsTable(data.standings, tr.format) : h('p', {class: 'muted'}, t('tournament.noStandings'))),
        h('section', {class: 'panel tn-players'}, h('h2', {}, t('tournament.players', {n: data.players.filter((p) => !p.withdrawn).length})),
          data.players.length ? h('ol', {class: 'tn-player-list', 'data-test': 'tn-players'}, data.players.map((p) => h('li', {'data-user': p.name, class: p.withdrawn ? 'withdrawn' : null},
            userLink(p.name), p.withdrawn ? h('span', {class: 'muted'}, ' (' + t('tournament.withdrawn') + ')') : null)))
            : h('p', {class: 'muted'}, t('tournament.noPlayers')))),
      arena ? null : rounds()].filter(Boolean))
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
    if (tr.status === 'running') return t('tournament.status.running') + ' — ' + t('tournament.roundOf', {n: data.rounds.length, total: tr.rounds || '?'})
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
    const top = (data.arena ? data.arena.standings : data.standings).filter((s) => s.rank <= 3)
    if (!top.length) return null
    return h('ol', {class: 'tn-podium', 'data-test': 'tn-podium', 'aria-label': t('tournament.podium')},
      top.map((s) => h('li', {class: 'place-' + s.rank}, h('span', {class: 'tn-medal', 'aria-hidden': 'true'}, String(s.rank)),
        h('span', {class: 'tn-place'}, t('tournament.place', {n: s.rank})), ' ', userLink(s.name), ' ',
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
          h('span', {class: 'tn-pair'}, userLink(b.white), b.black ? h('span', {class: 'muted'}, ' – ') : null, b.black ? userLink(b.black) : null),
          b.gameId ? h('a', {href: '#/game/' + encodeURIComponent(b.gameId), class: 'tn-result', 'data-test': 'tn-game', 'data-result': b.result}, resultText(b))
            : h('span', {class: 'tn-result', 'data-result': b.result}, resultText(b))))))))
  }

  function load() {
    return tournaments.get(id).then((res) => {
      const same = !failed && data && JSON.stringify(data) === JSON.stringify(res)
      data = res
      failed = null
      if (!same) render()
      if (res.tournament.status === 'finished') clearInterval(poll)
    }, (e) => {
      failed = e
      render()
    })
  }

  render()
  load()
  poll = setInterval(() => {
    if (!busy && !asking) load()
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
      clearInterval(poll)
      clearInterval(tick)
    },
  }
}
