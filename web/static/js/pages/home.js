// Home: the site's games (the catalog's), each with a one-line pitch, "play a bot now"
// (which makes a guest account if needed and starts the game at once) and
// "play a person" (quick pairing at the time control chosen above the
// cards; the search shows in the bar at the bottom of the window and goes
// on while the player browses the site); the number of players online.

import {h, clear} from '../dom.js'
import {t} from '../i18n.js'
import * as catalog from '../catalog.js'
import {games} from '../games/registry.js'
import {errorBox, gameTitle} from '../components/common.js'
import {Seeker, onlineCount, pairClockLong} from '../components/pairing.js'
import {LEVEL_KEY, savedLevel, quickGame, levelLabelAll} from '../components/quickgame.js'
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
  const seeker = new Seeker({inline: false, onChange: () => showSearch(), playBot: (game, clock) => quickGame(game, level.value, catalog.pairClock(clock))})
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
  const personButtons = []
  const leaders = leaderboardOverview()

  // showSearch: one search at a time. The search itself is drawn in the
  // bar at the bottom of the window (pairing.js), not in the card: a box
  // in the card stretched its row and dropped the cards below out of view.
  function showSearch() {
    for (const b of personButtons) b.disabled = seeker.busy()
  }

  function render() {
    clear(main)
    personButtons.length = 0
    level = h('select', {id: 'bot-level', 'data-test': 'bot-level', onchange: remember(LEVEL_KEY)},
      catalog.bots().map((l) => h('option', {value: l, selected: l === savedLevel()}, levelLabelAll(l))))
    clock = h('select', {id: 'pair-clock', 'data-test': 'pair-clock', onchange: remember(CLOCK_KEY)},
      catalog.pairClocks().map(({name}) => h('option', {value: name, selected: name === savedClock()}, pairClockLong(name))))
    const cards = catalog.gameNames().map((name) => {
      const person = h('button', {type: 'button', 'data-test': 'pair-' + name, onclick: () => seeker.ask(name, clock.value)}, t('home.playPerson'))
      personButtons.push(person)
      return h('article', {class: 'game-card', 'data-game': name},
        h('div', {class: 'game-icon icon-' + games[name].icon, 'aria-hidden': 'true'}),
        h('h2', {}, gameTitle(name)),
        h('p', {class: 'pitch'}, t('game.' + name + '.pitch')),
        h('div', {class: 'card-actions'},
          h('button', {type: 'button', class: 'primary', 'data-test': 'play-bot-' + name, onclick: async (ev) => {
            ev.target.disabled = true
            status.replaceChildren()
            try {
              if (seeker.state.phase === 'waiting') await seeker.cancel() // a game against a bot ends the search
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
          h('a', {href: '#/leaderboard/' + name, class: 'button subtle', 'data-test': 'lb-link-' + name}, t('home.leaderboard'))))
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
