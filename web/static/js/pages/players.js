// Players (#/players): find a player by the first letters of their name
// (GET /api/users?prefix=…, results as one types), and who is online on the
// whole site now (GET /api/online/players), grouped by the game they play,
// each game with a link to watch it; the idle last. Guests are counted,
// not listed (docs/api.md, Finding people). Each player listed can be
// challenged from here (components/challengedialog.js), as from a profile.

import {h, clear, renewTree} from '../dom.js'
import {t} from '../i18n.js'
import {ApiError} from '../api.js'
import * as catalog from '../catalog.js'
import {errorBox, gameTitle} from '../components/common.js'
import {userLink} from '../components/leaderboard.js'
import {challengeLink, challengeClicks} from '../components/challengedialog.js'

// The same rule as the server's: names are letters, digits, _ and -.
const NAME_START = /^[A-Za-z0-9_-]{1,24}$/
const REFRESH_MS = 15000 // the online list is read again this often
const TYPING_MS = 200 // a search waits for a pause in the typing

async function get(path) {
  let res
  try {
    res = await fetch('/api' + path, {headers: {Accept: 'application/json'}, credentials: 'same-origin'})
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

/** challenge is " · Challenge" after a player's name, or nothing where one cannot challenge them. */
function challenge(name) {
  const b = challengeLink(name)
  return b ? [' · ', b] : null
}

export function playersPage(main) {
  let prefix = ''
  let found = null // the answer for prefix
  let searchErr = null
  let online = null
  let onlineErr = null
  let asked = 0 // the newest search asked; older answers are dropped
  let typing = null
  const input = h('input', {type: 'search', id: 'players-search', autocomplete: 'off', spellcheck: 'false', maxlength: '24',
    'data-test': 'players-search', 'aria-describedby': 'players-search-hint', oninput: () => {
      clearTimeout(typing)
      typing = setTimeout(search, TYPING_MS)
    }})
  const results = h('div', {'data-test': 'players-results', 'aria-live': 'polite'})
  const onlineBody = h('div', {'data-test': 'players-online', 'aria-live': 'polite'})
  const hint = h('p', {id: 'players-search-hint', class: 'note'})
  challengeClicks(results)
  challengeClicks(onlineBody)

  function render() {
    clear(main)
    hint.textContent = t('players.searchHint')
    main.append(h('h1', {}, t('players.title')), h('p', {class: 'lead'}, t('players.lead')),
      h('section', {class: 'panel', 'aria-labelledby': 'players-search-title'},
        h('h2', {id: 'players-search-title'}, t('players.search')),
        h('label', {class: 'field', for: 'players-search'}, t('players.searchLabel')), input, hint, results),
      h('section', {class: 'panel', 'aria-labelledby': 'players-online-title'},
        h('h2', {id: 'players-online-title'}, t('players.online')), onlineBody))
    showResults()
    showOnline()
  }

  function search() {
    prefix = input.value.trim()
    found = null
    searchErr = null
    const n = ++asked
    if (prefix && NAME_START.test(prefix)) {
      get('/users?prefix=' + encodeURIComponent(prefix) + '&limit=20').then((res) => {
        if (n === asked) found = res.users
      }, (e) => {
        if (n === asked) searchErr = e
      }).then(showResults)
    }
    showResults()
  }

  function showResults() {
    clear(results)
    if (!prefix) return
    if (!NAME_START.test(prefix)) {
      results.append(h('p', {class: 'error', 'data-test': 'players-bad'}, t('players.badChars')))
    } else if (searchErr) {
      results.append(errorBox(searchErr))
    } else if (!found) {
      results.append(h('p', {class: 'muted'}, t('players.loading')))
    } else if (!found.length) {
      results.append(h('p', {class: 'muted', 'data-test': 'players-none'}, t('players.none', {prefix})))
    } else {
      results.append(h('ul', {class: 'players-list'}, found.map((u) => h('li', {'data-user': u.name},
        userLink(u.name), u.online ? h('span', {class: 'players-on'}, ' ● ', t('players.isOnline')) : null, challenge(u.name)))))
    }
  }

  /**
   * showOnline draws who is online. Read again every 15 s, mostly the
   * same: the list is renewed, not redrawn (dom.renewTree; a row is matched
   * by its player and game, a game's heading and list by the game), so a
   * profile link, Watch or Challenge pressed as it comes again is released
   * on the same element. Challenge's listener is onlineBody's.
   */
  function showOnline() {
    const fresh = h('div', {})
    drawOnline(fresh)
    renewTree(onlineBody, fresh)
  }

  function drawOnline(box) {
    if (onlineErr && !online) {
      box.append(errorBox(onlineErr))
      return
    }
    if (!online) {
      box.append(h('p', {class: 'muted'}, t('players.loading')))
      return
    }
    box.append(h('p', {class: 'note', 'data-test': 'players-count'}, t('players.count', {users: online.users, guests: online.guests})))
    if (!online.players.length) {
      box.append(h('p', {class: 'muted', 'data-test': 'players-nobody'}, t('players.nobody')))
      return
    }
    // One group per game played, in the catalog's order, then the idle.
    const byGame = new Map()
    const idle = []
    for (const p of online.players) {
      if (!p.games || !p.games.length) idle.push(p)
      for (const g of p.games || []) {
        if (!byGame.has(g.game)) byGame.set(g.game, [])
        byGame.get(g.game).push([p, g])
      }
    }
    const order = catalog.gameNames()
    const games = [...byGame.keys()].sort((a, b) => (order.indexOf(a) + 1 || 99) - (order.indexOf(b) + 1 || 99))
    for (const game of games) {
      box.append(h('h3', {'data-key': 'head ' + game}, t('players.playing', {game: gameTitle(game)})),
        h('ul', {class: 'players-list', 'data-test': 'players-game-' + game, 'data-key': 'list ' + game}, byGame.get(game).map(([p, g]) =>
          h('li', {'data-user': p.name, 'data-key': p.name + ' ' + g.id},
            userLink(p.name), ' · ',
            h('a', {href: '#/game/' + g.id, 'data-test': 'players-watch-' + g.id,
              'aria-label': t('players.watchLabel', {name: p.name, game: gameTitle(game)})}, t('players.watch')), challenge(p.name)))))
    }
    if (idle.length) {
      box.append(h('h3', {'data-key': 'head idle'}, t('players.idle')),
        h('ul', {class: 'players-list', 'data-test': 'players-idle', 'data-key': 'list idle'},
          idle.map((p) => h('li', {'data-user': p.name, 'data-key': p.name}, userLink(p.name), challenge(p.name)))))
    }
    if (online.truncated) box.append(h('p', {class: 'note'}, t('players.truncated')))
  }

  let timer = null
  let gone = false
  function load() {
    get('/online/players').then((res) => {
      online = res
      onlineErr = null
    }, (e) => {
      onlineErr = e
    }).then(() => {
      if (gone) return
      showOnline()
      timer = setTimeout(load, REFRESH_MS)
    })
  }

  render()
  load()
  return {
    relang: render,
    destroy() {
      gone = true
      clearTimeout(timer)
      clearTimeout(typing)
    },
  }
}
