// The Sploof board: a top view of the pyramid. Higher balls are drawn
// larger, lighter and with a deeper shadow, with their level written on
// them; reds are red, pinned reds carry a pin, stocks and supplies are
// shown beside the board, and a winning line is drawn through its balls.
// Beside the pyramid (below it on a phone) every level is drawn on its
// own, so the balls a full pyramid hides can still be seen.

import {s, svgRoot, h, clear} from '../../dom.js'
import {t} from '../../i18n.js'
import {Board} from '../board.js'
import {board, points, pinned, lines, parseMove, parsePoint} from './model.js'

const U = 40 // half the distance between two holes
const TRAY = U * 1.2 // the tray reaches this far beyond the outer holes
const LABEL = 26 // the coordinates' band outside the tray
const PAD = TRAY + LABEL - 12 // top and right: the tray and a little air
const PAD_L = TRAY + LABEL // left: the tray and the ranks
const PAD_B = TRAY + LABEL // bottom: the tray and the files
const LV = 22 // a point of the level view
const COLOURS = {W: 'white', B: 'black', R: 'red'}

export class SploofBoard extends Board {
  reset() {}

  myColour() {
    const se = this.state.seats && this.state.seats[this.state.seat]
    if (se && (se.name === 'white' || se.name === 'black')) return se.name
    return this.state.seat === 0 ? 'white' : this.state.seat === 1 ? 'black' : null
  }

  legalSets() {
    const place = new Set()
    const remove = new Set()
    for (const m of this.state.legal || []) {
      const mv = parseMove(m)
      if (mv.kind === 'place') place.add(mv.point)
      else remove.add(mv.point)
    }
    return {place, remove}
  }

  hit(key) {
    if (!this.myTurn) {
      this.warn(this.notYourTurn())
      return
    }
    const view = this.state.view
    const cells = board(view)
    const {place, remove} = this.legalSets()
    const p = parsePoint(key)
    if (!p) return
    const ball = cells[p.h][p.r][p.c]
    const me = this.myColour()
    if (!ball) {
      if (place.has(key)) this.play(key)
      else if (!(view.stock || {})[me]) this.warn(t('sploof.stockEmpty'))
      else this.warn(t('sploof.unsupported', {point: key}))
      return
    }
    if (ball !== 'R') {
      this.warn(t('sploof.onlyReds'))
      return
    }
    if (remove.has(key)) {
      this.play('*' + key)
      return
    }
    if (pinned(cells, p.r, p.c)) this.warn(t('sploof.pinned', {point: key}))
    else if ((view.supply || {})[me] < 2) this.warn(t('sploof.supplyEmpty'))
    else this.warn(t('board.notLegal', {move: '*' + key}))
  }

  guide() {
    const view = this.state.view
    if (!this.myTurn) {
      if (this.state.status && this.state.status !== 'live') return {text: ''}
      return {text: t('sploof.toMove', {colour: t('colour.' + view.toMove)})}
    }
    const {place, remove} = this.legalSets()
    // the analysis board (study): the user plays every side
    let text = t(this.props.study ? 'sploof.turnFor' : 'sploof.yourTurn', {colour: t('colour.' + view.toMove)})
    if (!place.size && remove.size) text = t('sploof.onlyRemove')
    else if (place.size && !remove.size) text = t('sploof.onlyPlace')
    return {text, buttons: []}
  }

