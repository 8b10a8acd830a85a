// Home: the four games, each with a one-line pitch and "play a bot now",
// which makes a guest account if needed and starts the game at once.

import {h} from '../dom.js'
import {t} from '../i18n.js'
import {api} from '../api.js'
import * as session from '../session.js'
import {games, gameNames} from '../games/registry.js'
import {errorBox, gameTitle} from './common.js'
import {cta} from '../lessons/text.js'

const LEVEL_KEY = 'tabula.botLevel'
const LEVELS = ['random', 'greedy', 'easy', 'medium', 'hard']

function savedLevel() {
  try {
    const l = localStorage.getItem(LEVEL_KEY)
    if (LEVELS.includes(l)) return l
  } catch {
    // default below
  }
  return 'easy'
}

/** quickGame starts a game of name against a bot and opens it. */
export async function quickGame(name, level) {
  await session.ensure()
  const res = await api.createGame({game: name, options: games[name].quickOptions || {},
    seats: [{kind: 'me'}, {kind: 'bot', level}]})
  location.hash = '#/game/' + res.game.id
}

export function homePage(main) {
  const status = h('div', {'aria-live': 'polite'})
  const level = h('select', {id: 'bot-level', 'data-test': 'bot-level', onchange: (ev) => {
    try {
      localStorage.setItem(LEVEL_KEY, ev.target.value)
    } catch {
      // not remembered
    }
  }}, LEVELS.map((l) => h('option', {value: l, selected: l === savedLevel()}, t('bot.' + l))))
  const cards = gameNames.map((name) => h('article', {class: 'game-card', 'data-game': name},
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
      h('a', {href: '#/learn/' + name, class: 'button', 'data-test': 'learn-link-' + name}, cta(name, gameTitle(name))),
      h('a', {href: '#/rules/' + name, class: 'button'}, t('home.rules')),
      h('a', {href: '#/lobby?game=' + name, class: 'button subtle'}, t('home.lobby')))))
  main.append(
    h('section', {class: 'hero'},
      h('h1', {}, t('home.title')),
      h('p', {class: 'lead'}, t('home.lead')),
      h('p', {}, h('label', {for: 'bot-level'}, t('home.botLevel') + ' '), level)),
    status,
    h('div', {class: 'game-cards'}, cards))
}
