// The Skjuub board, drawn so that every piece's square can be told at a
// glance: a skjuub is seen from above as a solid base filling most of its
// own square in its owner's colour, with its top (lighter, bevelled toward
// the lean) and an arrow toward the lean on it; the overhang, the part of
// the top that reaches over the next square, is drawn apart from the base:
// a pale, dashed tongue out of the base's edge, never over another base
// (over a connected neighbour it is the short bridge between the two). An
// inactive piece is hatched, as the rules pages and the lessons say. The
// board has a rim all round, inside its frame, where the overhangs of edge
// pieces leaning outward stay; the coordinates stand outside the frame.
// Selecting a piece shows its slides (dots) and tumbles (diamonds, with
// the piece as it would land); a bonus action is guided step by step.

import {s, svgRoot, h, clear} from '../../dom.js'
import {t} from '../../i18n.js'
import {Board, animateFrom} from '../board.js'
import {DIRS, square, parseSquare, pieces, active, parseAction, neighbour} from './model.js'

const U = 64 // a square
const M = U * 0.07 // a piece's base stands this far inside its square
const SIDE = U - 2 * M // a base's edge: the base covers 74% of its square
const LEAN = 0.4 // how far the top is pushed toward the lean, in edges (less than half a square, docs/rules/skjuub.md)
const OVER = SIDE * LEAN // how far the overhang reaches out of the base's edge
const RIM = Math.ceil(OVER - M) + 4 // the board's rim round the squares holds every overhang past the edge
const BEVEL = U * 0.09 // the top drawn on the base, shifted toward the lean by this much
// Around the frame, the coordinates.
const PAD_L = RIM + 28
const PAD_T = RIM + 8
const PAD_R = RIM + 8
const PAD_B = RIM + 28
const ARROWS = {N: '↑', E: '→', S: '↓', W: '←'}
const OPPOSITE = {N: 'S', S: 'N', E: 'W', W: 'E'}
let patterns = 0 // each board's hatch pattern gets its own id (a page may show many boards)

export class SkjuubBoard extends Board {
  reset() {
    this.sel = null // {kind: 'piece'|'place', sq, dest?}
  }

  cancel() {
    if (!this.sel) return false
    if (this.sel.dest) this.sel.dest = null
    else this.sel = null
    return true
  }

  me() {
    return this.state.seat + 1
  }

  actions_() {
    return (this.state.legal || []).map((m) => ({text: m, a: parseAction(m)})).filter((x) => x.a)
  }

  from(sq) {
    return this.actions_().filter(({a}) => a.from === sq || ((a.kind === 'pickup' || a.kind === 'turn') && a.sq === sq))
  }

  placements(sq) {
    return this.actions_().filter(({a}) => a.kind === 'place' && a.sq === sq)
      .sort((x, y) => 'NESW'.indexOf(x.a.dir) - 'NESW'.indexOf(y.a.dir))
  }

  hit(key) {
    if (!this.myTurn) {
      this.warn(this.notYourTurn())
      return
    }
    const map = pieces(this.state.view)
    if (key.length === 3) {
      // a direction target of a placement: "c3N"
      this.play(key)
      return
    }
    const piece = map.get(key)
    if (this.sel && this.sel.kind === 'piece' && !piece) {
      const moves = this.from(this.sel.sq).filter(({a}) => a.to === key)
      if (moves.length === 1) {
        this.play(moves[0].text)
        return
      }
      if (moves.length > 1) {
        this.sel.dest = key
        return
      }
    }
    if (piece) {
      if (piece.player !== this.me()) {
        this.warn(t('skjuub.notYours', {sq: key}))
        return
      }
      if (this.sel && this.sel.kind === 'piece' && this.sel.sq === key) {
        this.sel = null
        return
      }
      const acts = this.from(key)
      if (!acts.length) {
        if (!active(map, key)) this.warn(t('skjuub.inactive', {sq: key}))
        else if (this.state.view.sacrificed === key) this.warn(t('skjuub.sacrificed', {sq: key}))
        else this.warn(t('skjuub.stuck', {sq: key}))
        return
      }
      this.sel = {kind: 'piece', sq: key}
      return
    }
    const places = this.placements(key)
    if (places.length) {
      this.sel = {kind: 'place', sq: key}
      return
    }
    if (this.sel && this.sel.kind === 'piece') this.warn(t('skjuub.unreachable', {sq: key, from: this.sel.sq}))
    else if (!(this.state.view.pool || [])[this.me() - 1]) this.warn(t('skjuub.poolEmpty'))
    else if (this.actions_().some(({a}) => a.kind === 'place')) this.warn(t('skjuub.cannotPlace', {sq: key}))
    else this.warn(t('skjuub.noPlaceNow'))
  }