  render() {
    const view = this.state.view
    const cells = board(view)
    const pts = points(cells)
    const {place, remove} = this.myTurn ? this.legalSets() : {place: new Set(), remove: new Set()}
    const win = lines(cells)
    const last = this.lastMarks()
    const {svg, layers} = svgRoot(`0 0 ${PAD_L + 6 * U + PAD} ${PAD + 6 * U + PAD_B}`, ['tray', 'balls', 'marks', 'lines', 'targets'],
      {class: 'sploof', role: 'group', 'aria-label': t('sploof.boardLabel')})
    const defs = s(svg, 'defs')
    svg.prepend(defs)
    ballGradient(defs, 'W', '#ffffff', '#cfc9bb')
    ballGradient(defs, 'B', '#6a6a72', '#0e0e12')
    ballGradient(defs, 'R', '#ff8a80', '#a31515')
    const filter = s(defs, 'filter', {id: 'sp-shadow', x: '-30%', y: '-30%', width: '160%', height: '160%'})
    s(filter, 'feDropShadow', {dx: 0, dy: 3, stdDeviation: 3, 'flood-opacity': 0.45})

    const xy = topXY
    s(layers.tray, 'rect', {x: PAD_L - TRAY, y: PAD - TRAY, width: 6 * U + 2 * TRAY, height: 6 * U + 2 * TRAY, rx: 18, class: 'tray'})
    // the coordinates in a band of their own outside the tray's frame
    for (let i = 0; i < 7; i++) {
      s(layers.tray, 'text', {x: PAD_L + i * U, y: PAD + 6 * U + TRAY + LABEL - 6, class: 'coord file' + (i % 2 ? ' odd' : '')}, String.fromCharCode(97 + i))
      s(layers.tray, 'text', {x: (PAD_L - TRAY) / 2, y: PAD + (6 - i) * U + 5, class: 'coord rank' + (i % 2 ? ' odd' : '')}, String(i + 1))
    }
    for (const p of pts) {
      if (p.h !== 1) continue
      const {x, y} = xy(p)
      s(layers.tray, 'circle', {cx: x, cy: y, r: U * 0.55, class: 'hole'})
    }
    for (const p of pts) {
      const {x, y} = xy(p)
      if (!p.ball) continue
      const r = U * (0.94 + 0.05 * (p.h - 1))
      const g = s(layers.balls, 'g', {class: `ball ${COLOURS[p.ball]} level-${p.h}`})
      const label = t('sploof.ballLabel', {point: p.name, colour: t('colour.' + COLOURS[p.ball]), level: p.h})
      this.hitTarget(g, p.name, label, remove.has(p.name))
      const c = s(g, 'circle', {cx: x, cy: y, r, fill: `url(#sp-${p.ball})`, filter: p.h > 1 ? 'url(#sp-shadow)' : null})
      if (p.h > 1) {
        s(g, 'circle', {cx: x, cy: y, r: r * 0.98, class: 'level-ring'})
        s(g, 'text', {x, y: y + 5, class: 'level-num'}, String(p.h))
      }
      if (this.state.fresh && last.placed === p.name) c.classList.add('pop')
      // marks belong to their ball, so that a ball above covers them too
      if (p.ball === 'R' && pinned(cells, p.r, p.c)) {
        s(g, 'path', {d: pinPath(x, y), class: 'pin', 'pointer-events': 'none'})
      }
      if (remove.has(p.name)) s(g, 'circle', {cx: x, cy: y, r: r - 4, class: 'removable', 'pointer-events': 'none'})
      if (last.placed === p.name) s(g, 'circle', {cx: x, cy: y, r: r * 0.35, class: 'last-move', 'pointer-events': 'none'})
    }
    if (last.removed) {
      const p = parsePoint(last.removed)
      if (p) {
        const {x, y} = xy(p)
        s(layers.marks, 'circle', {cx: x, cy: y, r: U * 0.7, class: 'last-removed', 'pointer-events': 'none'})
      }
    }
    for (const line of win) {
      const ps = line.points.map((n) => xy(parsePoint(n)))
      s(layers.lines, 'polyline', {points: ps.map((p) => `${p.x},${p.y}`).join(' '), class: 'win-line ' + COLOURS[line.colour]})
    }
    for (const name of place) {
      const p = parsePoint(name)
      const {x, y} = xy(p)
      const g = s(layers.targets, 'g', {class: 'target'})
      this.hitTarget(g, name, t('sploof.placeLabel', {point: name, level: p.h}))
      s(g, 'circle', {cx: x, cy: y, r: U * 0.5, class: 'place-target'})
      s(g, 'text', {x, y: y + 4, class: 'target-num'}, String(p.h))
    }
    clear(this.host)
    const views = h('div', {class: 'sploof-views'}, svg)
    if (this.props.levels) views.append(this.levelView(cells)) // the game and replay pages; not the rules' diagrams
    this.host.append(views)
    this.renderInfo(win)
  }

  /**
   * locate places a point ("2d4") or a top-view square ("d3") in the SVG's
   * coordinates, drawn or not (diagrams mark empty points and the contact
   * between two holes).
   */
  locate(name) {
    const svg = this.host.querySelector('svg.sploof')
    const p = parsePoint(name) || (/^[a-g][1-7]$/.test(name) ? {x: name.charCodeAt(0) - 97, y: Number(name[1]) - 1, h: 1} : null)
    if (!svg || !p) return null
    return {svg, ...topXY(p), r: U * 0.9}
  }

