// The Skjuub board: each skewed cube drawn from above as its base square
// with its top pushed toward the overhang direction (the four leaning edges
// joining them) and an arrow on the top, inactive pieces greyed and
// hatched, the pools beside the board. Selecting a piece shows its slides
// (dots) and tumbles (diamonds); a bonus action is guided step by step.

import {s, svgRoot, h, clear} from '../../dom.js'
import {t} from '../../i18n.js'
import {Board, animateFrom} from '../board.js'
import {DIRS, square, parseSquare, pieces, active, parseAction} from './model.js'

const U = 64
const PAD = 30
const LEAN = 0.4 // how far the top is pushed over the next square, in squares
const ARROWS = {N: '↑', E: '→', S: '↓', W: '←'}

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
    let text = bonus ? t('skjuub.bonus', {sq: view.sacrificed || ''}) : t('skjuub.yourTurn')
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
    const size = 6 * U + 2 * PAD
    const {svg, layers} = svgRoot(`0 0 ${size} ${size}`, ['squares', 'marks', 'pieces', 'targets'],
      {class: 'skjuub', role: 'group', 'aria-label': t('skjuub.boardLabel')})
    const defs = s(svg, 'defs')
    svg.prepend(defs)
    const pat = s(defs, 'pattern', {id: 'sk-hatch', width: 8, height: 8, patternUnits: 'userSpaceOnUse', patternTransform: 'rotate(45)'})
    s(pat, 'rect', {width: 3, height: 8, fill: 'rgba(0,0,0,0.28)'})
    const xy = (sq) => {
      const p = parseSquare(sq)
      return {x: PAD + p.col * U, y: PAD + (5 - p.row) * U}
    }
    const sel = this.sel
    const acts = sel && sel.kind === 'piece' ? this.from(sel.sq) : []
    const slideTo = new Set(acts.filter(({a}) => a.kind === 'slide').map(({a}) => a.to))
    const tumbleTo = new Set(acts.filter(({a}) => a.kind === 'tumble').map(({a}) => a.to))
    const placeable = new Set(this.myTurn ? this.actions_().filter(({a}) => a.kind === 'place').map(({a}) => a.sq) : [])
    const movable = new Set(this.myTurn ? this.actions_().filter(({a}) => a.from || a.kind === 'pickup' || a.kind === 'turn').map(({a}) => a.from || a.sq) : [])

    for (let r = 0; r < 6; r++) {
      for (let c = 0; c < 6; c++) {
        const sq = square(c, r)
        const {x, y} = xy(sq)
        const g = s(layers.squares, 'g', {class: 'square'})
        s(g, 'rect', {x, y, width: U, height: U, class: 'sq ' + ((r + c) % 2 ? 'light' : 'dark') + (sel && sel.sq === sq ? ' selected' : '')})
        const piece = map.get(sq)
        const label = piece ? t('skjuub.pieceLabel', {sq, player: piece.player, dir: t('dir.' + piece.dir),
          state: active(map, sq) ? t('skjuub.active') : t('skjuub.inactiveWord')}) : t('skjuub.emptyLabel', {sq})
        const target = slideTo.has(sq) || tumbleTo.has(sq) || (!sel && (placeable.has(sq) || movable.has(sq))) ||
          (sel && sel.kind === 'piece' && movable.has(sq))
        this.hitTarget(g, sq, label, !!target)
        if (!piece) s(g, 'text', {x: x + 5, y: y + U - 5, class: 'coord'}, sq)
      }
    }
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
    // A top reaching over a neighbour is drawn after it (it is above that neighbour's back face).
    const order = [...map].sort(([a, pa], [b, pb]) => depth(b, pb) - depth(a, pa))
    for (const [sq, piece] of order) {
      const g = drawPiece(layers.pieces, xy(sq), piece, active(map, sq))
      if (view.sacrificed === sq) s(g, 'text', {x: xy(sq).x + U - 12, y: xy(sq).y + 16, class: 'sacrificed'}, '★')
      if (glide && glide.sq === sq) animateFrom(g, glide.dx, glide.dy)
      else if (fresh && turn.length && parseAction(turn[turn.length - 1].move)?.sq === sq) g.classList.add('pop')
    }
    for (const sq of slideTo) {
      const {x, y} = xy(sq)
      s(layers.targets, 'circle', {cx: x + U / 2, cy: y + U / 2, r: 9, class: 'slide-target', 'pointer-events': 'none'})
    }
    for (const sq of tumbleTo) {
      const {x, y} = xy(sq)
      const cx = x + U / 2
      const cy = y + U / 2
      s(layers.targets, 'path', {d: `M${cx},${cy - 14} L${cx + 14},${cy} L${cx},${cy + 14} L${cx - 14},${cy} Z`, class: 'tumble-target', 'pointer-events': 'none'})
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
        h('span', {class: 'swatch sk-p' + player, 'aria-hidden': 'true'}),
        h('strong', {}, t('skjuub.player', {player})), ' (', this.seatLabel(player - 1), ') ',
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

/** depth is how far a piece stands toward its lean: those further ahead are drawn first. */
function depth(sq, piece) {
  const p = parseSquare(sq)
  const [dx, dy] = DIRS[piece.dir]
  return p.col * dx + p.row * dy
}

/** drawPiece draws a skjuub from above: base, leaning edges, shifted top with an arrow. */
function drawPiece(layer, {x, y}, piece, isActive) {
  const [dx, dy] = DIRS[piece.dir]
  const ox = dx * U * LEAN
  const oy = -dy * U * LEAN
  const m = U * 0.14
  const g = s(layer, 'g', {class: `piece sk-p${piece.player} ${isActive ? 'active' : 'inactive'}`, 'pointer-events': 'none'})
  const base = [[x + m, y + m], [x + U - m, y + m], [x + U - m, y + U - m], [x + m, y + U - m]]
  const top = base.map(([px, py]) => [px + ox, py + oy])
  const pts = (arr) => arr.map(([a, b]) => `${a.toFixed(1)},${b.toFixed(1)}`).join(' ')
  s(g, 'polygon', {points: pts(base), class: 'base'})
  // the two faces seen between base and top: the lateral rhombi and the back face
  for (let i = 0; i < 4; i++) {
    const j = (i + 1) % 4
    s(g, 'polygon', {points: pts([base[i], base[j], top[j], top[i]]), class: 'side'})
  }
  s(g, 'polygon', {points: pts(top), class: 'top'})
  if (!isActive) s(g, 'polygon', {points: pts(top), fill: 'url(#sk-hatch)', class: 'hatch'})
  // the part of the top that sticks out over the next square: the overhang
  const over = dx ? [[dx > 0 ? x + U - m : x + m, top[0][1]], [dx > 0 ? x + U - m + ox : x + m + ox, top[0][1]],
    [dx > 0 ? x + U - m + ox : x + m + ox, top[2][1]], [dx > 0 ? x + U - m : x + m, top[2][1]]] :
    [[top[0][0], dy > 0 ? y + m : y + U - m], [top[1][0], dy > 0 ? y + m : y + U - m],
      [top[1][0], dy > 0 ? y + m + oy : y + U - m + oy], [top[0][0], dy > 0 ? y + m + oy : y + U - m + oy]]
  s(g, 'polygon', {points: pts(over), class: 'overhang'})
  // a bold arrow toward the overhang
  const cx = x + U / 2 + ox
  const cy = y + U / 2 + oy
  const fx = dx
  const fy = -dy
  const px = -fy
  const py = fx
  const a = U * 0.24
  const w = U * 0.16
  const sw = U * 0.06
  const P = (f, p) => [cx + fx * f + px * p, cy + fy * f + py * p]
  s(g, 'polygon', {points: pts([P(a, 0), P(a * 0.1, w), P(a * 0.1, sw), P(-a, sw), P(-a, -sw), P(a * 0.1, -sw), P(a * 0.1, -w)]), class: 'arrow'})
  return g
}