  guide() {
    const view = this.state.view
    const buttons = []
    if (!this.myTurn) {
      if (this.state.status && this.state.status !== 'live') return {text: ''}
      const text = view.phase === 'bonus' ? t('skjuub.theirBonus', {player: view.toMove}) : t('skjuub.toMove', {player: view.toMove})
      return {text, buttons}
    }
    const bonus = view.phase === 'bonus'
    let text = bonus ? t('skjuub.bonus', {sq: view.sacrificed || ''}) : (this.props.study ? t('skjuub.turnFor', {player: view.toMove}) : t('skjuub.yourTurn'))
    if (this.sel && this.sel.kind === 'place') {
      text = t('skjuub.chooseDir', {sq: this.sel.sq})
      for (const {text: mv, a} of this.placements(this.sel.sq)) {
        buttons.push({label: `${ARROWS[a.dir]} ${t('dir.' + a.dir)}`, move: mv, run: () => this.play(mv)})
      }
    } else if (this.sel && this.sel.kind === 'piece') {
      const acts = this.from(this.sel.sq)
      if (this.sel.dest) {
        text = t('skjuub.slideOrTumble', {sq: this.sel.dest})
        for (const {text: mv, a} of acts.filter(({a}) => a.to === this.sel.dest)) {
          buttons.push({label: t('skjuub.' + a.kind) + ' ' + mv, move: mv, run: () => this.play(mv)})
        }
      } else {
        text = t('skjuub.pieceSelected', {sq: this.sel.sq})
        for (const {text: mv, a} of acts) {
          if (a.kind === 'pickup') buttons.push({label: t('skjuub.pickup') + ' ' + mv, move: mv, run: () => this.play(mv)})
          if (a.kind === 'turn') buttons.push({label: (a.cw ? t('skjuub.turnCw') : t('skjuub.turnCcw')) + ' ' + mv, move: mv, run: () => this.play(mv)})
        }
      }
    }
    if (this.state.legal.includes('pass')) buttons.push({label: t('skjuub.pass'), move: 'pass', run: () => this.play('pass')})
    if (this.sel) buttons.push({label: t('board.cancel'), run: () => {
      this.reset()
      this.redraw()
    }})
    return {text, buttons}
  }

