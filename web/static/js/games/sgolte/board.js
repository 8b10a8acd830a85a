// The Sgolte board: pointy-topped hexhex cells with their names, stones,
// the last move (placed stone ringed, flipped stones dotted), the group
// sizes of both sides, and the guided choice of flips when a placement has
// several legal flip sets.

import {s, svgRoot, h, clear} from '../../dom.js'
import {t} from '../../i18n.js'
import {Board} from '../board.js'
import {geometry, parseMove, stones, groups, colourOf, compareGroups} from './model.js'

const R = 30 // hex circumradius in SVG units
const PAD = 14 // the row letters stand in it beside the widest row
// The edge labels: row letters left and right of every row, in the
// padding beside the widest row (no wider, so that a phone's board keeps
// its cells MIN_CELL wide without scrolling), and the cells' numbers in a
// band under the bottom row and over the top one (a cell's number counts
// from the left end of its row, where its letter stands).
const EDGE_Y = 16
const MIN_CELL = 37.2 // px: the narrowest cell spacing (a finger's width; its hex, drawn at 0.97, is 36 px), with which a size 5 board fits a 390 px phone unscrolled, edge labels and all

export class SgolteBoard extends Board {
  reset() {
    this.sel = null // {cell, options: [[flips…]…]}
    this.chosen = []
  }

  cancel() {
    if (!this.sel) return false
    this.reset()
    return true
  }

  geo() {
    const size = Number(this.state.view.size) || 5
    if (!this.geom || this.geom.size !== size) this.geom = geometry(size)
    return this.geom
  }

  /** options groups the legal placements by cell: cell → list of flip sets. */
  options() {
    const byCell = new Map()
    for (const m of this.state.legal || []) {
      const mv = parseMove(m)
      if (!mv || mv.kind !== 'place') continue
      if (!byCell.has(mv.cell)) byCell.set(mv.cell, [])
      byCell.get(mv.cell).push(mv.flips)
    }
    return byCell
  }

  /** remaining: the flip sets still possible with the stones chosen so far. */
  remaining() {
    if (!this.sel) return []
    return this.sel.options.filter((o) => this.chosen.every((c) => o.includes(c)))
  }

  candidates() {
    const set = new Set()
    for (const o of this.remaining()) for (const c of o) if (!this.chosen.includes(c)) set.add(c)
    return set
  }

  moveText(cell, flips) {
    if (!flips.length) return cell
    const sorted = [...flips].sort((a, b) => a.charCodeAt(0) - b.charCodeAt(0) || parseInt(a.slice(1)) - parseInt(b.slice(1)))
    return `${cell}(${sorted.join(',')})`
  }

  hit(key) {
    const view = this.state.view
    const geo = this.geo()
    const st = stones(view)
    if (!this.myTurn) {
      this.warn(this.notYourTurn())
      return
    }
    const opts = this.options()
    if (this.sel && st.has(key)) {
      const cand = this.candidates()
      if (!cand.has(key)) {
        this.warn(t('sgolte.notCandidate', {cell: key}))
        return
      }
      this.chosen.push(key)
      const rem = this.remaining()
      const exact = rem.find((o) => o.length === this.chosen.length)
      if (rem.length === 1) this.play(this.moveText(this.sel.cell, rem[0]))
      else if (exact && this.candidates().size === 0) this.play(this.moveText(this.sel.cell, exact))
      return
    }
    if (st.has(key)) {
      this.warn(t('sgolte.occupied', {cell: key}))
      return
    }
    if (!geo.byName.has(key)) return
    const o = opts.get(key)
    if (!o) {
      if (this.state.legal.includes('pass')) this.warn(t('sgolte.mustPass'))
      else this.warn(t('sgolte.noSplit', {cell: key}))
      return
    }
    if (o.length === 1) {
      this.play(this.moveText(key, o[0]))
      return
    }
    this.sel = {cell: key, options: o}
    this.chosen = []
  }

