// Premoves (issue 27, point 9): in a live two-player game of perfect
// information, while the opponent is to move, the player may enter one move
// in advance. The board offers it the moves that could be legal once it is
// their turn (a placement on an empty cell, a slide through empty squares:
// the client has no rules engine, so these are candidates, not promises).
// The chosen premove is marked on the board; a click on the board, a right
// click, Escape or the cancel button drops it. When the position arrives
// with the player to move, it is sent at once if the server's legal list
// holds it (or exactly one legal move that the same click would make, such
// as a Sgolte placement whose flips are forced); otherwise it is dropped
// with a short notice. A move whose last step must be chosen on one's turn
// (flips to choose, a bonus action) is dropped with a notice that says so.
// Correspondence games have conditional moves instead; hidden-information
// games (Skyjo) have neither.

import {h, s} from '../dom.js'
import {t} from '../i18n.js'
import * as catalog from '../catalog.js'
import {locate} from '../diagram.js'
import {geometry as sgolteGeometry, stones as sgolteStones, parseMove as sgolteParse} from '../games/sgolte/model.js'
import {board as sploofBoard, points as sploofPoints, pinned as sploofPinned} from '../games/sploof/model.js'
import {pieces as skjuubPieces, neighbour as skjuubNeighbour, active as skjuubActive, parseAction as skjuubParse, DIRS} from '../games/skjuub/model.js'

/**
 * rules per game: candidates(view, seat, seats) lists the premoves offered; key(move)
 * names what one click chose (a legal move with the same key is the same
 * intention); squares(move) are the board's hit keys the premove marks.
 */
const rules = {
  sgolte: {
    candidates(view) {
      const geo = sgolteGeometry(Number(view.size) || 5)
      const taken = sgolteStones(view)
      return geo.cells.filter((c) => !taken.has(c.name)).map((c) => c.name)
    },
    key: (m) => {
      const mv = sgolteParse(m)
      return mv && mv.kind === 'place' ? mv.cell : m
    },
    squares: (m) => [sgolteParse(m)?.cell].filter(Boolean),
  },
  sploof: {
    candidates(view, seat, seats) {
      const cells = sploofBoard(view)
      const name = seats && seats[seat] && seats[seat].name // the side a seat plays (who is first is drawn)
      const colour = name === 'white' || name === 'black' ? name : seat === 0 ? 'white' : 'black'
      const out = []
      for (const p of sploofPoints(cells)) {
        if (!p.ball && (view.stock || {})[colour] !== 0 && (p.h === 1 || [[0, 0], [1, 0], [0, 1], [1, 1]].every(([dr, dc]) => cells[p.h - 1][p.r + dr][p.c + dc]))) out.push(p.name)
        if (p.ball === 'R' && p.h === 1 && !sploofPinned(cells, p.r, p.c)) out.push('*' + p.name)
      }
      return out
    },
    key: (m) => m,
    squares: (m) => [m.replace(/^\*/, '')],
  },
  skjuub: {
    candidates(view, seat) {
      const map = skjuubPieces(view)
      const me = seat + 1
      const out = []
      const squares = []
      for (let c = 0; c < 6; c++) for (let r = 0; r < 6; r++) squares.push(String.fromCharCode(97 + c) + (r + 1))
      if ((view.pool || [])[seat]) {
        for (const sq of squares) if (!map.has(sq)) for (const d of Object.keys(DIRS)) out.push(sq + d)
      }
      for (const [sq, p] of map) {
        if (p.player !== me || !skjuubActive(map, sq)) continue
        for (const d of Object.keys(DIRS)) {
          for (let to = skjuubNeighbour(sq, d); to && !map.has(to); to = skjuubNeighbour(to, d)) out.push(`${sq}-${to}`)
        }
        const back = {N: 'S', S: 'N', E: 'W', W: 'E'}[p.dir]
        for (const d of [p.dir, back]) {
          const to = skjuubNeighbour(sq, d)
          if (to && !map.has(to)) out.push(`${sq}~${to}`)
        }
      }
      return out
    },
    key: (m) => m.split(' ')[0],
    squares: (m) => {
      const a = skjuubParse(m)
      return a ? [a.sq, a.from, a.to].filter(Boolean) : []
    },
  },
}

