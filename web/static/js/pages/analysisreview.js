// The game review (#/review/<id>): the server evaluates every position of a
// finished game (POST /api/games/{id}/review, its progress read as
// Server-Sent Events) and the page shows the win-probability graph (SVG),
// the moves with their marks (inaccuracy, mistake, blunder) and the better
// move, each seat's count, and the board at any move. Skyjo's review says
// that it judged every decision from its player's own view only.

import {h, s, clear} from '../dom.js'
import {t} from '../i18n.js'
import {api} from '../api.js'
import * as session from '../session.js'
import {games} from '../games/registry.js'
import {Positions} from '../positions.js'
import {errorBox, errorText, gameTitle, moverNames, resultText, seatText, sideName} from '../components/common.js'
import {stepper, stepKeys} from '../components/movelist.js'
import {pct} from '../components/analysisengine.js'
import * as catalog from '../catalog.js'

const SYMBOL = {inaccuracy: '?!', mistake: '?', blunder: '??'}

export function reviewPage(main, [id]) {
  let sum = null
  let moves = []
  let review = null
  let board = null
  let ply = 0
  let es = null
  const title = h('h1', {}, t('review.title'))
  const resultBox = h('p', {class: 'result'})
  const note = h('p', {class: 'review-note', 'data-test': 'review-note', hidden: true})
  const err = h('div')
  const progress = h('p', {class: 'review-progress', role: 'status', 'aria-live': 'polite', 'data-test': 'review-progress'})
  const graph = h('div', {class: 'review-graph', 'data-test': 'review-graph'})
  const counts = h('div', {class: 'review-counts', 'data-test': 'review-counts'})
  const list = h('ol', {class: 'review-moves', 'data-test': 'review-moves'})
  const detail = h('div', {class: 'review-detail', 'data-test': 'review-detail', role: 'status', 'aria-live': 'polite'})
  const boardBox = h('div', {class: 'board-box'})
  const info = h('div', {class: 'side-info'})
  const links = h('p', {class: 'review-links'})
  const steps = stepper((step) => go({first: 0, prev: ply - 1, next: ply + 1, last: moves.length}[step]))
  main.append(title, resultBox, links, note, err, progress, graph, counts, h('div', {class: 'game-layout review-layout'},
    h('div', {class: 'game-main'}, boardBox),
    h('div', {class: 'game-controls'}, steps.el, detail),
    h('aside', {class: 'game-side'}, h('h2', {}, t('game.moves')), list, info)))
  const unkeys = stepKeys((step) => go({first: 0, prev: ply - 1, next: ply + 1, last: moves.length}[step]))

  const positions = new Positions(id, (n, rep) => {
    ply = n
    steps.where.textContent = t('replay.at', {ply: n, total: moves.length})
    if (!board) board = new games[sum.game].Board(boardBox, {interactive: false, infoHost: info, levels: true})
    board.set({view: rep.view, legal: null, seat: -1, seats: sum.seats, moves: moves.slice(0, n), status: 'replay'})
    mark()
  }, (e) => err.replaceChildren(errorBox(e)))

  function go(n) {
    if (!sum || n === undefined) return
    positions.show(Math.max(0, Math.min(moves.length, n)))
  }

  // mark shows the move that led to the position shown, and its judgement.
  function mark() {
    for (const li of list.children) li.classList.toggle('current', Number(li.dataset.ply) === ply)
    for (const c of graph.querySelectorAll('.cursor')) {
      c.setAttribute('x1', x(ply))
      c.setAttribute('x2', x(ply))
    }
    clear(detail)
    const j = review && ply > 0 ? review.moves[ply - 1] : null
    if (!j) return
    const who = moverNames(sum, moves)[ply - 1]
    detail.append(h('p', {}, t('review.moveSays', {n: ply, who, move: j.move, before: pct(j.before), after: pct(j.after)})))
    if (j.mark) {
      detail.append(h('p', {class: 'mark-' + j.mark}, t('review.' + j.mark), ' — ', t('review.better', {move: j.better}), ' ',
        h('code', {}, (j.betterLine || []).join(' '))))
    }
  }

  // The graph's scale: plies along, seat 0's (or each seat's) win
  // probability up.
  // The viewBox is the graph's size in pixels (set when it is drawn), so
  // the dots stay round.
  let W = 600
  let H = 120
  const x = (p) => (moves.length ? (p / moves.length) * W : 0)
  const y = (w) => H - w * H

  function drawGraph() {
    clear(graph)
    W = Math.max(240, Math.round(graph.clientWidth || 600))
    drawnWidth = Math.round(graph.clientWidth)
    H = W < 500 ? 110 : 140
    const svg = s(graph, 'svg', {viewBox: `0 0 ${W} ${H}`, role: 'img', 'aria-label': t('review.graph')})
    s(svg, 'line', {x1: 0, x2: W, y1: H / 2, y2: H / 2, class: 'mid'})
    // The curve follows the moves: after each one, its mover's chance as
    // the search of the position before it saw the move (one search
    // compares the move with the best, so the curve does not zigzag with
    // each side's own optimism); the end is the result.
    const pts = review.points
    const end = pts[pts.length - 1]
    const two = review.seats.length === 2 && !review.hidden
    const after = (j, seat) => (j.seat === seat ? j.after : 1 - j.after)
    const path = (list) => list.map(([p, w], i) => (i ? 'L' : 'M') + x(p).toFixed(1) + ' ' + y(w).toFixed(1)).join(' ')
    const at = new Map()
    if (two) {
      // One curve: seat 0's chance (the other's is the rest).
      const start = pts[0].seat === 0 ? pts[0].win : 1 - pts[0].win
      const list = [[0, start], ...review.moves.map((j) => [j.ply + 1, after(j, 0)])]
      if (end.result) list[list.length - 1] = [moves.length, end.result[0]]
      list.forEach(([p, w]) => at.set(p, w))
      const d = path(list)
      s(svg, 'path', {d: d + ` L${x(moves.length)} ${H} L0 ${H} Z`, class: 'area'})
      s(svg, 'path', {d, class: 'curve seat-0'})
    } else {
      // Several seats, or hidden cards: each seat's own estimate after
      // each of its own decisions.
      review.seats.forEach((_, seat) => {
        const list = review.moves.filter((j) => j.seat === seat).map((j) => [j.ply + 1, j.after])
        if (end.result) list.push([moves.length, end.result[seat]])
        if (list.length) s(svg, 'path', {d: path(list), class: 'curve seat-' + seat})
      })
    }
    for (const j of review.moves) {
      if (!j.mark) continue
      const w = two ? at.get(j.ply + 1) : j.after
      const dot = s(svg, 'circle', {cx: x(j.ply + 1), cy: y(w), r: 4, class: 'dot mark-' + j.mark, 'data-test': 'graph-mark'})
      s(dot, 'title', {}, `${j.ply + 1}. ${j.move} ${SYMBOL[j.mark]}`)
    }
    s(svg, 'line', {x1: x(ply), x2: x(ply), y1: 0, y2: H, class: 'cursor'})
    const hit = s(svg, 'rect', {x: 0, y: 0, width: W, height: H, class: 'hit-area'})
    hit.addEventListener('click', (ev) => {
      const r = svg.getBoundingClientRect()
      go(Math.round(((ev.clientX - r.left) / r.width) * moves.length))
    })
    graph.append(h('p', {class: 'legend muted'}, two ? t('review.graphTwo', {side: moverSide(0)}) : t('review.graphEach'),
      // several curves: which colour is whose
      two ? null : review.seats.map((_, seat) => [' ', h('span', {class: 'key seat-' + seat, 'data-test': 'graph-key'}, moverSide(seat))])))
  }

  // The graph is drawn to its box's width (its viewBox in pixels, so that
  // the dots stay round): a window made narrower or wider, or a phone
  // turned, draws it again, or a phone's graph was a sliver 40 px high.
  let drawnWidth = 0
  const refit = typeof ResizeObserver === 'function' ? new ResizeObserver(() => {
    const w = Math.round(graph.clientWidth)
    if (review && review.points && review.points.length && Math.abs(w - drawnWidth) > 8) drawGraph()
  }) : null
  if (refit) refit.observe(graph)

  // moverSide names a seat's side as the game does (Black, Player 1…).
  function moverSide(seat) {
    const se = sum.seats[seat]
    return (se && sideName(sum.game, se)) || t('seat.n', {n: seat + 1})
  }

  function render() {
    progress.textContent = ''
    note.hidden = !review.hidden
    note.textContent = review.hidden ? t('review.hiddenNote') : ''
    drawGraph()
    clear(counts)
    const table = h('table', {}, h('tr', {}, h('th', {}, ''), h('th', {}, t('review.inaccuracies')), h('th', {}, t('review.mistakes')), h('th', {}, t('review.blunders'))))
    review.counts.forEach((c, seat) => table.append(h('tr', {}, h('th', {'data-test': 'review-seat'}, moverSide(seat) + ' · ' + (seatText(sum.seats[seat], sum.seats) || t('seat.n', {n: seat + 1}))),
      h('td', {}, c.inaccuracies), h('td', {}, c.mistakes), h('td', {}, c.blunders))))
    counts.append(table)
    clear(list)
    const who = moverNames(sum, moves)
    list.append(h('li', {'data-ply': 0}, h('button', {type: 'button', class: 'mv', onclick: () => go(0)}, t('replay.start'))))
    review.moves.forEach((j, i) => {
      list.append(h('li', {'data-ply': i + 1, class: j.mark ? 'marked mark-' + j.mark : ''},
        h('button', {type: 'button', class: 'mv', onclick: () => go(i + 1), 'data-test': j.mark ? 'review-marked' : null},
          h('span', {class: 'num'}, i + 1 + '.'), ' ', h('span', {class: 'who'}, who[i]), ' ', h('code', {}, j.move),
          j.mark ? h('span', {class: 'sym', title: t('review.' + j.mark)}, SYMBOL[j.mark]) : null,
          j.mark ? h('span', {class: 'better'}, t('review.betterShort', {move: j.better})) : null)))
    })
    mark()
  }

  async function start() {
    try {
      await session.ensure()
      const st = await api.review(id)
      if (st.review) {
        review = st.review
        render()
        return
      }
      progress.textContent = t('review.starting')
      es = new EventSource(st.events)
      es.addEventListener('progress', (ev) => {
        const p = JSON.parse(ev.data)
        progress.textContent = t('review.progress', {done: p.done, total: p.total})
      })
      es.addEventListener('review', (ev) => {
        review = JSON.parse(ev.data)
        render()
      })
      es.addEventListener('end', () => es.close())
      es.addEventListener('error', (ev) => {
        es.close()
        if (!review) progress.textContent = t('review.failed', {reason: ev.data ? JSON.parse(ev.data).message : errorText({code: 'network'})})
      })
    } catch (e) {
      progress.textContent = ''
      err.replaceChildren(errorBox(e))
    }
  }

  api.game(id).then((res) => {
    sum = res.game
    moves = res.moves || []
    title.textContent = t('review.titleOf', {game: gameTitle(sum.game)})
    resultBox.textContent = resultText(sum, -1)
    links.replaceChildren(h('span', {}, h('a', {href: '#/replay/' + id}, t('game.replay')),
      catalog.analysable(sum.game) ? [' · ', h('a', {href: `#/analysis/${sum.game}?game=${encodeURIComponent(id)}`, 'data-test': 'analysis-link'}, t('game.analyse'))] : null))
    go(0)
    start()
  }).catch((e) => err.replaceChildren(errorBox(e)))

  return {
    destroy() {
      unkeys()
      if (refit) refit.disconnect()
      positions.cancel()
      if (es) es.close()
      if (board) board.destroy()
    },
  }
}