  guide() {
    const view = this.state.view
    const buttons = []
    if (!this.myTurn) return {text: this.statusText(), buttons}
    const legal = this.state.legal
    if (this.sel) {
      const rem = this.remaining()
      const exact = rem.find((o) => o.length === this.chosen.length)
      let text = this.chosen.length ? t('sgolte.flipMore') : t('sgolte.chooseFlips', {cell: this.sel.cell, n: rem.length})
      if (exact) {
        text = t('sgolte.mayStop')
        buttons.push({label: t('sgolte.stopHere', {move: this.moveText(this.sel.cell, exact)}), primary: true,
          move: this.moveText(this.sel.cell, exact), run: () => this.play(this.moveText(this.sel.cell, exact))})
      }
      for (const o of rem) {
        const mv = this.moveText(this.sel.cell, o)
        if (exact && o === exact) continue
        buttons.push({label: mv, move: mv, run: () => this.play(mv)})
      }
      buttons.push({label: t('board.cancel'), run: () => {
        this.reset()
        this.redraw()
      }})
      return {text, buttons}
    }
    // the analysis board (study): the user plays every side
    let text = t(this.props.study ? 'sgolte.turnFor' : 'sgolte.yourTurn', {colour: t('colour.' + view.toMove)})
    if (legal.includes('swap')) {
      text = t('sgolte.pieOffer')
      buttons.push({label: t('sgolte.swap'), move: 'swap', run: () => this.play('swap')})
    }
    if (legal.includes('pass')) {
      text = t('sgolte.forcedPass')
      buttons.push({label: t('sgolte.pass'), move: 'pass', primary: true, run: () => this.play('pass')})
    }
    return {text, buttons}
  }

  statusText() {
    const view = this.state.view
    if (this.state.status && this.state.status !== 'live') return ''
    return t('sgolte.toMove', {colour: t('colour.' + view.toMove)})
  }

