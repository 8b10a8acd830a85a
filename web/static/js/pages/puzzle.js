// Puzzles (#/puzzles/<game>): positions from games between bots in which
// exactly one move wins by force within a few plies (learn/puzzles/<game>.json,
// each proved by an exhaustive search in the Go tests). The learner plays
// on the real board; the server's rules endpoint judges each try; a hint
// and the whole winning line are there on request; solved puzzles are
// remembered in this browser.

import {h, clear} from '../dom.js'
import {t} from '../i18n.js'
import {games} from '../games/registry.js'
import {errorBox, gameTitle} from '../components/common.js'
import {cta} from '../lessons/text.js'
import {ask, loadData, reason} from '../lessons/rules.js'
import * as progress from '../lessons/progress.js'

const PUZZLE_GAMES = ['sgolte', 'sploof']

/** hintText says something true about the winning move without giving it away. */
function hintText(game, move) {
  if (game === 'sploof') {
    if (move.startsWith('*')) return t('puzzle.sploof.hintRemove')
    return t('puzzle.sploof.hintLevel', {level: move[0]})
  }
  const m = /^([a-z])\d+(?:\((.*)\))?$/.exec(move)
  if (m && m[2]) return t('puzzle.sgolte.hintFlips', {n: m[2].split(',').length})
  if (m) return t('puzzle.sgolte.hintRow', {row: m[1]})
  return t('puzzle.hintSpecial', {move})
}

