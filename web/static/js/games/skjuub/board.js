// The Skjuub board: each skewed cube drawn as one solid in its owner's
// colours, seen from above and a little south-east: its top pushed toward
// the lean and lifted, the faces that face the viewer, an arrow toward the
// lean, and the shadow of its overhang on the board. An inactive piece
// keeps its colours and carries a pause mark. Overhangs past the edge stay
// in the board's margin, with the coordinates beyond them. Selecting a
// piece shows its slides (dots) and tumbles (diamonds, with the piece as it
// would land); a bonus action is guided step by step.

import {s, svgRoot, h, clear} from '../../dom.js'
import {t} from '../../i18n.js'
import {Board, animateFrom} from '../board.js'
import {DIRS, square, parseSquare, pieces, active, parseAction} from './model.js'

const U = 64 // a square
const M = U * 0.1 // a piece's base stands this far inside its square
const SIDE = U - 2 * M // a piece's edge
const LEAN = 0.4 // how far the top is pushed toward the lean, in edges: its overhang reaches into the next square
const LIFT_X = SIDE * 0.16 // the top's height drawn up the screen and a little to the east
const LIFT_Y = SIDE * 0.26
// The margins hold every overhang past the board's edge, then the coordinates.
const PAD_L = 40
const PAD_T = 46
const PAD_R = 40
const PAD_B = 38
const ARROWS = {N: '↑', E: '→', S: '↓', W: '←'}
const OPPOSITE = {N: 'S', S: 'N', E: 'W', W: 'E'}

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
    const {svg, layers} = svgRoot(`0 0 ${W} ${H}`, ['squares', 'marks', 'shadows', 'pieces', 'previews', 'targets'],
      {class: 'skjuub', role: 'group', 'aria-label': t('skjuub.boardLabel')})
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

    // the squares, and the coordinates in the margin, clear of any overhang
    s(layers.squares, 'rect', {x: PAD_L - 2, y: PAD_T - 2, width: 6 * U + 4, height: 6 * U + 4, rx: 3, class: 'frame'})
    for (let i = 0; i < 6; i++) {
      s(layers.squares, 'text', {x: PAD_L + i * U + U / 2, y: PAD_T + 6 * U + PAD_B - 8, class: 'coord file'}, String.fromCharCode(97 + i))
      s(layers.squares, 'text', {x: 11, y: PAD_T + (5 - i) * U + U / 2 + 4, class: 'coord rank'}, String(i + 1))
    }
    for (let r = 0; r < 6; r++) {
      for (let c = 0; c < 6; c++) {
        const sq = square(c, r)
        const {x, y} = xy(sq)
        const g = s(layers.squares, 'g', {class: 'square'})
        s(g, 'rect', {x, y, width: U, height: U, class: 'sq ' + ((r + c) % 2 ? 'light' : 'dark') + (sel && sel.sq === sq ? ' selected' : '')})
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
    // Pieces from the back (north, then west) to the front: the viewer
    // stands south-east, above the board.
    const order = [...map].sort(([a], [b]) => parseSquare(b).row - parseSquare(a).row || parseSquare(a).col - parseSquare(b).col)
    for (const [sq, piece] of order) {
      const isActive = active(map, sq)
      shadow(layers.shadows, xy(sq), piece.dir)
      const g = drawPiece(layers.pieces, xy(sq), piece, isActive)
      this.hitTarget(g, sq, label(sq), !sel ? movable.has(sq) : sel.kind === 'piece' && movable.has(sq))
      if (view.sacrificed === sq) {
        const c = topCentre(xy(sq), piece.dir)
        s(g, 'text', {x: c.x + U * 0.22, y: c.y - U * 0.12, class: 'sacrificed'}, '★')
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
      const g = drawPiece(layers.previews, xy(a.to), {player: piece.player, dir}, true)
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

  renderInfo(map) {
    clear(this.info)
    const view = this.state.view
    for (const player of [1, 2]) {
      const pool = (view.pool || [])[player - 1] ?? 0
      const onBoard = [...map.values()].filter((p) => p.player === player).length
      const act = [...map.keys()].filter((sq) => map.get(sq).player === player && active(map, sq)).length
      this.info.append(h('div', {class: 'pool ' + (view.toMove === player && this.live() ? 'to-move' : ''), 'data-test': 'pool-' + player},
        h('span', {class: 'swatch side-' + player, 'aria-hidden': 'true'}),
        h('strong', {}, t('skjuub.player', {player})), this.owner(player - 1) ? ` (${this.owner(player - 1)}) ` : ' ',
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

/**
 * corners gives a piece's eight corners on the screen: the base (NW, NE,
 * SE, SW) on its square and the top, the same square pushed by the lean
 * and lifted (a cabinet projection: up the screen and a little to the east).
 */
function corners({x, y}, dir) {
  const [dx, dy] = DIRS[dir]
  const lx = dx * SIDE * LEAN
  const ly = -dy * SIDE * LEAN
  const base = [[x + M, y + M], [x + U - M, y + M], [x + U - M, y + U - M], [x + M, y + U - M]]
  const top = base.map(([px, py]) => [px + lx + LIFT_X, py + ly - LIFT_Y])
  return {base, top, lx, ly}
}

function topCentre(at, dir) {
  const {top} = corners(at, dir)
  return {x: (top[0][0] + top[2][0]) / 2, y: (top[0][1] + top[2][1]) / 2}
}

const pts = (arr) => arr.map(([a, b]) => `${a.toFixed(1)},${b.toFixed(1)}`).join(' ')

/** shadow marks on the board what a piece's top covers: its square and the overhung part of the next. */
function shadow(layer, at, dir) {
  const {base, lx, ly} = corners(at, dir)
  s(layer, 'polygon', {points: pts(base.map(([px, py]) => [px + lx, py + ly])), class: 'shadow'})
}

/**
 * drawPiece draws a skjuub as one leaning cube in its owner's colours: the
 * faces that look toward the viewer (south, east, and whichever the lean
 * tilts up), the top with an arrow toward the lean, and for an inactive
 * piece a pause mark on the top (its colours stay).
 */
function drawPiece(layer, at, piece, isActive) {
  const {base: B, top: T} = corners(at, piece.dir)
  const g = s(layer, 'g', {class: `piece sk-p${piece.player} ${isActive ? 'active' : 'inactive'}`, 'data-dir': piece.dir})
  // the square itself answers clicks where no face is drawn
  s(g, 'rect', {x: at.x + 1, y: at.y + 1, width: U - 2, height: U - 2, class: 'piece-hit'})
  // outward faces, each listed clockwise as seen from outside: drawn when
  // it stays clockwise on the screen, that is when it faces the viewer
  const faces = [['face-n', [T[1], T[0], B[0], B[1]]], ['face-e', [T[1], T[2], B[2], B[1]]],
    ['face-s', [T[3], T[2], B[2], B[3]]], ['face-w', [T[3], T[0], B[0], B[3]]]]
  for (const [cls, poly] of faces) {
    if (area2(poly) > 1) s(g, 'polygon', {points: pts(poly), class: 'face ' + cls})
  }
  s(g, 'polygon', {points: pts(T), class: 'face face-top'})
  // a bold arrow toward the lean
  const [dx, dy] = DIRS[piece.dir]
  const cx = (T[0][0] + T[2][0]) / 2
  const cy = (T[0][1] + T[2][1]) / 2
  const fx = dx
  const fy = -dy
  const a = U * 0.22
  const w = U * 0.15
  const sw = U * 0.055
  const P = (f, p) => [cx + fx * f - fy * p, cy + fy * f + fx * p]
  s(g, 'polygon', {points: pts([P(a, 0), P(a * 0.1, w), P(a * 0.1, sw), P(-a, sw), P(-a, -sw), P(a * 0.1, -sw), P(a * 0.1, -w)]), class: 'arrow'})
  if (!isActive) {
    // a pause mark in the top's corner away from the lean
    const mx = cx - (fx || 1) * U * 0.2 - (fx ? 0 : U * 0.02)
    const my = cy - (fy || -1) * U * 0.2
    const mark = s(g, 'g', {class: 'inactive-mark'})
    s(mark, 'circle', {cx: mx, cy: my, r: U * 0.13})
    s(mark, 'rect', {x: mx - U * 0.055, y: my - U * 0.065, width: U * 0.035, height: U * 0.13})
    s(mark, 'rect', {x: mx + U * 0.02, y: my - U * 0.065, width: U * 0.035, height: U * 0.13})
  }
  return g
}

/** area2 is twice the signed area of a polygon on the screen (y down): positive when clockwise. */
function area2(poly) {
  let a = 0
  for (let i = 0; i < poly.length; i++) {
    const [x1, y1] = poly[i]
    const [x2, y2] = poly[(i + 1) % poly.length]
    a += x1 * y2 - x2 * y1
  }
  return a
}