  render() {
    const view = this.state.view
    const map = pieces(view)
    const W = PAD_L + 6 * U + PAD_R
    const H = PAD_T + 6 * U + PAD_B
    const {svg, layers} = svgRoot(`0 0 ${W} ${H}`, ['squares', 'marks', 'pieces', 'previews', 'targets'],
      {class: 'skjuub', role: 'group', 'aria-label': t('skjuub.boardLabel')})
    const hatch = hatchPattern(svg)
    const sel = this.sel
    const acts = sel && sel.kind === 'piece' ? this.from(sel.sq) : []
    const slideTo = new Set(acts.filter(({a}) => a.kind === 'slide').map(({a}) => a.to))
    const tumbleTo = new Set(acts.filter(({a}) => a.kind === 'tumble').map(({a}) => a.to))
    const placeable = new Set(this.myTurn ? this.actions_().filter(({a}) => a.kind === 'place').map(({a}) => a.sq) : [])
    const movable = new Set(this.myTurn ? this.actions_().filter(({a}) => a.from || a.kind === 'pickup' || a.kind === 'turn').map(({a}) => a.from || a.sq) : [])
    const label = (sq) => {
      const piece = map.get(sq)
      return piece ? t('skjuub.pieceLabel', {sq, player: piece.player, dir: t('dir.' + piece.dir),
        state: active(map, sq) ? t('skjuub.active') : t('skjuub.inactiveWord')}) : t('skjuub.emptyLabel', {sq})
    }

    // the frame round the squares and their rim (where overhangs past the
    // edge stay), and the coordinates outside it
    s(layers.squares, 'rect', {x: PAD_L - RIM, y: PAD_T - RIM, width: 6 * U + 2 * RIM, height: 6 * U + 2 * RIM, rx: 4, class: 'frame'})
    for (let i = 0; i < 6; i++) {
      s(layers.squares, 'text', {x: PAD_L + i * U + U / 2, y: PAD_T + 6 * U + RIM + 20, class: 'coord file'}, String.fromCharCode(97 + i))
      s(layers.squares, 'text', {x: PAD_L - RIM - 14, y: PAD_T + (5 - i) * U + U / 2 + 5, class: 'coord rank'}, String(i + 1))
    }
    for (let r = 0; r < 6; r++) {
      for (let c = 0; c < 6; c++) {
        const sq = square(c, r)
        const {x, y} = xy(sq)
        const g = s(layers.squares, 'g', {class: 'square'})
        s(g, 'rect', {x, y, width: U, height: U, 'data-sq': sq, class: 'sq ' + ((r + c) % 2 ? 'light' : 'dark') + (sel && sel.sq === sq ? ' selected' : '')})
        // An occupied square is clicked through its piece; an empty one the
        // player may use now through a spot on top of everything, as a
        // neighbour's top may hang over it; any other empty square here,
        // to explain why nothing happens.
        if (map.has(sq) || slideTo.has(sq) || tumbleTo.has(sq) || (!sel && placeable.has(sq))) continue
        this.hitTarget(g, sq, label(sq), false)
      }
    }
    const spot = (sq) => {
      const {x, y} = xy(sq)
      const g = s(layers.targets, 'g', {class: 'dest'})
      s(g, 'rect', {x: x + U * 0.2, y: y + U * 0.2, width: U * 0.6, height: U * 0.6, rx: 6, class: 'dest-hit'})
      this.hitTarget(g, sq, label(sq))
      return {g, x, y}
    }
    if (!sel) for (const sq of placeable) spot(sq)
    // the last turn: where pieces came from and went
    const turn = this.lastTurn()
    const fresh = this.state.fresh
    let glide = null
    turn.forEach((m, i) => {
      const a = parseAction(m.move)
      if (!a) return
      if (a.kind === 'slide' || a.kind === 'tumble') {
        const p = xy(a.from)
        const q = xy(a.to)
        s(layers.marks, 'rect', {x: p.x + 3, y: p.y + 3, width: U - 6, height: U - 6, class: 'last-from'})
        s(layers.marks, 'line', {x1: p.x + U / 2, y1: p.y + U / 2, x2: q.x + U / 2, y2: q.y + U / 2, class: 'last-path ' + a.kind})
        s(layers.marks, 'rect', {x: q.x + 2, y: q.y + 2, width: U - 4, height: U - 4, class: 'last-to'})
        if (fresh && i === turn.length - 1) glide = {sq: a.to, dx: p.x - q.x, dy: p.y - q.y}
      } else if (a.sq) {
        const p = xy(a.sq)
        s(layers.marks, 'rect', {x: p.x + 2, y: p.y + 2, width: U - 4, height: U - 4, class: a.kind === 'pickup' ? 'last-from' : 'last-to'})
      }
    })
    // Pieces never overlap: an overhang reaches over an empty square (or
    // past the edge) or, between connected pieces, only the gap between them.
    for (const [sq, piece] of map) {
      const isActive = active(map, sq)
      const g = drawPiece(layers.pieces, sq, piece, isActive, hatch, map)
      this.hitTarget(g, sq, label(sq), !sel ? movable.has(sq) : sel.kind === 'piece' && movable.has(sq))
      if (sel && sel.kind === 'piece' && sel.sq === sq) g.classList.add('selected')
      if (view.sacrificed === sq) {
        const {x, y} = xy(sq)
        s(g, 'text', {x: x + U - M - 9, y: y + M + 15, class: 'sacrificed'}, '★') // in the base's corner, clear of the arrow
      }
      if (glide && glide.sq === sq) animateFrom(g, glide.dx, glide.dy)
      else if (fresh && turn.length && parseAction(turn[turn.length - 1].move)?.sq === sq) g.classList.add('pop')
    }
    // a selected piece: where it can go, and how a tumble would leave it
    for (const sq of new Set([...slideTo, ...tumbleTo])) {
      const {g, x, y} = spot(sq)
      if (slideTo.has(sq)) s(g, 'circle', {cx: x + U / 2, cy: y + U / 2, r: 9, class: 'slide-target'})
      if (tumbleTo.has(sq)) {
        const cx = x + U / 2
        const cy = y + U / 2
        s(g, 'path', {d: `M${cx},${cy - 14} L${cx + 14},${cy} L${cx},${cy + 14} L${cx - 14},${cy} Z`, class: 'tumble-target'})
      }
    }
    for (const {a} of acts.filter(({a}) => a.kind === 'tumble')) {
      const piece = map.get(a.from)
      const dir = OPPOSITE[piece.dir] // a tumble, forward or back, turns the lean round
      const g = drawPiece(layers.previews, a.to, {player: piece.player, dir}, true, hatch, map)
      g.classList.add('preview')
      g.setAttribute('data-sq', a.to)
      g.setAttribute('data-dir', dir)
    }
    if (sel && sel.kind === 'place') {
      const {x, y} = xy(sel.sq)
      for (const {text: mv, a} of this.placements(sel.sq)) {
        const [dx, dy] = DIRS[a.dir]
        const cx = x + U / 2 + dx * U * 0.27
        const cy = y + U / 2 - dy * U * 0.27
        const g = s(layers.targets, 'g', {class: 'dir-target'})
        this.hitTarget(g, mv, t('skjuub.placeDir', {sq: sel.sq, dir: t('dir.' + a.dir)}))
        s(g, 'circle', {cx, cy, r: 12})
        s(g, 'text', {x: cx, y: cy + 5}, ARROWS[a.dir])
      }
    }
    clear(this.host)
    this.host.append(svg)
    this.renderInfo(map)
  }

