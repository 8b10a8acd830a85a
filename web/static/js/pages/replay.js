// Replay viewer: any finished (or imported) game step by step, with a move
// list, first/previous/next/last controls and the arrow keys.

import {h, s, clear, scrollIntoList} from '../dom.js'
import {t} from '../i18n.js'
import {api} from '../api.js'
import {games} from '../games/registry.js'
import {errorBox, moverNames, resultText, gameTitle} from './common.js'

export function replayPage(main, [id]) {
  let sum = null
  let moves = []
  let ply = 0
  let board = null
  let loading = 0
  const cache = new Map()
  const title = h('h1', {})
  const resultBox = h('p', {class: 'result', 'data-test': 'replay-result'})
  const boardBox = h('div', {class: 'board-box'})
  const list = h('ol', {class: 'move-list replay', 'data-test': 'replay-moves'})
  const where = h('span', {class: 'ply', 'aria-live': 'polite', 'data-test': 'replay-ply'})
  // icons drawn in SVG: the media-control glyphs are missing from many fonts
  const icon = (d) => {
    const svg = s(null, 'svg', {viewBox: '0 0 16 16', width: 16, height: 16, 'aria-hidden': 'true', class: 'icon'})
    s(svg, 'path', {d, fill: 'currentColor'})
    return svg
  }
  const btn = (d, aria, test, fn) => h('button', {type: 'button', 'aria-label': aria, title: aria, 'data-test': test, onclick: fn}, icon(d))
  const controls = h('div', {class: 'replay-controls'},
    btn('M2 2h2v12H2zM14 2v12L5 8z', t('replay.first'), 'first', () => go(0)),
    btn('M12 2v12L3 8z', t('replay.prev'), 'prev', () => go(ply - 1)),
    where,
    btn('M4 2v12l9-6z', t('replay.next'), 'next', () => go(ply + 1)),
    btn('M12 2h2v12h-2zM2 2v12l9-6z', t('replay.last'), 'last', () => go(moves.length)))
  const err = h('div')
  main.append(title, resultBox, err, h('div', {class: 'game-layout'},
    h('div', {class: 'game-main'}, controls, boardBox),
    h('aside', {class: 'game-side'}, h('h2', {}, t('game.moves')), list)))

  const onKey = (ev) => {
    if (ev.target.closest && ev.target.closest('input, select, textarea')) return
    if (ev.key === 'ArrowLeft') go(ply - 1)
    else if (ev.key === 'ArrowRight') go(ply + 1)
    else if (ev.key === 'Home') go(0)
    else if (ev.key === 'End') go(moves.length)
    else return
    ev.preventDefault()
  }
  document.addEventListener('keydown', onKey)

  async function go(n) {
    if (!sum) return
    n = Math.max(0, Math.min(moves.length, n))
    const token = ++loading
    let rep = cache.get(n)
    if (!rep) {
      try {
        rep = await api.replay(id, n)
      } catch (e) {
        err.replaceChildren(errorBox(e))
        return
      }
      cache.set(n, rep)
    }
    if (token !== loading) return
    const forward = n === ply + 1
    ply = n
    where.textContent = t('replay.at', {ply: n, total: moves.length})
    for (const li of list.children) li.classList.toggle('current', Number(li.dataset.ply) === n)
    // only the list scrolls: scrollIntoView would scroll the page too, and
    // on a phone the controls would leave the screen
    const cur = list.querySelector('.current')
    if (cur) scrollIntoList(list, cur)
    if (!board) {
      const Board = games[sum.game] && games[sum.game].Board
      if (!Board) return
      board = new Board(boardBox, {interactive: false})
    }
    board.set({view: rep.view, legal: null, seat: -1, seats: sum.seats, moves: moves.slice(0, n), status: 'replay', fresh: forward})
  }

  api.game(id).then((res) => {
    sum = res.game
    moves = res.moves || []
    title.textContent = t('replay.title', {game: gameTitle(sum.game)})
    resultBox.textContent = resultText(sum, -1)
    clear(list)
    list.append(h('li', {'data-ply': 0, value: 0}, h('button', {type: 'button', class: 'link', onclick: () => go(0)}, t('replay.start'))))
    const names = moverNames(sum, moves)
    moves.forEach((m, i) => {
      list.append(h('li', {'data-ply': m.ply + 1, value: m.ply + 1},
        h('button', {type: 'button', class: 'link', onclick: () => go(m.ply + 1)},
          names[i] + ' ', h('code', {}, m.move))))
    })
    go(sum.status === 'live' ? moves.length : 0)
  }).catch((e) => err.replaceChildren(errorBox(e)))

  return {
    destroy() {
      document.removeEventListener('keydown', onKey)
      if (board) board.destroy()
    },
  }
}
