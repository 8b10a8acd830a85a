// Diagrams of the rules pages: a ```diagram block of a page (see
// docs/rules/diagram.go for its lines) becomes a figure drawn by the game's
// own board, read-only, with the marks and arrows the text needs and the
// caption under it. The positions themselves are played by the rules
// engines on the server (rules/diagrams.json), so a diagram always shows
// what the rules make of it.

import {h, s} from './dom.js'
import {t} from './i18n.js'
import {inline} from './markdown.js'
import {games} from './games/registry.js'

const KINDS = ['ring', 'cross', 'dot', 'name']

/** parseDiagram reads a block's "key: value" lines. */
export function parseDiagram(text) {
  const d = {caption: '', game: '', id: '', marks: [], arrows: [], info: false}
  for (const raw of String(text).split('\n')) {
    const i = raw.indexOf(':')
    if (i < 0) continue
    const key = raw.slice(0, i).trim()
    const val = raw.slice(i + 1).trim()
    if (key === 'caption' || key === 'game' || key === 'id') d[key] = val
    else if (key === 'info') d.info = val === 'on'
    else if (key === 'marks') {
      d.marks = val.split(/\s+/).filter(Boolean).map((m) => {
        const [name, kind] = m.split('=')
        return {name, kind: KINDS.includes(kind) ? kind : 'ring'}
      })
    } else if (key === 'arrows') {
      d.arrows = val.split(/\s+/).filter((a) => a.includes('>')).map((a) => {
        const [from, to] = a.split('>')
        return {from, to}
      })
    }
  }
  return d
}

/**
 * diagramFigure is the renderer of ```diagram blocks for markdown.js: a
 * figure with its caption, drawn later by drawDiagrams (a board needs to
 * be in the document to be measured).
 */
export function diagramFigure(text) {
  const d = parseDiagram(text)
  const fig = h('figure', {class: 'diagram diagram-' + d.game, 'data-diagram': d.game + '/' + d.id},
    h('div', {class: 'diagram-board'}),
    h('figcaption', {}, inline(d.caption)))
  fig.diagram = d
  return fig
}

let resolvedPromise = null

/** resolved fetches the positions of every diagram once. */
function resolved() {
  if (!resolvedPromise) {
    resolvedPromise = fetch('rules/diagrams.json').then((r) => {
      if (!r.ok) throw new Error('rules/diagrams.json: ' + r.status)
      return r.json()
    })
    resolvedPromise.catch(() => {
      resolvedPromise = null
    })
  }
  return resolvedPromise
}

/** drawDiagrams draws every diagram figure under root; it resolves when all are drawn. */
export async function drawDiagrams(root) {
  const figs = [...root.querySelectorAll('figure[data-diagram]')]
  if (!figs.length) return
  const all = await resolved()
  for (const fig of figs) {
    const r = all[fig.getAttribute('data-diagram')]
    if (!r || !fig.diagram) {
      fig.classList.add('diagram-missing')
      continue
    }
    drawDiagram(fig.querySelector('.diagram-board'), fig.diagram, r)
    fig.setAttribute('data-drawn', '')
  }
}

/**
 * drawDiagram draws one position on the game's board, read-only, with the
 * marks and arrows of d. r: {view, moves} as in rules/diagrams.json. It
 * returns the board (destroy() it when the node goes).
 */
export function drawDiagram(host, d, r) {
  const entry = games[d.game]
  if (!entry) throw new Error('unknown game ' + d.game)
  const board = new entry.Board(host, {interactive: false})
  board.root.classList.add('diagram-host')
  if (d.info) board.root.classList.add('diagram-info')
  // seats are named as the rules pages name them: player 1, player 2, …
  const seats = Array.from({length: 8}, (_, i) => ({user: t('seat.player', {n: i + 1})}))
  board.set({view: r.view, legal: null, seat: -1, seats, moves: r.moves || [], status: 'diagram', fresh: false})
  overlay(board, d)
  return board
}

/**
 * locate finds a named place of a board in the coordinates of the SVG that
 * draws it: the board's own locate (for places it draws no target for, like
 * Sploof's empty points), else the centre of the place's hit target.
 */
export function locate(board, name) {
  const own = board.locate && board.locate(name)
  if (own) return own
  const el = board.host.querySelector(`[data-hit="${CSS.escape(name)}"]`)
  if (!el || !el.ownerSVGElement) return null
  const svg = el.ownerSVGElement
  const bb = el.getBBox()
  const m = svg.getScreenCTM().inverse().multiply(el.getScreenCTM())
  const c = new DOMPoint(bb.x + bb.width / 2, bb.y + bb.height / 2).matrixTransform(m)
  const corner = new DOMPoint(bb.x, bb.y).matrixTransform(m)
  const r = Math.min(Math.abs(c.x - corner.x), Math.abs(c.y - corner.y))
  return {svg, x: c.x, y: c.y, r}
}

function layerOf(svg) {
  let g = svg.querySelector(':scope > g.diagram-overlay')
  if (!g) {
    g = s(svg, 'g', {class: 'diagram-overlay', 'pointer-events': 'none', 'aria-hidden': 'true'})
    const defs = s(g, 'defs')
    const mk = s(defs, 'marker', {id: 'dg-head', viewBox: '0 0 10 10', refX: 7, refY: 5, markerWidth: 4.5, markerHeight: 4.5, orient: 'auto-start-reverse'})
    s(mk, 'path', {d: 'M0,0 L10,5 L0,10 z', class: 'dg-head'})
  }
  return g
}

function overlay(board, d) {
  for (const {name, kind} of d.marks) {
    const p = locate(board, name)
    if (!p) continue
    const g = layerOf(p.svg)
    const r = Math.max(8, p.r * 0.8)
    if (kind === 'ring') s(g, 'circle', {cx: p.x, cy: p.y, r, class: 'dg-ring'})
    else if (kind === 'dot') s(g, 'circle', {cx: p.x, cy: p.y, r: Math.max(4, r * 0.28), class: 'dg-dot'})
    else if (kind === 'cross') {
      const a = r * 0.55
      s(g, 'path', {d: `M${p.x - a},${p.y - a} L${p.x + a},${p.y + a} M${p.x - a},${p.y + a} L${p.x + a},${p.y - a}`, class: 'dg-cross'})
    } else if (kind === 'name') s(g, 'text', {x: p.x, y: p.y + 5, class: 'dg-name'}, name.replace(/^p\d+:/, ''))
  }
  for (const {from, to} of d.arrows) {
    const a = locate(board, from)
    const b = locate(board, to)
    if (!a || !b || a.svg !== b.svg) continue
    const len = Math.hypot(b.x - a.x, b.y - a.y) || 1
    const ux = (b.x - a.x) / len
    const uy = (b.y - a.y) / len
    const cut = Math.min(len / 4, Math.max(6, b.r * 0.45))
    s(layerOf(a.svg), 'line', {x1: a.x + ux * cut, y1: a.y + uy * cut, x2: b.x - ux * cut, y2: b.y - uy * cut,
      class: 'dg-arrow', 'marker-end': 'url(#dg-head)'})
  }
}