  /**
   * levelView draws each level of the pyramid flat, level 1 (16 points)
   * to level 4 (1 point): in a column beside the pyramid, or in a row
   * below it on a narrow screen.
   */
  levelView(cells) {
    const row = window.matchMedia && window.matchMedia('(max-width: 800px)').matches
    if (!this.onNarrow && window.matchMedia) {
      // the layout switches with the window's width: draw again when it does
      this.narrow = window.matchMedia('(max-width: 800px)')
      this.onNarrow = () => this.redraw()
      this.narrow.addEventListener('change', this.onNarrow)
    }
    const GAP = LV * 0.9
    const boxes = [1, 2, 3, 4].map((hgt) => (5 - hgt) * LV)
    const W = row ? boxes.reduce((a, b) => a + b, 0) + GAP * 5 : boxes[0] + 2 * GAP
    const H = row ? boxes[0] + 2 * GAP + 14 : boxes.reduce((a, b) => a + b, 0) + GAP * 5 + 14 * 4
    const {svg, layers} = svgRoot(`0 0 ${W} ${H}`, ['levels'], {class: 'sploof-levels ' + (row ? 'row' : 'column'),
      role: 'img', 'aria-label': t('sploof.levelsLabel')})
    let x = GAP
    let y = GAP
    for (let hgt = 1; hgt <= 4; hgt++) {
      const n = 5 - hgt
      const size = n * LV
      const ox = row ? x : (W - size) / 2
      const oy = y + 14
      s(layers.levels, 'text', {x: ox + size / 2, y: oy - 4, class: 'lv-label'}, t('sploof.level', {n: hgt}))
      s(layers.levels, 'rect', {x: ox, y: oy, width: size, height: size, rx: 6, class: 'lv-tray'})
      for (let r = 0; r < n; r++) {
        for (let c = 0; c < n; c++) {
          const ball = cells[hgt][r][c]
          const cx = ox + c * LV + LV / 2
          const cy = oy + (n - 1 - r) * LV + LV / 2
          if (!ball) {
            s(layers.levels, 'circle', {cx, cy, r: LV * 0.18, class: 'lv-hole'})
            continue
          }
          const g = s(layers.levels, 'g', {class: 'lv-ball ' + COLOURS[ball], 'data-level': hgt})
          s(g, 'circle', {cx, cy, r: LV * 0.42, fill: `url(#sp-${ball})`})
          if (hgt === 1 && ball === 'R' && pinned(cells, r, c)) s(g, 'circle', {cx, cy, r: LV * 0.14, class: 'lv-pin'})
        }
      }
      if (row) x += size + GAP
      else y += size + GAP + 14
    }
    return svg
  }

  destroy() {
    if (this.narrow) this.narrow.removeEventListener('change', this.onNarrow)
    super.destroy()
  }

  lastMarks() {
    const turn = this.lastTurn()
    const last = turn[turn.length - 1]
    if (!last) return {}
    const mv = parseMove(last.move)
    return mv.kind === 'place' ? {placed: mv.point, text: last.move} : {removed: mv.point, text: last.move}
  }

  renderInfo(win) {
    clear(this.info)
    const view = this.state.view
    for (const colour of ['white', 'black']) {
      const stock = (view.stock || {})[colour] || 0
      const supply = (view.supply || {})[colour] || 0
      const seat = colour === 'white' ? 0 : 1
      const balls = h('span', {class: 'stock-balls', 'aria-hidden': 'true'})
      for (let i = 0; i < stock; i++) balls.append(h('span', {class: 'mini-ball ' + colour}))
      this.info.append(h('div', {class: 'stock ' + (view.toMove === colour && this.live() ? 'to-move' : ''), 'data-test': 'stock-' + colour},
        h('strong', {}, t('colour.' + colour)), this.owner(seat) ? ` · ${this.owner(seat)} · ` : ' ',
        balls, ' ', t('sploof.stockSupply', {stock, supply})))
    }
    if (win.length) {
      this.info.append(h('p', {class: 'note'}, t('sploof.lineOf', {colour: t('colour.' + COLOURS[win[0].colour])})))
    }
  }

  describe() {
    const view = this.state.view
    const pts = points(board(view)).filter((p) => p.ball)
    const lines_ = []
    for (const ch of ['W', 'B', 'R']) {
      const list = pts.filter((p) => p.ball === ch).map((p) => p.name)
      lines_.push(t('sploof.describe', {colour: t('colour.' + COLOURS[ch]), points: list.join(', ') || t('board.none')}))
    }
    lines_.push(t('sploof.describeStock', {ws: view.stock?.white ?? 0, wp: view.supply?.white ?? 0, bs: view.stock?.black ?? 0, bp: view.supply?.black ?? 0}))
    const last = this.lastMarks()
    if (last.text) lines_.push(t('board.lastMove', {move: last.text}))
    return lines_
  }
}

/** topXY is where top-view square (p.x, p.y) is drawn. */
function topXY(p) {
  return {x: PAD_L + p.x * U, y: PAD + (6 - p.y) * U}
}

function ballGradient(defs, id, light, dark) {
  const g = s(defs, 'radialGradient', {id: 'sp-' + id, cx: '35%', cy: '30%', r: '75%'})
  s(g, 'stop', {offset: '0%', 'stop-color': light})
  s(g, 'stop', {offset: '100%', 'stop-color': dark})
}

/** pinPath is a push-pin drawn on a pinned red. */
function pinPath(x, y) {
  return `M${x - 9},${y - 12} h18 l-4,8 v6 h-10 v-6 z M${x - 1.5},${y + 2} h3 v12 h-3 z`
}