export function puzzlePage(main, [game], query) {
  if (!game) game = PUZZLE_GAMES[0] // the menu's Puzzles: the first game's
  if (!PUZZLE_GAMES.includes(game)) {
    main.append(h('h1', {}, t('notFound.title')))
    return null
  }
  let set = null
  let index = 0
  let board = null
  let cur = null // {pz, answer, seat}
  const title = h('h1', {'data-test': 'puzzle-title'}, t('puzzle.title', {game: gameTitle(game)}))
  const list = h('ol', {class: 'puzzle-list', 'data-test': 'puzzle-list'})
  const count = h('p', {class: 'learn-count', 'data-test': 'puzzle-progress'})
  const heading = h('h2', {class: 'learn-heading', 'data-test': 'puzzle-heading'})
  const task = h('p', {class: 'learn-text', 'data-test': 'puzzle-task'})
  const boardBox = h('div', {class: 'learn-board board-box', 'data-test': 'board'})
  const feedback = h('div', {class: 'learn-feedback', role: 'status', 'aria-live': 'polite', 'data-test': 'puzzle-feedback'})
  const actions = h('div', {class: 'learn-actions'})
  main.append(h('nav', {class: 'rules-nav', 'aria-label': t('learn.title')},
    PUZZLE_GAMES.map((g) => h('a', {href: '#/puzzles/' + g, 'aria-current': g === game ? 'page' : null}, t('learn.puzzles', {game: gameTitle(g)})))),
  title, h('p', {class: 'lead'}, t('puzzle.lead')),
  h('div', {class: 'learn-layout'},
    h('div', {class: 'learn-task'}, heading, task),
    boardBox,
    h('div', {class: 'learn-answer'}, feedback, actions),
    h('aside', {class: 'learn-side'}, list, count, h('p', {}, h('a', {href: '#/learn/' + game}, cta(game, gameTitle(game)))))))

  function renderList() {
    const solved = progress.done('puzzles', game)
    clear(list)
    set.puzzles.forEach((pz, i) => list.append(h('li', {}, h('a', {href: '#/puzzles/' + game + '?n=' + (i + 1),
      class: solved.has(pz.id) ? 'solved' : '', 'aria-current': i === index ? 'page' : null, 'data-test': 'puzzle-' + (i + 1),
      'aria-label': t('puzzle.of', {n: i + 1, total: set.puzzles.length})}, String(i + 1)))))
    count.textContent = t('puzzle.solvedCount', {done: set.puzzles.filter((p) => solved.has(p.id)).length, total: set.puzzles.length})
  }

  function seats(seat) {
    return [0, 1].map((i) => ({kind: 'human', user: i === seat ? t('learn.you') : t('learn.opponent'), seat: i}))
  }

  function setBoard(ans, interactive, moves) {
    board.set({view: ans.view, legal: interactive ? ans.legal : null, seat: cur.seat, seats: seats(cur.seat), moves, status: ans.status === 'ongoing' ? 'live' : 'finished', fresh: moves.length > 0})
  }

  async function show(i) {
    if (board) board.destroy()
    board = null
    index = Math.max(0, Math.min(i, set.puzzles.length - 1))
    const pz = set.puzzles[index]
    renderList()
    heading.textContent = t('puzzle.of', {n: index + 1, total: set.puzzles.length})
    clear(feedback)
    clear(actions)
    try {
      const ans = await ask(game, {position: pz.position})
      cur = {pz, answer: ans, seat: ans.toMove}
      task.textContent = t('puzzle.task', {side: t('colour.' + ans.seatNames[ans.toMove]), plies: pz.plies, moves: Math.ceil(pz.plies / 2)})
      board = new games[game].Board(boardBox, {interactive: true, onMove: tryMove})
      setBoard(ans, true, [])
      actions.append(...[
        h('button', {type: 'button', 'data-test': 'puzzle-hint', onclick: () => {
          feedback.replaceChildren(h('p', {class: 'learn-hint', 'data-test': 'puzzle-hint-text'}, hintText(game, pz.line[0])))
        }}, t('puzzle.hint')),
        h('button', {type: 'button', 'data-test': 'puzzle-solution', onclick: () => playLine(false)}, t('puzzle.solution')),
        index > 0 ? h('button', {type: 'button', onclick: () => show(index - 1)}, t('puzzle.prev')) : null,
        index + 1 < set.puzzles.length ? h('button', {type: 'button', 'data-test': 'puzzle-next', onclick: () => show(index + 1)}, t('puzzle.next')) : null,
      ].filter(Boolean))
    } catch (e) {
      boardBox.replaceChildren(errorBox(e))
    }
  }

  /** playLine shows the winning line on the board; solved: the learner found its first move. */
  async function playLine(solved) {
    const pz = cur.pz
    const ans = await ask(game, {position: pz.position, moves: pz.line})
    const moves = pz.line.map((m, i) => ({seat: i % 2 === 0 ? cur.seat : 1 - cur.seat, move: m}))
    setBoard(ans, false, moves.slice(-1))
    const lines = []
    if (solved) {
      progress.mark('puzzles', game, pz.id)
      renderList()
      lines.push(h('p', {class: 'learn-done', 'data-test': 'puzzle-solved'}, t('puzzle.solved', {move: pz.line[0]})))
    }
    lines.push(h('p', {'data-test': 'puzzle-line'}, t('puzzle.line', {line: pz.line.join(' ')})))
    feedback.replaceChildren(...lines)
  }

  async function tryMove(mv) {
    clear(feedback)
    try {
      if (mv === cur.pz.line[0]) {
        await playLine(true)
        return
      }
      const ans = await ask(game, {position: cur.pz.position, move: mv})
      if (ans.move && !ans.move.legal) {
        feedback.append(h('p', {class: 'learn-engine', lang: 'en'}, t('learn.engine', {reason: reason(ans.move.error.message)})))
      } else {
        feedback.append(h('p', {class: 'learn-wrong', 'data-test': 'puzzle-wrong'}, t('puzzle.notIt', {move: mv})))
      }
      setBoard(cur.answer, true, [])
    } catch (e) {
      feedback.replaceChildren(errorBox(e))
      setBoard(cur.answer, true, [])
    }
  }

  loadData('puzzles/' + game + '.json').then((s) => {
    set = s
    const n = Number(query && query.get('n'))
    if (n >= 1) {
      show(n - 1)
      return
    }
    const solved = progress.done('puzzles', game)
    const first = s.puzzles.findIndex((p) => !solved.has(p.id))
    show(first < 0 ? 0 : first)
  }).catch((e) => main.append(errorBox(e)))

  return {
    destroy() {
      if (board) board.destroy()
    },
  }
}
