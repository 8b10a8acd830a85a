// Learn to play: each game's lesson path (learn/lessons/<game>.json), in
// the spirit of lichess's "Learn". A step is a real position on the real
// board with one idea and one task; the learner plays by clicking, the
// server's rules endpoint judges every try (a wrong one is explained with
// the engine's own reason), and finished steps are remembered in this
// browser. The path ends with a first game against a bot, with hints.

import {h, clear} from '../dom.js'
import {t} from '../i18n.js'
import {api} from '../api.js'
import * as session from '../session.js'
import {GameChannel} from '../channel.js'
import {games} from '../games/registry.js'
import * as catalog from '../catalog.js'
import {errorBox, errorText, resultText, gameTitle} from '../components/common.js'
import {pick, cta} from '../lessons/text.js'
import {ask, loadData, reason} from '../lessons/rules.js'
import * as progress from '../lessons/progress.js'
import {hints} from '../lessons/hints.js'

const PUZZLE_GAMES = ['sgolte', 'sploof']

/** steps flattens a course: one entry per step, with its lesson and key. */
function flatten(course) {
  const out = []
  course.lessons.forEach((lesson) => lesson.steps.forEach((step, i) => {
    out.push({lesson, step, key: lesson.id + '/' + i, n: i + 1, total: lesson.steps.length})
  }))
  return out
}

function gameNav(current, base) {
  return h('nav', {class: 'rules-nav', 'aria-label': t('learn.title')},
    catalog.gameNames().map((g) => h('a', {href: base + g, 'aria-current': g === current ? 'page' : null}, gameTitle(g))))
}

/** learnIndex lists the four lesson paths with the progress made. */
function learnIndex(main) {
  main.append(gameNav(null, '#/learn/'), h('h1', {}, t('learn.title')), h('p', {class: 'lead'}, t('learn.lead')))
  const list = h('ul', {class: 'learn-index', 'data-test': 'learn-index'})
  main.append(list)
  for (const g of catalog.gameNames()) {
    const item = h('li', {'data-game': g}, h('a', {href: '#/learn/' + g, 'data-test': 'learn-' + g}, cta(g, gameTitle(g))))
    if (PUZZLE_GAMES.includes(g)) item.append(' · ', h('a', {href: '#/puzzles/' + g}, t('learn.puzzles', {game: gameTitle(g)})))
    list.append(item)
    loadData('lessons/' + g + '.json').then((c) => {
      const n = flatten(c).length
      item.append(h('span', {class: 'learn-count'}, ' — ' + t('learn.progress', {done: progress.done('learn', g).size, total: n})))
    }).catch(() => {})
  }
}

