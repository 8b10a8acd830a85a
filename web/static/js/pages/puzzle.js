// Puzzles (#/puzzles/<game>): positions from games between bots in which
// exactly one move wins by force within a few plies (learn/puzzles/<game>.json,
// each proved by an exhaustive search in the Go tests), or, for Skyjo, a
// decision posed from the player's seat whose best choice is proved on
// average over the cards nobody sees (learn/decide.go; any move of that
// choice solves it, pz.accept). The learner plays on the real board; the
// server's rules endpoint judges each try; a hint and the whole winning
// line are there on request; solved puzzles are remembered in this browser.
//
// Rated puzzles (issue 27.8, docs/api.md "Puzzles"): every answer goes to
// the server (POST /api/puzzles/…/attempt), which judges it; a registered
// player's first attempt at a puzzle rates the player and the puzzle
// (Glicko-2), a guest's is kept unrated (the page says so). The bar above
// the board shows both ratings and leads to the next rated puzzle, the
// streak (?mode=streak: rising difficulty until the first miss), the daily
// puzzle (#/puzzles/daily) and the player's history.

import {h, clear} from '../dom.js'
import {t} from '../i18n.js'
import {games} from '../games/registry.js'
import {errorBox, gameTitle} from '../components/common.js'
import {provisionalNote} from '../components/players.js'
import {cta} from '../lessons/text.js'
import {ask, loadData, reason} from '../lessons/rules.js'
import * as progress from '../lessons/progress.js'
import {api} from '../api.js'
import * as session from '../session.js'
import {fmtTime} from '../dom.js'
import {lang} from '../i18n.js'

const PUZZLE_GAMES = ['sgolte', 'sploof', 'skjuub', 'skyjo']

/** hintText says something true about the winning move without giving it away. */
function hintText(game, move, kind) {
  if (game === 'skyjo') return t(move.startsWith('swap') ? 'puzzle.skyjo.hintKeep' : 'puzzle.skyjo.hintFlip')
  if (game === 'skjuub') {
    if (kind === 'capture-chain') return t('puzzle.skjuub.hintChain')
    if (kind === 'sacrifice') return t('puzzle.skjuub.hintSacrifice')
    if (move.includes('~')) return t('puzzle.skjuub.hintTumble')
    if (move.includes('-')) return t('puzzle.skjuub.hintSlide')
    if (/^[a-f][1-6][NESW]$/.test(move)) return t('puzzle.skjuub.hintPlace')
    return t('puzzle.hintSpecial', {move})
  }
  if (game === 'sploof') {
    if (move.startsWith('*')) return t('puzzle.sploof.hintRemove')
    return t('puzzle.sploof.hintLevel', {level: move[0]})
  }
  const m = /^([a-z])\d+(?:\((.*)\))?$/.exec(move)
  if (m && m[2]) return t('puzzle.sgolte.hintFlips', {n: m[2].split(',').length})
  if (m) return t('puzzle.sgolte.hintRow', {row: m[1]})
  return t('puzzle.hintSpecial', {move})
}

/** shownRating is a rating as the site shows it: a ? when provisional. */
function shownRating(r) {
  return r ? String(Math.round(r.rating)) + (r.provisional ? '?' : '') : '–'
}

/** delta is a rating change with its sign. */
function delta(ch) {
  const d = Math.round(ch.after - ch.before)
  return (d > 0 ? '+' : d < 0 ? '−' : '±') + Math.abs(d)
}

/** dailyPage (#/puzzles/daily) opens today's puzzle in its game's page. */
function dailyPage(main) {
  api.puzzleDaily().then((d) => {
    location.replace('#/puzzles/' + d.game + '?n=' + d.n + '&mode=daily')
  }).catch((e) => main.append(errorBox(e)))
  return null
}