export class Premove {
  /**
   * @param {object} props
   *   game(): the page's state {summary, seat, legal, view, review}
   *   box: the board's box (clicks and right clicks there cancel a premove)
   *   redraw(): shows the board again (its offer or mark changed)
   */
  constructor(props) {
    this.props = props
    this.move = null
    this.el = h('div', {class: 'premove-bar', 'data-test': 'premove', 'aria-live': 'polite', hidden: true})
    this.onClick = (ev) => {
      if (!this.move || !ev.target.closest('.board-svg')) return
      ev.preventDefault()
      ev.stopPropagation()
      this.cancel()
    }
    this.onContext = (ev) => {
      if (!this.move) return
      ev.preventDefault()
      this.cancel()
    }
    this.onKey = (ev) => {
      if (ev.key === 'Escape' && this.move) this.cancel()
    }
    props.box.addEventListener('click', this.onClick, true)
    props.box.addEventListener('contextmenu', this.onContext)
    document.addEventListener('keydown', this.onKey)
  }

  /** allowed: the player may premove now (a live two-player perfect-information game, not their turn, not by correspondence). */
  allowed() {
    const st = this.props.game()
    const sum = st.summary
    return !!(sum && sum.status === 'live' && st.seat >= 0 && sum.seats.length === 2 && rules[sum.game] && !catalog.hidden(sum.game) &&
      sum.clock?.kind !== 'correspondence' && !(st.legal && st.legal.length) && st.view && !st.review)
  }

  /** offer is the board's move list while waiting: the candidates, or null (none offered, or one already chosen). */
  offer() {
    if (this.move || !this.allowed()) return null
    const st = this.props.game()
    try {
      const list = rules[st.summary.game].candidates(st.view, st.seat, st.summary.seats)
      return list.length ? list : null
    } catch {
      return null // a view the generator does not know: no premove rather than a broken board
    }
  }

  /** hint is the board's prompt while premoves are offered or one is chosen. */
  hint() {
    if (this.move) return t('premove.set', {move: this.move})
    return this.offer() ? t('premove.offer') : null
  }

  /** choose keeps text as the premove (the board played it while waiting). */
  choose(text) {
    this.move = text
    this.say(h('span', {}, t('premove.label'), ' ', h('code', {}, text)), true) // the board's prompt says the rest
    this.props.redraw()
  }

  cancel(note) {
    this.move = null
    if (note) this.say(h('span', {class: 'premove-dropped', 'data-test': 'premove-dropped'}, note), false)
    else this.say(null)
    this.props.redraw()
  }

  /** clear forgets the premove without a word (a takeback, a new snapshot of a finished game). */
  clear() {
    this.move = null
    this.say(null)
  }

  /**
   * turn is called when the position arrives with the player to move: the
   * premove is sent by send(text) if it is legal, else dropped with a notice.
   */
  turn(legal, send) {
    const mv = this.move
    if (!mv || !legal || !legal.length) return
    const r = rules[this.props.game().summary?.game]
    this.move = null
    let play = legal.includes(mv) ? mv : null
    let note = t('premove.dropped', {move: mv})
    if (!play && r) {
      const same = legal.filter((m) => r.key(m) === r.key(mv))
      if (same.length === 1) play = same[0]
      else if (same.length > 1) note = t('premove.choice', {move: mv})
    }
    if (play) {
      this.say(null)
      send(play)
    } else this.say(h('span', {class: 'premove-dropped', 'data-test': 'premove-dropped'}, note), false)
    this.props.redraw() // the mark goes
  }

  say(node, withCancel) {
    this.el.replaceChildren()
    this.el.hidden = !node
    if (!node) return
    this.el.append(node)
    if (withCancel) {
      this.el.append(' ', h('button', {type: 'button', class: 'subtle', 'data-test': 'premove-cancel', onclick: () => this.cancel()}, t('premove.cancel')))
    }
  }

  /** decorate marks the premove's squares on the board's SVG (called after each redraw). */
  decorate(board) {
    if (!this.move) return
    const r = rules[this.props.game().summary?.game]
    if (!r) return
    for (const key of r.squares(this.move)) {
      // the board's own place of a point, drawn as a target or not (Sploof draws none for an empty point while waiting)
      const at = locate(board, key)
      if (!at) continue
      s(at.svg, 'circle', {cx: at.x, cy: at.y, r: at.r + 2, fill: 'rgba(224, 138, 30, 0.3)', stroke: '#e08a1e', 'stroke-width': 3,
        'stroke-dasharray': '6 3', 'pointer-events': 'none', class: 'premove-mark', 'data-test': 'premove-mark', 'data-key': key})
    }
  }

  destroy() {
    this.props.box.removeEventListener('click', this.onClick, true)
    this.props.box.removeEventListener('contextmenu', this.onContext)
    document.removeEventListener('keydown', this.onKey)
  }
}