  render() {
    const view = this.state.view
    const geo = this.geo()
    const st = stones(view)
    const W = geo.width * R + 2 * PAD
    const H = geo.height * R + 2 * (PAD + EDGE_Y)
    const {svg, layers} = svgRoot(`0 0 ${W.toFixed(1)} ${H.toFixed(1)}`, ['cells', 'marks', 'stones', 'top'],
      {class: 'sgolte', role: 'group', 'aria-label': t('sgolte.boardLabel')})
    const defs = s(svg, 'defs')
    gradient(defs, 'sg-black', '#6b6b6b', '#111')
    gradient(defs, 'sg-white', '#ffffff', '#c9c6bd')
    svg.prepend(defs)

    const pos = (c) => ({x: PAD + (c.x + Math.sqrt(3) / 2) * R, y: PAD + EDGE_Y + (c.y + 1) * R})
    const opts = this.myTurn ? this.options() : new Map()
    const cand = this.candidates()
    const last = this.lastMarks()
    const mine = colourOf(view, this.state.seat)

    for (const c of geo.cells) {
      const p = pos(c)
      const g = s(layers.cells, 'g', {class: 'cell'})
      const pts = []
      for (let i = 0; i < 6; i++) {
        const a = Math.PI / 180 * (60 * i - 90)
        pts.push(`${(p.x + R * 0.97 * Math.cos(a)).toFixed(1)},${(p.y + R * 0.97 * Math.sin(a)).toFixed(1)}`)
      }
      const colour = st.get(c.name)
      const legalHere = !colour && opts.has(c.name)
      s(g, 'polygon', {points: pts.join(' '), class: 'hex' + (legalHere ? ' legal' : '') +
        (this.sel && this.sel.cell === c.name ? ' selected' : '')})
      if (!colour) s(g, 'text', {x: p.x, y: p.y - 3, class: 'coord'}, c.name)
      const label = colour ? t('sgolte.stoneLabel', {cell: c.name, colour: t('colour.' + colour)}) :
        t('sgolte.emptyLabel', {cell: c.name})
      // while flips are being chosen, only the stones that may be flipped are targets
      this.hitTarget(g, c.name, label, this.sel ? cand.has(c.name) : legalHere)
      if (legalHere && !this.sel) s(layers.marks, 'circle', {cx: p.x, cy: p.y + 10, r: 4, class: 'legal-dot'})
    }
    this.edgeLabels(layers.cells, geo, pos)
    if (this.sel) {
      const p = pos(geo.byName.get(this.sel.cell))
      s(layers.stones, 'circle', {cx: p.x, cy: p.y, r: R * 0.78, class: 'stone ghost', fill: `url(#sg-${mine})`})
    }
    for (const [cell, colour] of st) {
      const c = geo.byName.get(cell)
      if (!c) continue
      const p = pos(c)
      const shown = this.chosen.includes(cell) ? mine : colour
      const stone = s(layers.stones, 'circle', {cx: p.x, cy: p.y, r: R * 0.78, class: `stone ${shown}` +
        (this.chosen.includes(cell) ? ' chosen' : ''), fill: `url(#sg-${shown})`, 'pointer-events': 'none'})
      if (this.state.fresh && last.placed === cell) stone.classList.add('pop')
      if (this.state.fresh && last.flipped.has(cell)) stone.classList.add('flip')
      if (cand.has(cell)) s(layers.top, 'circle', {cx: p.x, cy: p.y, r: R * 0.86, class: 'candidate', 'pointer-events': 'none'})
      if (last.placed === cell) s(layers.top, 'circle', {cx: p.x, cy: p.y, r: R * 0.38, class: 'last-move ' + colour, 'pointer-events': 'none'})
      if (last.flipped.has(cell)) s(layers.top, 'rect', {x: p.x - 5, y: p.y - 5, width: 10, height: 10, transform: `rotate(45 ${p.x} ${p.y})`,
        class: 'flipped-mark ' + colour, 'pointer-events': 'none'})
    }
    // each group of two or more shows its size on the stone nearest its middle
    if (!this.sel) {
      for (const colour of ['black', 'white']) {
        for (const grp of groups(geo, st, colour)) {
          if (grp.size < 2) continue
          const ps = grp.cells.map((c) => pos(geo.byName.get(c)))
          const mx = ps.reduce((a, p) => a + p.x, 0) / ps.length
          const my = ps.reduce((a, p) => a + p.y, 0) / ps.length
          let best = ps[0]
          for (const p of ps) if (Math.hypot(p.x - mx, p.y - my) < Math.hypot(best.x - mx, best.y - my)) best = p
          s(layers.top, 'text', {x: best.x, y: best.y + 5, class: 'group-size ' + colour, 'pointer-events': 'none', 'aria-hidden': 'true'}, String(grp.size))
        }
      }
    }
    // Both read before the old drawing goes: replacing it resets the
    // scroll, and a read after it would make the browser lay the page out
    // again at once, in the middle of the redraw (12 ms a move, profiled).
    const scrolled = this.host.scrollLeft
    const avail = this.host.clientWidth
    clear(this.host)
    this.host.append(svg)
    this.zoom(svg, W, scrolled, avail)
    this.renderInfo(geo, st)
  }

  /** edgeLabels writes the coordinates on the board's edges (pos: a cell's centre). */
  edgeLabels(layer, geo, pos) {
    const half = (Math.sqrt(3) / 2) * R
    const rows = new Map()
    for (const c of geo.cells) {
      if (!rows.has(c.row)) rows.set(c.row, [])
      rows.get(c.row).push(c)
    }
    for (const [row, cells] of rows) {
      const first = pos(cells[0])
      const last = pos(cells[cells.length - 1])
      const letter = String.fromCharCode(97 + row)
      s(layer, 'text', {x: first.x - half - PAD / 2, y: first.y + 4, class: 'coord edge rank', 'data-edge': letter}, letter)
      s(layer, 'text', {x: last.x + half + PAD / 2, y: last.y + 4, class: 'coord edge rank', 'data-edge': letter}, letter)
      if (row !== 0 && row !== geo.rows - 1) continue
      for (const c of cells) {
        const p = pos(c)
        const y = row === 0 ? p.y + R + EDGE_Y / 2 + 5 : p.y - R - EDGE_Y / 2 + 1
        s(layer, 'text', {x: p.x, y, class: 'coord edge file', 'data-edge': c.name}, String(c.k))
      }
    }
  }

