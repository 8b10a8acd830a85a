// Home: the site's games (the catalog's), each with a one-line pitch, "play a bot now"
// (which makes a guest account if needed and starts the game at once) and
// "play a person" (quick pairing at the time control chosen above the
// cards); the number of players online.

import {h, clear} from '../dom.js'
import {t} from '../i18n.js'
import * as catalog from '../catalog.js'
import {games} from '../games/registry.js'
import {errorBox, gameTitle} from '../components/common.js'
import {Seeker, statusBox, onlineCount, pairClockLong} from '../components/pairing.js'
import {LEVEL_KEY, savedLevel, quickGame} from '../components/quickgame.js'
import {leaderboardOverview} from '../components/leaderboard.js'
import {cta} from '../lessons/text.js'

const CLOCK_KEY = 'tabula.pairClock'

function savedClock() {
  const names = catalog.pairClocks().map((c) => c.name)
  try {
    const c = localStorage.getItem(CLOCK_KEY)
    if (names.includes(c)) return c
  } catch {
    // default below
  }
  return names.includes('rapid') ? 'rapid' : names[0]
}

export function homePage(main) {
  const online = onlineCount()
  const seeker = new Seeker({onChange: () => showSearch(), playBot: (game, clock) => quickGame(game, level.value, catalog.pairClock(clock))})
  const status = h('div', {'aria-live': 'polite'})
  const remember = (key) => (ev) => {
    try {
      localStorage.setItem(key, ev.target.value)
    } catch {
      // not remembered
    }
  }
  let level = null
  let clock = null
  const searches = {} // game → the box under its card's buttons
  const personButtons = []
  const leaders = leaderboardOverview()

  function showSearch() {
    const st = seeker.state
    for (const b of personButtons) b.disabled = seeker.busy()
    for (const [name, box] of Object.entries(searches)) {
      const now = st.game === name ? statusBox(seeker) : null
      box.replaceChildren(...(now ? [now] : []))
    }
  }

  function render() {
    clear(main)
    personButtons.length = 0
    level = h('select', {id: 'bot-level', 'data-test': 'bot-level', onchange: remember(LEVEL_KEY)},
      catalog.bots().map((l) => h('option', {value: l, selected: l === savedLevel()}, t('bot.' + l))))
    clock = h('select', {id: 'pair-clock', 'data-test': 'pair-clock', onchange: remember(CLOCK_KEY)},
      catalog.pairClocks().map(({name}) => h('option', {value: name, selected: name === savedClock()}, pairClockLong(name))))
    const cards = catalog.gameNames().map((name) => {
      const person = h('button', {type: 'button', 'data-test': 'pair-' + name, onclick: () => seeker.ask(name, clock.value)}, t('home.playPerson'))
      personButtons.push(person)
      searches[name] = h('div', {class: 'card-search', 'aria-live': 'polite'})
      return h('article', {class: 'game-card', 'data-game': name},
        h('div', {class: 'game-icon icon-' + games[name].icon, 'aria-hidden': 'true'}),
        h('h2', {}, gameTitle(name)),
        h('p', {class: 'pitch'}, t('game.' + name + '.pitch')),
        h('div', {class: 'card-actions'},
          h('button', {type: 'button', class: 'primary', 'data-test': 'play-bot-' + name, onclick: async (ev) => {
            ev.target.disabled = true
            status.replaceChildren()
            try {
              await quickGame(name, level.value)
            } catch (e) {
              status.replaceChildren(errorBox(e))
              ev.target.disabled = false
            }
          }}, t('home.playBot')),
          person,
          h('a', {href: '#/learn/' + name, class: 'button', 'data-test': 'learn-link-' + name}, cta(name, gameTitle(name))),
          h('a', {href: '#/rules/' + name, class: 'button'}, t('home.rules')),
          h('a', {href: '#/lobby?game=' + name, class: 'button subtle'}, t('home.lobby')),
          h('a', {href: '#/leaderboard/' + name, class: 'button subtle', 'data-test': 'lb-link-' + name}, t('home.leaderboard'))),
        searches[name])
    })
    main.append(
      h('section', {class: 'hero'},
        h('div', {class: 'page-head'}, h('h1', {}, t('home.title')), online.node),
        h('p', {class: 'lead'}, t('home.lead')),
        h('div', {class: 'hero-choices'},
          h('p', {}, h('label', {for: 'bot-level'}, t('home.botLevel') + ' '), level),
          h('p', {}, h('label', {for: 'pair-clock'}, t('home.pairClock') + ' '), clock))),
      status,
      h('div', {class: 'game-cards'}, cards),
      leaders.node)
    showSearch()
  }

  render()
  return {
    relang() {
      leaders.relang()
      render()
      online.relang()
    },
    destroy() {
      online.destroy()
      seeker.destroy()
    },
  }
}
