// Board preferences on the game page (issue 27, point 10): the board's
// size and zen mode — only the board and the clocks, the rest of the page
// (the site's menu, the move list, the chat, the buttons) out of the way
// until the player leaves it (its button, or Escape). Both are remembered
// in this browser (prefs.js); the board's theme is the page's own select
// (theme.js, per game).

import {h} from '../dom.js'
import {t} from '../i18n.js'
import * as prefs from '../prefs.js'

export class BoardPrefs {
  /** @param {HTMLElement} page the game page's box, which carries the choices as data attributes for the CSS. */
  constructor(page) {
    this.page = page
    this.onKey = (ev) => {
      if (ev.key === 'Escape' && prefs.zen()) this.setZen(false)
    }
    document.addEventListener('keydown', this.onKey)
    this.onZen = null
    this.apply()
  }

  apply() {
    this.page.dataset.boardSize = prefs.boardSize()
    const zen = prefs.zen()
    this.page.classList.toggle('zen', zen)
    document.body.classList.toggle('zen', zen)
  }

  setZen(on) {
    prefs.setZen(on)
    this.apply()
    this.onZen?.()
    window.dispatchEvent(new Event('resize')) // the board fits the room it has now
  }

  /** tools: the size menu and the zen button, for the page's tool row. */
  tools() {
    const size = h('select', {class: 'board-size', 'data-test': 'board-size', 'aria-label': t('board.size'), title: t('board.size'),
      onchange: (ev) => {
        prefs.setBoardSize(ev.target.value)
        this.apply()
        window.dispatchEvent(new Event('resize'))
      }}, Object.keys(prefs.boardSizes).map((v) => h('option', {value: v, selected: v === prefs.boardSize()}, t('board.size.' + v))))
    const zen = prefs.zen()
    const button = h('button', {type: 'button', class: 'zen-toggle' + (zen ? ' on' : ''), 'data-test': 'zen', 'aria-pressed': zen ? 'true' : 'false',
      title: t(zen ? 'board.zen.off' : 'board.zen.on'), 'aria-label': t(zen ? 'board.zen.off' : 'board.zen.on'), onclick: () => this.setZen(!prefs.zen())},
    h('span', {class: 'zen-glyph', 'aria-hidden': 'true'}, zen ? '✕' : '◎'), h('span', {class: 'zen-word'}, t(zen ? 'board.zen.off' : 'board.zen')))
    return [size, button]
  }

  destroy() {
    document.removeEventListener('keydown', this.onKey)
    document.body.classList.remove('zen')
  }
}
