// Replay viewer: any finished (or imported) game step by step, with a move
// list, first/previous/next/last controls and the arrow keys.

import {h} from '../dom.js'
import {t} from '../i18n.js'
import {api} from '../api.js'
import {games} from '../games/registry.js'
import {Positions} from '../positions.js'
import {errorBox, resultText, gameTitle} from '../components/common.js'
import {MoveList, stepper, stepKeys} from '../components/movelist.js'
import * as catalog from '../catalog.js'

export function replayPage(main, [id]) {
  let sum = null
  let moves = []
  let ply = 0
  let board = null
  const title = h('h1', {})
  const resultBox = h('p', {class: 'result', 'data-test': 'replay-result'})
  const boardBox = h('div', {class: 'board-box'})
  const list = new MoveList({onPick: (n) => go(n), test: 'replay-moves', start: true})
  const steps = stepper((step) => go({first: 0, prev: ply - 1, next: ply + 1, last: moves.length}[step]))
  steps.where.dataset.test = 'replay-ply'
  const err = h('div')
  const info = h('div', {class: 'side-info'})
  const links = h('p', {class: 'review-links'})
  main.append(title, resultBox, links, err, h('div', {class: 'game-layout replay-layout'},
    h('div', {class: 'game-main'}, boardBox),
    h('div', {class: 'game-controls'}, steps.el),
    h('aside', {class: 'game-side'}, h('h2', {}, t('game.moves')), list.el, info)))
  const unkeys = stepKeys((step) => go({first: 0, prev: ply - 1, next: ply + 1, last: moves.length}[step]))

  const positions = new Positions(id, (n, rep) => {
    const forward = n === ply + 1
    ply = n
    steps.where.textContent = t('replay.at', {ply: n, total: moves.length})
    list.mark(n)
    if (!board) {
      const Board = games[sum.game] && games[sum.game].Board
      if (!Board) return
      board = new Board(boardBox, {interactive: false, infoHost: info, levels: true})
    }
    board.set({view: rep.view, legal: null, seat: -1, seats: sum.seats, moves: moves.slice(0, n), status: 'replay', fresh: forward})
  }, (e) => err.replaceChildren(errorBox(e)))

  function go(n) {
    if (!sum || n === undefined) return
    positions.show(Math.max(0, Math.min(moves.length, n)))
  }

  api.game(id).then((res) => {
    sum = res.game
    moves = res.moves || []
    title.textContent = t('replay.title', {game: gameTitle(sum.game)})
    resultBox.textContent = resultText(sum, -1)
    const over = sum.status === 'finished' || sum.status === 'imported'
    links.replaceChildren(h('span', {},
      catalog.analysable(sum.game) && over ?
        h('a', {href: `#/analysis/${sum.game}?game=${encodeURIComponent(id)}&ply=${ply}`, 'data-test': 'analysis-link',
          onclick: (ev) => {
            ev.currentTarget.href = `#/analysis/${sum.game}?game=${encodeURIComponent(id)}&ply=${ply}`
          }}, t('game.analyse')) : null,
      over ? [catalog.analysable(sum.game) ? ' · ' : null, h('a', {href: '#/review/' + encodeURIComponent(id), 'data-test': 'review-link'}, t('game.review'))] : null))
    list.set(sum, moves, false)
    go(sum.status === 'live' ? moves.length : 0)
  }).catch((e) => err.replaceChildren(errorBox(e)))

  return {
    destroy() {
      unkeys()
      positions.cancel()
      if (board) board.destroy()
    },
  }
}
