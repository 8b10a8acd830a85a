// The move list and the step controls that the game page (review while the
// game goes on) and the replay page share. A row is the position after its
// move: clicking it shows that position.

import {h, s, clear, scrollIntoList, beforeFrame} from '../dom.js'
import {t} from '../i18n.js'
import {moverNames} from './common.js'
import {games} from '../games/registry.js'

export class MoveList {
  /**
   * @param {object} opts onPick(ply): a row was clicked; test: its data-test;
   *   start: a first row for the position before any move.
   */
  constructor({onPick, test, start = false}) {
    this.onPick = onPick
    this.start = start
    this.el = h('ol', {class: 'move-list', 'data-test': test})
    // box holds the list where the page's CSS gives it the height that is
    // left (the game page beside the board: flex-grow set): the list then
    // takes a whole number of rows of it, so that no row is cut at an edge.
    this.box = h('div', {class: 'move-box'}, this.el)
    this.shown = -1
    // rows: a key (ply, mover, move) of each move's row now in the list;
    // head: the start row's text, or undefined before the first set.
    this.rows = []
    this.head = undefined
    // following: the list shows its end, as the player last left it. Kept
    // from the list's scroll events, so that a new move need not make the
    // browser lay the page out to find out (set runs just after the board
    // was drawn anew).
    this.following = true
    this.el.addEventListener('scroll', () => { this.following = this.atEnd() }, {passive: true})
    // endSoon scrolls the list to its newest row before the next frame
    this.endSoon = beforeFrame(() => this.end())
    this.fitter = typeof ResizeObserver === 'function' ? new ResizeObserver(() => this.fit()) : null
    if (this.fitter) this.fitter.observe(this.box)
  }

  fit() {
    const flexing = this.box.isConnected && Number(getComputedStyle(this.box).flexGrow) > 0
    const row = this.el.firstElementChild ? this.el.firstElementChild.getBoundingClientRect().height : 0
    const end = this.atEnd()
    this.el.style.height = flexing && row > 0 ? Math.floor(this.box.clientHeight / row + 0.01) * row + 'px' : ''
    if (end) this.end()
  }

  destroy() {
    if (this.fitter) this.fitter.disconnect()
  }

  /**
   * set lists the moves of summary sum. With follow, the list keeps the
   * newest move in view as moves come, unless the player scrolled it away
   * from the end (then it stays where they put it).
   */
  set(sum, moves, follow) {
    const atEnd = this.following
    const names = moverNames(sum, moves)
    // A game's list grows by a row or two a move: the rows still right are
    // kept and the rest made, so that a move costs the browser a row, not
    // the whole list made and laid out again (hundreds of rows in a long
    // game, at every move).
    const head = this.start ? t('replay.start') : null
    // a game played in rounds marks the move that begins each round
    const g = games[sum.game]
    const rounds = g && g.roundStarts ? g.roundStarts(moves, sum.start && sum.start.view) : null
    const labels = moves.map((_, i) => (rounds && rounds[i] ? t(g.roundLabel, {n: rounds[i]}) : ''))
    const rows = moves.map((m, i) => m.ply + '\u0000' + names[i] + '\u0000' + m.move + '\u0000' + labels[i])
    let keep = 0
    if (head === this.head) {
      while (keep < rows.length && keep < this.rows.length && rows[keep] === this.rows[keep]) keep++
    } else {
      clear(this.el)
      if (this.start) this.el.append(this.row(0, h('span', {class: 'who'}, head)))
      this.rows = []
      this.head = head
    }
    const first = this.start ? 1 : 0
    while (this.el.children.length > first + keep) this.el.lastElementChild.remove()
    for (let i = keep; i < moves.length; i++) {
      const m = moves[i]
      const round = labels[i]
      this.el.append(this.row(m.ply + 1, h('span', {class: 'num'}, m.ply + 1 + '.'), ' ',
        h('span', {class: 'who'}, names[i]), ' ', h('code', {}, m.move),
        round ? [' ', h('span', {class: 'round-mark', 'data-test': 'round-mark'}, round)] : null))
      if (round) this.el.lastElementChild.classList.add('round-start')
    }
    this.rows = rows
    this.mark(this.shown, !follow)
    if (!this.el.style.height && this.fitter) this.fit() // the first rows tell the row's height
    if (follow && atEnd) this.endSoon()
  }

  /**
   * atEnd: the list shows its last row, or cannot scroll. Within a row: the
   * list snaps to whole rows, so scrolled to its end it may stop up to a
   * row short of it.
   */
  atEnd() {
    const row = this.el.lastElementChild ? this.el.lastElementChild.offsetHeight : 0
    return this.el.scrollTop + this.el.clientHeight >= this.el.scrollHeight - row - 4
  }

  /** end scrolls the list to its newest row. */
  end() {
    this.el.scrollTop = this.el.scrollHeight
    this.following = true
  }

  row(ply, ...children) {
    return h('li', {'data-ply': ply}, h('button', {type: 'button', class: 'mv', onclick: () => this.onPick(ply)}, children))
  }

  /**
   * mark highlights the row of ply (-1: none) and, with scroll, scrolls the
   * list (never the page) to it.
   */
  mark(ply, scroll = true) {
    this.shown = ply
    let cur = null
    for (const li of this.el.children) {
      const here = Number(li.dataset.ply) === ply
      // only the rows that change are written: a row written is a row
      // whose style the browser works out again
      if (li.classList.contains('current') !== here) li.classList.toggle('current', here)
      const current = here ? 'true' : 'false'
      if (li.firstChild.getAttribute('aria-current') !== current) li.firstChild.setAttribute('aria-current', current)
      if (here) cur = li
    }
    if (cur && scroll) scrollIntoList(this.el, cur)
  }
}

// icons drawn in SVG: the media-control glyphs are missing from many fonts
function icon(d) {
  const svg = s(null, 'svg', {viewBox: '0 0 16 16', width: 16, height: 16, 'aria-hidden': 'true', class: 'icon'})
  s(svg, 'path', {d, fill: 'currentColor'})
  return svg
}

/**
 * stepper is the row of first / previous / where / next / last controls;
 * go(step) gets 'first', 'prev', 'next' or 'last'. Returns {el, where}.
 */
export function stepper(go) {
  const btn = (d, key, test) => h('button', {type: 'button', class: 'step', 'aria-label': t(key), title: t(key), 'data-test': test,
    onclick: () => go(test)}, icon(d))
  const where = h('span', {class: 'ply', 'aria-live': 'polite'})
  const el = h('div', {class: 'replay-controls'},
    btn('M2 2h2v12H2zM14 2v12L5 8z', 'replay.first', 'first'),
    btn('M12 2v12L3 8z', 'replay.prev', 'prev'),
    where,
    btn('M4 2v12l9-6z', 'replay.next', 'next'),
    btn('M12 2h2v12h-2zM2 2v12l9-6z', 'replay.last', 'last'))
  return {el, where}
}

/** stepKeys calls go(step) for the arrow, Home and End keys, except while typing. */
export function stepKeys(go) {
  const onKey = (ev) => {
    if (ev.altKey || ev.ctrlKey || ev.metaKey || ev.shiftKey) return
    if (ev.target.closest && ev.target.closest('input, select, textarea, [contenteditable]')) return
    const step = {ArrowLeft: 'prev', ArrowRight: 'next', Home: 'first', End: 'last'}[ev.key]
    if (!step) return
    ev.preventDefault()
    go(step)
  }
  document.addEventListener('keydown', onKey)
  return () => document.removeEventListener('keydown', onKey)
}