export function learnPage(main, [game]) {
  if (!game || !catalog.gameNames().includes(game)) {
    learnIndex(main)
    return null
  }
  let course = null
  let steps = []
  let current = -1
  let board = null
  let channel = null
  let live = null // the state of the step being played
  const title = h('h1', {'data-test': 'learn-title'})
  const side = h('ol', {class: 'learn-lessons', 'data-test': 'learn-lessons'})
  const count = h('p', {class: 'learn-count', 'data-test': 'learn-progress'})
  const heading = h('h2', {class: 'learn-heading', 'data-test': 'learn-heading'})
  const text = h('p', {class: 'learn-text', 'data-test': 'learn-text'})
  const boardBox = h('div', {class: 'learn-board board-box', 'data-test': 'board'})
  const feedback = h('div', {class: 'learn-feedback', role: 'status', 'aria-live': 'polite', 'data-test': 'learn-feedback'})
  const hintBox = h('div', {class: 'learn-hints', 'data-test': 'learn-hints', hidden: true})
  const actions = h('div', {class: 'learn-actions', 'data-test': 'learn-actions'})
  // Wide screens: the board on the left, the step's words beside it, so a
  // click's explanation is seen without scrolling; phones: the words, the
  // board, then the explanation right under it.
  main.append(gameNav(game, '#/learn/'), title,
    h('div', {class: 'learn-layout'},
      h('div', {class: 'learn-task'}, heading, text),
      boardBox,
      h('div', {class: 'learn-answer'}, feedback, actions, hintBox),
      h('aside', {class: 'learn-side'}, h('h2', {}, t('learn.lessons')), side, count,
        h('p', {}, h('button', {type: 'button', class: 'subtle', 'data-test': 'learn-reset', onclick: () => {
          progress.reset('learn', game)
          show(0)
        }}, t('learn.reset'))),
        PUZZLE_GAMES.includes(game) ? h('p', {}, h('a', {href: '#/puzzles/' + game}, t('learn.puzzles', {game: gameTitle(game)}))) : null,
        h('p', {}, h('a', {href: '#/rules/' + game}, t('game.rules'))))))

  function renderSide() {
    const finished = progress.done('learn', game)
    clear(side)
    for (const lesson of course.lessons) {
      const keys = lesson.steps.map((_, i) => lesson.id + '/' + i)
      const first = steps.findIndex((s) => s.key === keys[0])
      const here = steps[current] && steps[current].lesson === lesson
      side.append(h('li', {class: (here ? 'here' : '') + (keys.every((k) => finished.has(k)) ? ' done' : ''), 'data-lesson': lesson.id},
        h('a', {href: '#', 'aria-current': here ? 'step' : null, onclick: (ev) => {
          ev.preventDefault()
          show(first)
        }}, pick(lesson.title)),
        h('span', {class: 'learn-dots', 'aria-hidden': 'true'}, keys.map((k) => finished.has(k) ? '●' : '○').join(''))))
    }
    count.textContent = t('learn.progress', {done: steps.filter((s) => finished.has(s.key)).length, total: steps.length})
  }

  function seats(seat, n) {
    return Array.from({length: n}, (_, i) => i === seat ? {kind: 'human', user: t('learn.you'), seat: i} : {kind: 'human', user: t('learn.opponent'), seat: i})
  }

  function stop() {
    if (channel) channel.destroy()
    channel = null
    if (board) board.destroy()
    board = null
  }

  /** startQuery is the rules query that reaches the start of step i (a continued step replays its chain). */
  function startQuery(i) {
    let first = i
    while (first > 0 && steps[first].step.continue) first--
    const base = steps[first].step
    const q = base.position ? {position: base.position} : {options: base.options || {}, seed: base.seed || 0}
    const moves = [...(base.moves || [])]
    for (let j = first; j < i; j++) moves.push(steps[j].step.accept[0], ...(steps[j].step.reply || []))
    q.moves = moves
    q.seat = steps[i].step.seat || 0
    return q
  }

  async function show(i) {
    stop()
    current = Math.max(0, Math.min(i, steps.length - 1))
    const {lesson, step, n, total} = steps[current]
    heading.textContent = pick(lesson.title) + ' · ' + t('learn.step', {n, total})
    text.textContent = pick(step.text)
    clear(feedback)
    clear(actions)
    hintBox.hidden = true
    renderSide()
    if (step.game) {
      showGameStep(step)
      return
    }
    try {
      const q = startQuery(current)
      const ans = await ask(game, q)
      live = {step, seat: q.seat, position: ans.position, answer: ans, n: ans.seatNames.length}
      board = new games[game].Board(boardBox, {interactive: true, onMove: (mv) => tryMove(mv)})
      setBoard(ans, true, [])
    } catch (e) {
      boardBox.replaceChildren(errorBox(e))
    }
  }

  function setBoard(ans, interactive, moves) {
    const tries = (live.step.tries || []).map((x) => x.move)
    const legal = interactive && ans.toMove === live.seat ? [...ans.legal, ...tries.filter((m) => !ans.legal.includes(m))] : null
    board.props.interactive = interactive
    board.set({view: ans.view, legal, seat: live.seat, seats: seats(live.seat, live.n), moves, status: ans.status === 'ongoing' ? 'live' : 'finished', fresh: moves.length > 0})
  }

  function accepted(mv) {
    const step = live.step
    if (step.goal === 'any') return live.answer.legal.includes(mv)
    return (step.accept || []).includes(mv)
  }

  async function tryMove(mv) {
    const step = live.step
    clear(feedback)
    try {
      if (accepted(mv)) {
        const ans = await ask(game, {position: live.position, moves: [mv, ...(step.reply || [])], seat: live.seat})
        const moves = [{seat: live.seat, move: mv}, ...(step.reply || []).map((r) => ({seat: 1 - live.seat, move: r}))]
        setBoard(ans, false, moves)
        succeed()
        return
      }
      const ans = await ask(game, {position: live.position, move: mv, seat: live.seat})
      const why = (step.tries || []).find((x) => x.move === mv)
      if (ans.move && !ans.move.legal) {
        feedback.append(h('p', {class: 'learn-wrong', 'data-test': 'learn-wrong'}, why ? pick(why.why) : t('learn.wrongTry')),
          h('p', {class: 'learn-engine', lang: 'en', 'data-test': 'learn-engine'}, t('learn.engine', {reason: reason(ans.move.error.message)})))
      } else {
        feedback.append(h('p', {class: 'learn-wrong', 'data-test': 'learn-wrong'}, step.wrong ? pick(step.wrong) : t('learn.notTask')))
      }
      setBoard(live.answer, true, [])
    } catch (e) {
      feedback.replaceChildren(errorBox(e))
      setBoard(live.answer, true, [])
    }
  }

  function succeed() {
    const {step, key} = steps[current]
    progress.mark('learn', game, key)
    renderSide()
    feedback.replaceChildren(h('p', {class: 'learn-done', 'data-test': 'learn-done'}, pick(step.done)))
    clear(actions)
    if (current + 1 < steps.length) {
      const next = h('button', {type: 'button', class: 'primary', 'data-test': 'learn-next', onclick: () => show(current + 1)}, t('learn.next'))
      actions.append(next)
      next.focus({preventScroll: true})
    }
    actions.append(h('button', {type: 'button', 'data-test': 'learn-again', onclick: () => show(current)}, t('learn.again')))
  }

  function showGameStep(step) {
    const start = h('button', {type: 'button', class: 'primary', 'data-test': 'learn-start-game', onclick: async () => {
      start.disabled = true
      try {
        await session.ensure()
        const res = await api.createGame({game, options: {},
          seats: [{kind: 'me'}, {kind: 'bot', level: step.game}]})
        playGame(res.game.id)
      } catch (e) {
        start.disabled = false
        feedback.replaceChildren(errorBox(e))
      }
    }}, t('learn.startGame'))
    actions.append(start)
  }

  /** playGame follows a real game against the bot, with hints before each of the user's turns. */
  function playGame(id) {
    const g = {summary: null, seat: -1, moves: [], view: null, legal: null}
    clear(actions)
    hintBox.hidden = false
    board = new games[game].Board(boardBox, {interactive: true, onMove: (mv) => {
      clear(feedback)
      if (!channel.send({type: 'move', ply: g.moves.length, move: mv})) feedback.replaceChildren(h('p', {class: 'error'}, t('game.conn.closed')))
    }})
    const resign = h('button', {type: 'button', 'data-test': 'learn-resign', onclick: () => {
      if (confirm(t('learn.resignConfirm'))) channel.send({type: 'resign'})
    }}, t('learn.resign'))
    actions.append(resign)
    const render = (fresh) => {
      if (!g.summary || !g.view) return
      const liveNow = g.summary.status === 'live'
      board.set({view: g.view, legal: liveNow ? g.legal : null, seat: g.seat, seats: g.summary.seats, moves: g.moves, status: g.summary.status, fresh})
      clear(hintBox)
      hintBox.append(h('h3', {}, t('learn.hints')))
      if (liveNow) for (const line of hints(game, g.view, g.legal)) hintBox.append(h('p', {}, line))
      if (g.summary.result || !liveNow) {
        resign.remove()
        hintBox.hidden = true
        progress.mark('learn', game, steps[current].key)
        renderSide()
        feedback.replaceChildren(h('p', {class: 'learn-done', 'data-test': 'learn-game-over'},
          resultText(g.summary, g.seat) + ' ' + t('learn.gameOver', {game: gameTitle(game)})))
      }
    }
    channel = new GameChannel(id, {onMessage(msg) {
      switch (msg.type) {
        case 'snapshot':
          Object.assign(g, {summary: msg.game, seat: msg.seat, moves: msg.moves || [], view: msg.view || null, legal: msg.legal || null})
          render(false)
          break
        case 'move':
          if (!g.summary || msg.ply !== g.moves.length) {
            channel.resync()
            return
          }
          g.moves.push({ply: msg.ply, seat: msg.seat, move: msg.move})
          g.view = msg.view || g.view
          g.legal = msg.legal || null
          render(true)
          break
        case 'end':
          g.summary = msg.game
          g.legal = null
          render(false)
          break
        case 'error':
          feedback.replaceChildren(h('p', {class: 'error', role: 'alert'}, errorText(msg.error)))
          if (msg.error && msg.error.code === 'stale_ply') channel.resync()
          else render(false)
          break
      }
    }})
  }

  loadData('lessons/' + game + '.json').then((c) => {
    course = c
    steps = flatten(c)
    title.textContent = pick(c.title)
    document.title = pick(c.title) + ' · Tabula'
    const finished = progress.done('learn', game)
    const next = steps.findIndex((s) => !finished.has(s.key))
    show(next < 0 ? 0 : next)
  }).catch((e) => main.append(errorBox(e)))

  return {
    destroy: stop,
    relang() {
      // the texts change language; the step starts again
      const keep = current
      stop()
      clear(main)
      const again = learnPage(main, [game])
      this.destroy = again.destroy
      this.relang = again.relang
      if (keep >= 0) again.goto(keep)
    },
    goto(i) {
      if (course) show(i)
      else setTimeout(() => this.goto(i), 50)
    },
  }
}