export function puzzlePage(main, [game], query) {
  if (game === 'daily') return dailyPage(main)
  if (!game) game = PUZZLE_GAMES[0] // the menu's Puzzles: the first game's
  if (!PUZZLE_GAMES.includes(game)) {
    main.append(h('h1', {}, t('notFound.title')))
    return null
  }
  let set = null
  let index = 0
  let board = null
  let cur = null // {pz, answer, seat}
  // The rated part: the server's view of this game's puzzles and of the
  // player; mode is 'rated', 'daily' or 'streak'.
  const mode = ['streak', 'daily'].includes(query && query.get('mode')) ? query.get('mode') : 'rated'
  let rated = null // GET /api/puzzles/{game}: {player, puzzles}
  let streak = null // {current, best, puzzle, n, over}
  let tried = null // the current puzzle's first attempt is stored: no more rating
  const myRating = h('span', {'data-test': 'puzzle-my-rating'})
  const pzRating = h('span', {'data-test': 'puzzle-rating'})
  const ratedNote = h('p', {class: 'muted puzzle-note', 'data-test': 'puzzle-rated-note'})
  const provBox = h('div', {class: 'puzzle-provisional'}) // what a "?" in the ratings means, when one is shown
  const streakBox = h('p', {class: 'puzzle-streak', 'data-test': 'puzzle-streak', hidden: mode === 'rated'})
  const historyBox = h('details', {class: 'puzzle-history', 'data-test': 'puzzle-history'},
    h('summary', {}, t('puzzle.history')), h('div', {'data-test': 'puzzle-history-list'}))
  historyBox.addEventListener('toggle', () => { if (historyBox.open) loadHistory() })
  const ratedBar = h('div', {class: 'puzzle-bar', 'data-test': 'puzzle-bar'},
    h('p', {class: 'puzzle-ratings'}, myRating, ' · ', pzRating),
    provBox,
    h('div', {class: 'puzzle-modes'},
      h('a', {class: 'button', href: '#/puzzles/' + game + '?mode=rated&next=1', 'data-test': 'puzzle-next-rated', onclick: (ev) => { ev.preventDefault(); nextRated() }}, t('puzzle.nextRated')),
      h('a', {class: 'button', href: '#/puzzles/' + game + '?mode=streak', 'data-test': 'puzzle-streak-start', 'aria-current': mode === 'streak' ? 'page' : null}, t('puzzle.streak')),
      h('a', {class: 'button', href: '#/puzzles/daily', 'data-test': 'puzzle-daily', 'aria-current': mode === 'daily' ? 'page' : null}, t('puzzle.daily'))),
    ratedNote, streakBox)
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
  title, h('p', {class: 'lead'}, t(game === 'skyjo' ? 'puzzle.skyjo.lead' : 'puzzle.lead')),
  // the ratings and modes beside the board, after the task, not above it: the board is in view when the page opens (learn.css)
  h('div', {class: 'learn-layout puzzle-layout'},
    ratedBar,
    h('div', {class: 'learn-task'}, heading, task),
    boardBox,
    h('div', {class: 'learn-answer'}, feedback, actions),
    h('aside', {class: 'learn-side'}, historyBox, list, count, h('p', {}, h('a', {href: '#/learn/' + game}, cta(game, gameTitle(game)))))))

  /** loadRated reads the ratings; the bar shows the player's and the current puzzle's. */
  async function loadRated() {
    try {
      rated = await api.puzzleSet(game)
    } catch (e) {
      ratedNote.replaceChildren(errorBox(e))
      return
    }
    renderBar()
  }

  function ratedItem(pz) {
    return rated && pz ? rated.puzzles.find((p) => p.id === pz.id) : null
  }

  function renderBar() {
    if (!rated) return
    const me = rated.player
    myRating.textContent = t('puzzle.myRating', {rating: me && me.rated ? shownRating(me.rating) : '–'})
    const item = ratedItem(cur && cur.pz)
    pzRating.textContent = item ? t('puzzle.puzzleRating', {rating: shownRating(item.rating)}) : ''
    ratedNote.textContent = me && me.rated ? t('puzzle.ratedNote') : t('puzzle.guestNote')
    const shown = [me && me.rated ? me.rating : null, item ? item.rating : null].filter((r) => r && typeof r.rating === 'number')
    provBox.replaceChildren(provisionalNote(shown) || '')
    if (mode === 'daily') streakBox.textContent = t('puzzle.dailyNow')
    if (mode === 'streak' && streak) {
      streakBox.textContent = streak.over
        ? t('puzzle.streakOver', {n: streak.current, best: streak.best})
        : t('puzzle.streakNow', {n: streak.current, best: streak.best})
    }
    if (set) renderList()
  }

  /** nextRated opens the untried puzzle rated nearest the player. */
  function nextRated() {
    if (!rated || !set) return
    const mine = rated.player && rated.player.rated ? rated.player.rating.rating : 1500
    const open = rated.puzzles.filter((p) => !p.tried && !(cur && p.id === cur.pz.id))
    if (!open.length) return
    open.sort((a, b) => Math.abs(a.rating.rating - mine) - Math.abs(b.rating.rating - mine) || a.n - b.n)
    location.hash = '#/puzzles/' + game + '?n=' + open[0].n
  }

  async function loadHistory() {
    const box = historyBox.lastChild
    if (!session.current()) {
      box.replaceChildren(h('p', {class: 'muted'}, t('puzzle.historyEmpty')))
      return
    }
    try {
      const res = await api.puzzleHistory({limit: 30})
      if (!res.attempts.length) {
        box.replaceChildren(h('p', {class: 'muted'}, t('puzzle.historyEmpty')))
        return
      }
      box.replaceChildren(h('ol', {class: 'puzzle-history-list'}, res.attempts.map((a) => h('li', {'data-test': 'puzzle-history-item'},
        h('a', {href: '#/puzzles/' + a.game + '?n=' + a.n}, t('puzzle.historyItem', {game: gameTitle(a.game), n: a.n})), ' ',
        h('span', {class: a.solved ? 'good' : 'bad'}, t(a.solved ? 'puzzle.historySolved' : 'puzzle.historyMissed')), ' ',
        h('span', {class: 'muted'}, a.player ? t('puzzle.historyRated', {before: Math.round(a.player.before), after: Math.round(a.player.after), delta: delta(a.player)}) : t('puzzle.historyUnrated')),
        ' ', h('span', {class: 'muted'}, fmtTime(a.at, lang()))))))
    } catch (e) {
      box.replaceChildren(errorBox(e))
    }
  }

  /**
   * send hands an answer (or giving up) to the server; it resolves with the
   * judgement and says what it did to the ratings. The streak has its own
   * endpoint: its answer also moves the streak on or ends it.
   */
  async function send(body) {
    await session.ensure()
    const res = mode === 'streak'
      ? await api.puzzleStreakAttempt(game, {puzzle: cur.pz.id, ...body})
      : await api.puzzleAttempt(game, cur.pz.id, {...body, mode: mode === 'daily' ? 'daily' : 'rated'})
    tried = true
    if (res.streak) streak = {...res.streak, over: !res.streak.puzzle || !res.correct}
    await loadRated()
    return res
  }

  /** ratingLine says what the attempt did to the player's and the puzzle's ratings. */
  function ratingLine(res) {
    if (res.rated) return h('p', {class: 'puzzle-change', 'data-test': 'puzzle-change'}, t('puzzle.change', {before: Math.round(res.player.before), after: Math.round(res.player.after), delta: delta(res.player), pbefore: Math.round(res.puzzle.before), pafter: Math.round(res.puzzle.after)}))
    if (rated && rated.player && !rated.player.rated) return h('p', {class: 'muted', 'data-test': 'puzzle-change'}, t('puzzle.guestNote'))
    return h('p', {class: 'muted', 'data-test': 'puzzle-change'}, t('puzzle.notRatedAgain'))
  }

  function renderList() {
    const solved = progress.done('puzzles', game)
    // A signed-in player's attempts come from the server: a miss is marked too.
    const server = new Map(rated ? rated.puzzles.filter((p) => p.tried).map((p) => [p.id, p.tried]) : [])
    for (const [id, how] of server) if (how === 'solved') solved.add(id)
    clear(list)
    set.puzzles.forEach((pz, i) => list.append(h('li', {}, h('a', {href: '#/puzzles/' + game + '?n=' + (i + 1),
      class: solved.has(pz.id) ? 'solved' : server.get(pz.id) === 'missed' ? 'missed' : '', 'aria-current': i === index ? 'page' : null, 'data-test': 'puzzle-' + (i + 1),
      'aria-label': t('puzzle.of', {n: i + 1, total: set.puzzles.length})}, String(i + 1)))))
    count.textContent = t('puzzle.solvedCount', {done: set.puzzles.filter((p) => solved.has(p.id)).length, total: set.puzzles.length})
  }

  function seats(seat, n) {
    return Array.from({length: n}, (_, i) => ({kind: 'human', user: i === seat ? t('learn.you') : t('learn.opponent'), seat: i}))
  }

  function setBoard(ans, interactive, moves) {
    board.set({view: ans.view, legal: interactive ? ans.legal : null, seat: cur.seat, seats: seats(cur.seat, ans.seatNames.length), moves, status: ans.status === 'ongoing' ? 'live' : 'finished', fresh: moves.length > 0})
  }

  /** taskText: Sgolte and Sploof name a side by colour, Skjuub and Skyjo by seat; a Skjuub bonus action is a ply of the same side, a Skyjo puzzle is one decision. */
  function taskText(ans, pz) {
    const name = ans.seatNames[ans.toMove]
    if (game === 'skyjo') return t('puzzle.skyjo.task', {side: t('seat.player', {n: name}), card: ans.view.held})
    if (game === 'skjuub') return t('puzzle.skjuub.task', {side: t('seat.player', {n: name}), plies: pz.plies})
    return t('puzzle.task', {side: t('colour.' + name), plies: pz.plies, moves: Math.ceil(pz.plies / 2)})
  }

  async function show(i) {
    if (board) board.destroy()
    board = null
    index = Math.max(0, Math.min(i, set.puzzles.length - 1))
    const pz = set.puzzles[index]
    // A streak's puzzle waits for its answer even when tried before: its
    // solution, asked for, is that answer (a miss that ends the streak).
    tried = mode !== 'streak' && rated && ratedItem(pz) ? Boolean(ratedItem(pz).tried) : false
    renderList()
    heading.textContent = t('puzzle.of', {n: index + 1, total: set.puzzles.length})
    clear(feedback)
    clear(actions)
    try {
      const ans = await ask(game, {position: pz.position})
      cur = {pz, answer: ans, seat: ans.toMove}
      task.textContent = taskText(ans, pz)
      renderBar()
      board = new games[game].Board(boardBox, {interactive: true, onMove: tryMove})
      setBoard(ans, true, [])
      actions.append(...[
        // A hint or the solution before any answer gives the puzzle up: a miss.
        mode === 'streak' ? null : h('button', {type: 'button', 'data-test': 'puzzle-hint', title: t('puzzle.giveUpNote'), onclick: async () => {
          try {
            const res = tried ? null : await send({giveUp: true})
            feedback.replaceChildren(h('p', {class: 'learn-hint', 'data-test': 'puzzle-hint-text'}, hintText(game, pz.line[0], pz.kind)), ...(res ? [ratingLine(res)] : []))
          } catch (e) {
            feedback.replaceChildren(errorBox(e))
          }
        }}, t('puzzle.hint')),
        h('button', {type: 'button', 'data-test': 'puzzle-solution', title: t('puzzle.giveUpNote'), onclick: async () => {
          try {
            const res = tried ? null : await send({giveUp: true})
            await playLine(false, res)
          } catch (e) {
            feedback.replaceChildren(errorBox(e))
          }
        }}, t('puzzle.solution')),
        mode !== 'streak' && index > 0 ? h('button', {type: 'button', onclick: () => show(index - 1)}, t('puzzle.prev')) : null,
        mode !== 'streak' && index + 1 < set.puzzles.length ? h('button', {type: 'button', 'data-test': 'puzzle-next', onclick: () => show(index + 1)}, t('puzzle.next')) : null,
      ].filter(Boolean))
    } catch (e) {
      boardBox.replaceChildren(errorBox(e))
    }
  }

  /** playLine shows the winning line on the board; solved: the learner found its first move. */
  async function playLine(solved, res) {
    const pz = cur.pz
    const ans = await ask(game, {position: pz.position, moves: pz.line})
    // The last move's seat: a Skjuub bonus action is the same side's again.
    const last = pz.line.length > 1 ? (await ask(game, {position: pz.position, moves: pz.line.slice(0, -1)})).toMove : cur.seat
    setBoard(ans, false, [{seat: last, move: pz.line[pz.line.length - 1]}])
    const lines = []
    if (solved) {
      progress.mark('puzzles', game, pz.id)
      renderList()
      lines.push(h('p', {class: 'learn-done', 'data-test': 'puzzle-solved'}, game === 'skyjo' ? t('puzzle.skyjo.solved') : t('puzzle.solved', {move: pz.line[0]})))
    }
    const e = pz.expect
    lines.push(h('p', {'data-test': 'puzzle-line'}, e
      ? t('puzzle.skyjo.best', {move: pz.accept.join(' · '), margin: e.margin.toFixed(2), err: e.stderr.toFixed(2), next: e.next, deals: e.deals})
      : t('puzzle.line', {line: pz.line.join(' ')})))
    if (res) lines.push(ratingLine(res))
    if (mode === 'streak' && streak) {
      lines.push(streak.over
        ? h('button', {type: 'button', 'data-test': 'puzzle-streak-again', onclick: () => startStreak()}, t('puzzle.streakAgain'))
        : h('button', {type: 'button', 'data-test': 'puzzle-streak-next', onclick: () => show(streak.n - 1)}, t('puzzle.streakNext')))
    }
    feedback.replaceChildren(...lines)
  }

  async function tryMove(mv) {
    clear(feedback)
    try {
      // An illegal move is explained by the rules engine and is no answer;
      // a legal one goes to the puzzle API, which judges and stores it.
      const legal = await ask(game, {position: cur.pz.position, move: mv})
      if (legal.move && !legal.move.legal) {
        feedback.append(h('p', {class: 'learn-engine', lang: 'en'}, t('learn.engine', {reason: reason(legal.move.error.message)})))
        setBoard(cur.answer, true, [])
        return
      }
      const res = await send({move: mv})
      if (res.correct || mode === 'streak') {
        await playLine(res.correct, res)
        if (!res.correct) feedback.prepend(h('p', {class: 'learn-wrong', 'data-test': 'puzzle-wrong'}, t(game === 'skyjo' ? 'puzzle.skyjo.notIt' : 'puzzle.notIt', {move: mv})))
        return
      }
      feedback.append(h('p', {class: 'learn-wrong', 'data-test': 'puzzle-wrong'}, t(game === 'skyjo' ? 'puzzle.skyjo.notIt' : 'puzzle.notIt', {move: mv})), ratingLine(res))
      setBoard(cur.answer, true, [])
    } catch (e) {
      feedback.replaceChildren(errorBox(e))
      setBoard(cur.answer, true, [])
    }
  }

  /** startStreak starts a new streak and shows its first puzzle. */
  async function startStreak() {
    try {
      await session.ensure()
      const res = await api.puzzleStreak(game)
      streak = {...res.player.streak, over: false}
      await loadRated()
      show(streak.n - 1)
    } catch (e) {
      feedback.replaceChildren(errorBox(e))
    }
  }

  loadData('puzzles/' + game + '.json').then(async (s) => {
    set = s
    await loadRated()
    if (mode === 'streak') {
      startStreak()
      return
    }
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