  /**
   * locate gives a square's centre in the SVG's coordinates (the rules
   * pages' diagrams put their marks and arrows there): a piece's group
   * also holds its overhang, whose box is off the square's centre.
   */
  locate(name) {
    const svg = this.host.querySelector('svg.skjuub')
    if (!svg || !parseSquare(name)) return null
    const {x, y} = xy(name)
    return {svg, x: x + U / 2, y: y + U / 2, r: U / 2}
  }

  renderInfo(map) {
    clear(this.info)
    const view = this.state.view
    for (const player of [1, 2]) {
      const pool = (view.pool || [])[player - 1] ?? 0
      const onBoard = [...map.values()].filter((p) => p.player === player).length
      const act = [...map.keys()].filter((sq) => map.get(sq).player === player && active(map, sq)).length
      this.info.append(h('div', {class: 'pool ' + (view.toMove === player && this.live() ? 'to-move' : ''), 'data-test': 'pool-' + player},
        h('span', {class: 'swatch side-' + player, 'aria-hidden': 'true'}),
        h('strong', {}, t('skjuub.player', {player})), this.owner(player - 1) ? ` · ${this.owner(player - 1)} · ` : ' ',
        t('skjuub.poolLine', {pool, board: onBoard, active: act})))
    }
    if (view.phase === 'bonus') this.info.append(h('p', {class: 'note'}, t('skjuub.bonusNote')))
  }

  describe() {
    const view = this.state.view
    const map = pieces(view)
    const lines = []
    for (const player of [1, 2]) {
      const list = [...map].filter(([, p]) => p.player === player)
        .map(([sq, p]) => `${sq} ${t('dir.' + p.dir)}${active(map, sq) ? '' : ' (' + t('skjuub.inactiveWord') + ')'}`)
      lines.push(t('skjuub.describe', {player, pieces: list.join(', ') || t('board.none'), pool: (view.pool || [])[player - 1] ?? 0}))
    }
    const turn = this.lastTurn()
    if (turn.length) lines.push(t('board.lastMove', {move: turn.map((m) => m.move).join(' ')}))
    return lines
  }
}

/** xy is the top-left corner of a square's drawing. */
function xy(sq) {
  const p = parseSquare(sq)
  return {x: PAD_L + p.col * U, y: PAD_T + (5 - p.row) * U}
}

