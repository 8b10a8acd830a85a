// The rating-history graph of a player's profile: the rating after each
// rated game, oldest first, as an SVG line with its points, the y axis
// labelled with ratings and the x axis with game numbers. The viewBox is
// the graph's width in pixels (measured when it is laid out, and again
// when that changes), so its text stays readable on a phone.

import {h, s, clear} from '../dom.js'
import {t} from '../i18n.js'

/** ratingGraph(history) returns the graph's element; history is stats' [{gameId, at, rating}]. */
export function ratingGraph(history) {
  const box = h('div', {class: 'rating-graph', 'data-test': 'rating-graph'})
  let drawnAt = 0
  const draw = () => {
    const W = Math.max(240, Math.round(box.clientWidth || 600))
    if (W === drawnAt) return
    drawnAt = W
    clear(box)
    const H = W < 500 ? 150 : 180
    const L = 44 // room for the ratings on the left
    const B = 34 // room for the game numbers and the axis' name below
    const T = 10
    const R = 12
    const rs = history.map((p) => p.rating)
    let lo = Math.min(...rs)
    let hi = Math.max(...rs)
    // A flat history still gets a band to sit in; round the ends to tens.
    const pad = Math.max(10, (hi - lo) * 0.1)
    lo = Math.floor((lo - pad) / 10) * 10
    hi = Math.ceil((hi + pad) / 10) * 10
    const n = history.length
    const x = (i) => (n === 1 ? L + (W - L - R) / 2 : L + (i / (n - 1)) * (W - L - R))
    const y = (r) => T + (1 - (r - lo) / (hi - lo)) * (H - T - B)
    const svg = s(box, 'svg', {viewBox: `0 0 ${W} ${H}`, role: 'img', 'aria-label': t('profile.graph')})
    // y axis: three ratings, with faint guide lines
    for (const r of [lo, Math.round((lo + hi) / 20) * 10, hi]) {
      s(svg, 'line', {x1: L, x2: W - R, y1: y(r), y2: y(r), class: 'guide'})
      s(svg, 'text', {x: L - 6, y: y(r) + 4, 'text-anchor': 'end', class: 'tick'}, String(r))
    }
    s(svg, 'line', {x1: L, x2: L, y1: T, y2: H - B, class: 'axis'})
    s(svg, 'line', {x1: L, x2: W - R, y1: H - B, y2: H - B, class: 'axis'})
    // x axis: the first and last game's number (and the middle when there is room)
    const marks = n === 1 ? [0] : n > 4 ? [0, Math.floor((n - 1) / 2), n - 1] : [0, n - 1]
    for (const i of marks) s(svg, 'text', {x: x(i), y: H - B + 15, 'text-anchor': 'middle', class: 'tick'}, String(i + 1))
    s(svg, 'text', {x: L + (W - L - R) / 2, y: H - 4, 'text-anchor': 'middle', class: 'axis-name'}, t('profile.graphX'))
    if (n > 1) s(svg, 'path', {d: history.map((p, i) => (i ? 'L' : 'M') + x(i).toFixed(1) + ' ' + y(p.rating).toFixed(1)).join(' '), class: 'line'})
    history.forEach((p, i) => {
      const dot = s(svg, 'circle', {cx: x(i), cy: y(p.rating), r: n > 60 ? 2 : 4, class: 'point', 'data-test': 'rating-point'})
      s(dot, 'title', {}, t('profile.graphPoint', {n: i + 1, rating: Math.round(p.rating)}))
    })
  }
  // Drawn at once at the default width, then again at the laid-out width:
  // a page under load (or one never laid out again) still has its graph.
  draw()
  if (typeof ResizeObserver === 'function') new ResizeObserver(draw).observe(box)
  return h('figure', {class: 'rating-figure'}, box, h('figcaption', {class: 'muted'}, t('profile.graph')))
}