  /**
   * zoom keeps cells at least MIN_CELL px wide where the board would be
   * narrower (a size 7 board on a phone): the drawing grows and the board
   * scrolls sideways, centred the first time. avail: the host's width.
   */
  zoom(svg, W, scrolled, avail) {
    const need = Math.ceil(MIN_CELL * W / (Math.sqrt(3) * R))
    const zoomed = avail > 0 && need > avail
    this.host.classList.toggle('zoomed', zoomed)
    if (!zoomed) return
    svg.style.setProperty('width', need + 'px')
    svg.style.setProperty('max-width', 'none')
    svg.style.setProperty('max-height', 'none')
    if (!this.centred) this.centred = true
    else if (scrolled !== undefined) {
      this.host.scrollLeft = scrolled
      return
    }
    this.host.scrollLeft = (need - avail) / 2
  }

  /** lastMarks: the cell placed and the cells flipped by the last move. */
  lastMarks() {
    const turn = this.lastTurn()
    const out = {placed: null, flipped: new Set(), text: ''}
    const last = turn[turn.length - 1]
    if (!last) return out
    const mv = parseMove(last.move)
    out.text = last.move
    if (mv && mv.kind === 'place') {
      out.placed = mv.cell
      for (const f of mv.flips) out.flipped.add(f)
    }
    return out
  }

  renderInfo(geo, st) {
    clear(this.info)
    const view = this.state.view
    for (const colour of ['black', 'white']) {
      const gs = groups(geo, st, colour).map((g) => g.size)
      const row = h('div', {class: 'groups ' + (view.toMove === colour && this.live() ? 'to-move' : ''), 'data-test': 'groups-' + colour},
        h('span', {class: 'swatch side-' + colour, 'aria-hidden': 'true'}),
        h('strong', {}, t('colour.' + colour) + ' '),
        h('span', {}, this.ownerOf(colour)),
        h('span', {class: 'sizes'}, gs.length ? t('sgolte.groupSizes', {sizes: gs.join(' · ')}) : t('sgolte.noStones')))
      this.info.append(row)
    }
    const notes = []
    const b = groups(geo, st, 'black').map((g) => g.size)
    const w = groups(geo, st, 'white').map((g) => g.size)
    const cmp = compareGroups(b, w)
    if (cmp && (b.length || w.length)) notes.push(t(this.live() ? 'sgolte.leading' : 'sgolte.ahead', {colour: t('colour.' + (cmp > 0 ? 'black' : 'white'))}))
    if (view.pie === 'pending') notes.push(t('sgolte.piePending'))
    if (view.swapped) notes.push(t('sgolte.swapped'))
    if (view.passes) notes.push(t('sgolte.passes', {n: view.passes}))
    if (notes.length) this.info.append(h('p', {class: 'note'}, notes.join(' ')))
  }

  ownerOf(colour) {
    const view = this.state.view
    for (const seat of [0, 1]) if (colourOf(view, seat) === colour && this.owner(seat)) return '· ' + this.owner(seat) + ' · '
    return ''
  }

  describe() {
    const view = this.state.view
    const geo = this.geo()
    const st = stones(view)
    const lines = []
    for (const colour of ['black', 'white']) {
      const list = (view[colour] || []).join(', ') || t('board.none')
      const gs = groups(geo, st, colour).map((g) => g.size).join(', ') || '0'
      lines.push(t('sgolte.describe', {colour: t('colour.' + colour), cells: list, sizes: gs}))
    }
    const last = this.lastMarks()
    if (last.text) lines.push(t('board.lastMove', {move: last.text}))
    return lines
  }
}

function gradient(defs, id, light, dark) {
  const g = s(defs, 'radialGradient', {id, cx: '35%', cy: '30%', r: '75%'})
  s(g, 'stop', {offset: '0%', 'stop-color': light})
  s(g, 'stop', {offset: '100%', 'stop-color': dark})
}