const pts = (arr) => arr.map(([a, b]) => `${a.toFixed(1)},${b.toFixed(1)}`).join(' ')

/**
 * hatchPattern adds the board's hatching (diagonal stripes, the mark of
 * an inactive skjuub) to its SVG and returns the fill that uses it.
 */
function hatchPattern(svg) {
  const id = 'sk-hatch-' + ++patterns
  const defs = s(null, 'defs')
  svg.insertBefore(defs, svg.firstChild)
  const p = s(defs, 'pattern', {id, class: 'hatch-pattern', patternUnits: 'userSpaceOnUse', width: 9, height: 9, patternTransform: 'rotate(45)'})
  s(p, 'rect', {x: 0, y: 0, width: 3.6, height: 9, class: 'hatch-stripe'})
  return `url(#${id})`
}

/**
 * drawPiece draws a skjuub seen from above, standing on its square: the
 * overhang first, a pale dashed tongue out of the base's edge toward the
 * lean (up to the neighbour's base when that square holds a connected
 * piece, over the board's rim at the edge); then the base, a solid square
 * in the owner's colour that fills most of its own square; on it the top,
 * lighter and shifted a little toward the lean, so the darker band of the
 * base on the far side reads as the back face; hatching when inactive;
 * and an arrow toward the lean.
 */
function drawPiece(layer, sq, piece, isActive, hatch, map) {
  const {x, y} = xy(sq)
  const g = s(layer, 'g', {class: `piece sk-p${piece.player} ${isActive ? 'active' : 'inactive'}`, 'data-dir': piece.dir, 'data-sq': sq})
  // the square itself answers clicks around the base
  s(g, 'rect', {x: x + 1, y: y + 1, width: U - 2, height: U - 2, class: 'piece-hit'})
  const [dx, dy] = DIRS[piece.dir]
  const fx = dx
  const fy = -dy // screen y grows downward
  const x0 = x + M
  const y0 = y + M
  const x1 = x + U - M
  const y1 = y + U - M
  const next = neighbour(sq, piece.dir)
  const reach = next && map.has(next) ? 2 * M : OVER // a connected neighbour's base begins 2M away
  // the overhang: the strip of the top beyond the base's leaning edge
  const over = fx > 0 ? [[x1, y0], [x1 + reach, y0], [x1 + reach, y1], [x1, y1]]
    : fx < 0 ? [[x0 - reach, y0], [x0, y0], [x0, y1], [x0 - reach, y1]]
      : fy < 0 ? [[x0, y0 - reach], [x1, y0 - reach], [x1, y0], [x0, y0]]
        : [[x0, y1], [x1, y1], [x1, y1 + reach], [x0, y1 + reach]]
  s(g, 'polygon', {points: pts(over), class: 'overhang'})
  s(g, 'polygon', {points: pts([[x0, y0], [x1, y0], [x1, y1], [x0, y1]]), class: 'base'})
  // the top: inset from the base, more on the far side than toward the lean
  const inset = (side) => (side === 0 ? BEVEL * 0.5 : side > 0 ? BEVEL * 0.25 : BEVEL * 1.25)
  const tx0 = x0 + inset(-fx)
  const tx1 = x1 - inset(fx)
  const ty0 = y0 + inset(-fy)
  const ty1 = y1 - inset(fy)
  s(g, 'polygon', {points: pts([[tx0, ty0], [tx1, ty0], [tx1, ty1], [tx0, ty1]]), class: 'top'})
  if (!isActive) s(g, 'polygon', {points: pts([[x0, y0], [x1, y0], [x1, y1], [x0, y1]]), class: 'inactive-mark hatch', fill: hatch})
  // a bold arrow toward the lean, on the top
  const cx = (tx0 + tx1) / 2
  const cy = (ty0 + ty1) / 2
  const a = U * 0.21
  const w = U * 0.14
  const sw = U * 0.05
  const P = (f, p) => [cx + fx * f - fy * p, cy + fy * f + fx * p]
  s(g, 'polygon', {points: pts([P(a, 0), P(a * 0.1, w), P(a * 0.1, sw), P(-a, sw), P(-a, -sw), P(a * 0.1, -sw), P(a * 0.1, -w)]), class: 'arrow'})
  return g
}
