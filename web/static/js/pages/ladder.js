// The bot ladder's page (#/ladder/GAME, docs/api.md "The bot ladder"):
// the bots on one game's ladder and the built-in levels that anchor it, by
// rating, with their games and W/D/L (an anchor's fixed rating beside what
// its games measure), the head-to-head record of every pair that has
// played, and the latest games. It asks again every few seconds while it
// is shown: the ladder plays on its own.

import {h, clear, renewTree} from '../dom.js'
import {t} from '../i18n.js'
import {ApiError} from '../api.js'
import * as catalog from '../catalog.js'
import {errorBox, gameTitle} from '../components/common.js'
import {userLink} from '../components/leaderboard.js'
import {botBadge} from '../components/botbadge.js'
import {provisionalNote} from '../components/players.js'

// refreshMs is how often the page asks again.
const refreshMs = 5000

async function fetchLadder(game) {
  let res
  try {
    res = await fetch('/api/ladder/' + encodeURIComponent(game), {headers: {Accept: 'application/json'}, credentials: 'same-origin'})
  } catch (e) {
    throw new ApiError(0, 'network', String(e.message || e))
  }
  const data = await res.json().catch(() => null)
  if (!res.ok) {
    const err = data && data.error
    throw new ApiError(res.status, (err && err.code) || 'http_' + res.status, (err && err.message) || res.statusText)
  }
  return data
}

export function ladderPage(main, [game]) {
  const gameNames = catalog.gameNames()
  if (!gameNames.includes(game)) game = gameNames[0]
  let answer = null
  let failed = null
  let timer = null
  let gone = false
  const body = h('div', {'data-test': 'ladder', 'aria-live': 'polite'})

  function render() {
    clear(main)
    main.append(h('h1', {}, t('ladder.title')),
      h('nav', {class: 'lb-games', 'aria-label': t('leaderboard.games')}, gameNames.map((g) =>
        h('a', {href: '#/ladder/' + g, class: 'button' + (g === game ? ' primary' : ''), 'aria-current': g === game ? 'page' : null, 'data-test': 'ladder-game-' + g}, gameTitle(g)))),
      h('p', {class: 'lb-rule', 'data-test': 'ladder-about'}, t('ladder.about')),
      h('section', {class: 'panel lb-board'}, h('h2', {}, gameTitle(game)), body))
    show()
  }

  // who is an entrant's name as shown: a bot's profile link and BOT, or a
  // level's name marked as the server's own.
  function who(id) {
    const e = answer && answer.entrants.find((x) => x.id === id)
    if (!e) return h('span', {}, '?')
    if (e.anchor) return h('span', {class: 'ladder-anchor'}, t('ladder.level', {level: t('bot.' + e.name)}))
    return h('span', {}, userLink(e.name), botBadge(true))
  }

  /**
   * show draws the ladder. Read again every 5 s, mostly the same: body is
   * renewed, not redrawn (dom.renewTree; the latest games matched by game,
   * the newest coming first), so a link pressed as it comes again is
   * released on the same element. Nothing in it has a listener.
   */
  function show() {
    const fresh = h('div', {})
    draw(fresh)
    renewTree(body, fresh)
  }

  function draw(box) {
    if (failed) {
      box.append(errorBox(failed))
      return
    }
    if (!answer) {
      box.append(h('p', {class: 'muted'}, t('leaderboard.loading')))
      return
    }
    const bots = answer.entrants.filter((e) => !e.anchor)
    if (!bots.length) {
      box.append(h('p', {class: 'lb-empty', 'data-test': 'ladder-empty'}, t('ladder.empty')),
        h('p', {}, h('code', {}, 'tabula bot --server … --token … --engine … --ladder ' + game)),
        h('p', {}, h('a', {href: '#/tokens', class: 'button'}, t('leaderboard.botsHow'))))
    }
    if (answer.entrants.length) {
      box.append(h('div', {class: 'lb-scroll'}, h('table', {class: 'ratings lb-table', 'data-test': 'ladder-table'},
        h('thead', {}, h('tr', {}, h('th', {scope: 'col'}, t('leaderboard.rank')), h('th', {scope: 'col'}, t('ladder.entrant')),
          h('th', {scope: 'col'}, t('profile.rating')), h('th', {scope: 'col'}, t('profile.played')),
          h('th', {scope: 'col', class: 'ladder-wdl'}, t('ladder.wdl')), h('th', {scope: 'col', class: 'lb-dev'}, t('ladder.playing')))),
        h('tbody', {}, answer.entrants.map((e, i) => h('tr', {'data-entrant': e.id, class: e.active ? null : 'muted'},
          h('td', {class: 'lb-rank'}, String(i + 1)),
          h('td', {class: 'lb-user'}, who(e.id), e.active ? null : h('small', {class: 'muted'}, ' ' + t('ladder.left'))),
          h('td', {class: 'lb-rating'}, String(e.rating) + (e.provisional ? '?' : ''), h('small', {}, ' ±' + e.deviation),
            e.anchor ? h('small', {class: 'ladder-fixed', title: t('ladder.fixedTitle')}, ' ' + t('ladder.fixed')) : null,
            e.measured ? h('small', {class: 'ladder-note', 'data-test': 'ladder-measured'}, t('ladder.measured', {rating: e.measured.rating, deviation: e.measured.deviation})) : null),
          h('td', {}, String(e.games)),
          h('td', {class: 'ladder-wdl'}, e.wins + '–' + e.draws + '–' + e.losses),
          h('td', {class: 'lb-dev'}, String(e.playing))))))))
      // A bot's "1310?" while its rating is provisional: what the ? means, in words.
      const note = provisionalNote(answer.entrants)
      if (note) box.append(note)
    }
    if (answer.headToHead.length) {
      box.append(h('h3', {}, t('ladder.headToHead')),
        h('div', {class: 'lb-scroll'}, h('table', {class: 'ratings', 'data-test': 'ladder-h2h'},
          h('thead', {}, h('tr', {}, h('th', {scope: 'col'}, t('ladder.pair')), h('th', {scope: 'col'}, t('ladder.score')))),
          h('tbody', {}, answer.headToHead.map((p) => h('tr', {'data-key': p.a + ' ' + p.b},
            h('td', {}, who(p.a), ' – ', who(p.b)),
            h('td', {class: 'ladder-wdl'}, p.winsA + '–' + p.draws + '–' + p.winsB)))))))
    }
    if (answer.games.length) {
      box.append(h('h3', {}, t('ladder.recent')),
        h('ul', {class: 'ladder-games', 'data-test': 'ladder-games'}, answer.games.map((g) => h('li', {'data-key': g.id},
          h('a', {href: '#/game/' + g.id}, t('ladder.vs')), ' ', who(g.first), ' – ', who(g.second), ' · ',
          g.result === 'first' || g.result === 'second'
            ? h('span', {class: 'muted'}, t('ladder.wonBy'), ' ', who(g.result === 'first' ? g.first : g.second))
            : h('span', {class: 'muted'}, t('ladder.result.' + (g.result || 'playing')))))))
    }
  }

  function load() {
    fetchLadder(game).then((a) => {
      if (gone) return
      answer = a
      failed = null
      show()
    }, (e) => {
      if (gone) return
      failed = e
      show()
    }).finally(() => {
      if (!gone) timer = setTimeout(load, refreshMs)
    })
  }

  render()
  load()
  return {
    relang: render,
    destroy() {
      gone = true
      clearTimeout(timer)
    },
  }
}
