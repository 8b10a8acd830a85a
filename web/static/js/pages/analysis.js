// The analysis board (#/analysis/<game>, or ?game=<id>&ply=<n> for a game
// of the site): step through a game and branch freely — every move tried is
// kept in a tree of variations —, with the server's engine searching the
// position shown (evaluation bar, three lines with visit shares, Sploof's
// proofs, a stop button), and a position editor. Positions come from the
// rules endpoint; the board offers exactly its legal moves.

import {h, clear} from '../dom.js'
import {t} from '../i18n.js'
import {api} from '../api.js'
import * as catalog from '../catalog.js'
import {games} from '../games/registry.js'
import {sideName} from '../seats.js'
import {ask} from '../lessons/rules.js'
import {errorBox, errorText, gameTitle} from '../components/common.js'
import {stepper, stepKeys} from '../components/movelist.js'
import {Tree, renderTree} from '../components/analysistree.js'
import {Engine, evalBar, renderReport} from '../components/analysisengine.js'
import {openEditor} from '../components/analysiseditor.js'

export function analysisPage(main, [game], query) {
  if (!catalog.analysable(game)) {
    main.append(h('h1', {}, t('notFound.title')), h('p', {}, t('analysis.onlyOpen', {games: catalog.analysisGames().map(gameTitle).join(', ')})))
    return null
  }
  const fromGame = query.get('game')
  let tree = null
  let board = null
  let editor = null
  let engineOn = true
  let shown = null // the node on the board
  const title = h('h1', {}, t('analysis.title', {game: gameTitle(game)}))
  const source = h('p', {class: 'muted', 'data-test': 'analysis-source'})
  const err = h('div')
  const boardBox = h('div', {class: 'board-box'})
  const bar = h('div', {class: 'eval-bar', 'data-test': 'eval-bar'})
  const info = h('div', {class: 'side-info'})
  const treeBox = h('div', {class: 'analysis-tree', 'data-test': 'analysis-tree'})
  const report = h('div', {class: 'engine-report', 'data-test': 'engine-report'})
  const engineState = h('p', {class: 'engine-state', role: 'status', 'data-test': 'engine-state'})
  const toggle = h('button', {type: 'button', 'data-test': 'engine-toggle', onclick: () => setEngine(!engineOn)})
  const editorBox = h('div', {class: 'editor-box'})
  const steps = stepper(go)
  steps.where.dataset.test = 'analysis-ply'
  const tools = h('div', {class: 'analysis-tools'},
    h('button', {type: 'button', 'data-test': 'editor-open', onclick: () => edit()}, t('editor.open')),
    h('button', {type: 'button', 'data-test': 'variation-remove', onclick: () => removeVariation()}, t('analysis.removeVariation')),
    h('button', {type: 'button', 'data-test': 'variation-promote', onclick: () => promote()}, t('analysis.promote')))
  const others = h('nav', {class: 'rules-nav analysis-games', 'aria-label': t('analysis.games')}, catalog.analysisGames().map((g) =>
    h('a', {href: '#/analysis/' + g, 'aria-current': g === game && !fromGame ? 'page' : null}, gameTitle(g))))
  main.append(others, title, source, err, editorBox, h('div', {class: 'game-layout analysis-layout'},
    h('div', {class: 'game-main analysis-main'}, bar, boardBox),
    h('div', {class: 'game-controls'}, steps.el),
    h('aside', {class: 'game-side'},
      h('div', {class: 'engine-head'}, h('h2', {}, t('analysis.engine')), toggle), engineState, report,
      h('h2', {}, t('analysis.moves')), treeBox, tools, info)))
  const unkeys = stepKeys(go)

  const engine = new Engine({
    onReport: (rep) => {
      if (!shown) return
      renderReport(report, rep, playLine)
      const win0 = rep.toMove === 0 ? rep.win : 1 - rep.win
      evalBar(bar, win0, names(shown.ans))
      engineState.textContent = rep.done ? t('analysis.finished') : t('analysis.searching')
    },
    onState: (state, detail) => {
      if (state === 'starting') engineState.textContent = t('analysis.starting')
      if (state === 'running') engineState.textContent = t('analysis.searching')
      if (state === 'queued') engineState.textContent = t('analysis.queued', {n: detail.place})
      if (state === 'yielded') engineState.textContent = t('analysis.yielded')
      if (state === 'stopped') engineState.textContent = t('analysis.stopped')
      if (state === 'error') engineState.textContent = t('analysis.failed', {reason: errorText(detail)})
    },
  })

  function names(ans) {
    return (ans.seatNames || []).map((n) => sideName(n))
  }

  function setEngine(on) {
    engineOn = on
    toggle.textContent = on ? t('analysis.stop') : t('analysis.start')
    toggle.classList.toggle('primary', !on)
    if (!on) engine.stop()
    else if (shown) analyse(shown)
  }

  function analyse(node) {
    clear(report)
    evalBar(bar, null, [])
    if (node.ans.status !== 'ongoing') {
      engine.halt()
      engineState.textContent = t('analysis.over')
      return
    }
    if (engineOn) engine.analyse(game, node.ans.position)
    else engineState.textContent = t('analysis.stopped')
  }

  /** answer is the rules endpoint's answer for node, asked once. */
  async function answer(node) {
    if (!node.ans) {
      const path = tree.path(node).map((n) => n.move)
      node.ans = await ask(game, {position: tree.root.ans.position, moves: path})
    }
    return node.ans
  }

  async function show(node) {
    tree.cur = node
    renderTree(treeBox, tree, show)
    let ans
    try {
      ans = await answer(node)
    } catch (e) {
      err.replaceChildren(errorBox(e))
      return
    }
    if (tree.cur !== node) return
    err.replaceChildren()
    const forward = shown && node.parent === shown
    shown = node
    steps.where.textContent = t('analysis.at', {ply: node.ply})
    if (!board) board = new games[game].Board(boardBox, {interactive: true, study: true, onMove: (mv) => play([mv]), infoHost: info, levels: true})
    const path = tree.path(node)
    // No players here: the sides are named by the boards themselves.
    const seats = (ans.seatNames || []).map((name, i) => ({kind: 'study', seat: i, name}))
    board.set({view: ans.view, legal: ans.status === 'ongoing' ? ans.legal : null, seat: ans.toMove, seats,
      moves: path.map((n) => ({ply: n.ply - 1, seat: n.seat >= 0 ? n.seat : (n.parent.ans ? n.parent.ans.toMove : 0), move: n.move})), status: ans.status === 'ongoing' ? 'live' : 'finished', fresh: forward})
    analyse(node)
  }

  /** play adds moves after the node shown (a variation where they leave the line) and shows the last. */
  async function play(moves) {
    let node = tree.cur
    for (const mv of moves) {
      const ans = await answer(node).catch(() => null)
      if (!ans) return
      let canonical = mv
      if (!ans.legal.includes(mv)) {
        try {
          const a = await ask(game, {position: ans.position, move: mv})
          if (!a.move || !a.move.legal) {
            err.replaceChildren(errorBox({message: a.move ? a.move.error.message : mv}))
            return
          }
          canonical = a.move.canonical
        } catch (e) {
          err.replaceChildren(errorBox(e))
          return
        }
      }
      node = tree.add(node, canonical, ans.toMove)
    }
    show(node)
  }

  function playLine(moves) {
    play(moves)
  }

  function go(step) {
    if (!tree) return
    const c = tree.cur
    const to = {first: tree.root, prev: c.parent || c, next: c.children[0] || c, last: tree.mainEnd(c)}[step]
    if (to && to !== c) show(to)
  }

  function removeVariation() {
    const c = tree.cur
    if (!c.parent) return
    const parent = c.parent
    tree.remove(c)
    show(parent)
  }

  function promote() {
    // The variation's first move is promoted: the node where the line
    // left its parent's main line.
    let n = tree.cur
    while (n.parent && n.parent.children[0] === n) n = n.parent
    if (!n.parent) return
    tree.promote(n)
    renderTree(treeBox, tree, show)
  }

  function edit() {
    if (editor) return
    const from = (shown && shown.ans) || tree.root.ans
    editor = openEditor(editorBox, game, from.position, {
      use: (ans) => {
        closeEditor()
        source.textContent = t('analysis.fromEditor')
        tree = new Tree(ans)
        show(tree.root)
      },
      close: closeEditor,
    })
  }

  function closeEditor() {
    if (editor) editor.destroy()
    editor = null
    clear(editorBox)
  }

  async function load() {
    try {
      if (fromGame) {
        const rec = await api.record(fromGame)
        if (rec.game !== game) throw new Error(t('analysis.wrongGame'))
        const root = await ask(game, rec.start ? {position: rec.start} : {options: rec.options, seed: Number(rec.seed || 0)})
        tree = new Tree(root)
        let n = tree.root
        for (const m of rec.moves || []) n = tree.add(n, m.move, m.seat)
        source.replaceChildren(h('span', {}, t('analysis.fromGame'), ' ', h('a', {href: '#/game/' + encodeURIComponent(fromGame)}, fromGame),
          rec.status === 'finished' || rec.status === 'imported' ?
            [' · ', h('a', {href: '#/review/' + encodeURIComponent(fromGame), 'data-test': 'review-link'}, t('analysis.reviewLink'))] : null))
        const ply = Number(query.get('ply'))
        show(Number.isFinite(ply) && query.has('ply') ? tree.atPly(ply) : tree.root)
      } else {
        // ?moves=e5+d4: a move list, played from the start and checked by
        // the rules endpoint (an illegal move is refused with its reason).
        const list = (query.get('moves') || '').split(/[\s,]+/).filter(Boolean)
        const root = await ask(game, {})
        tree = new Tree(root)
        source.textContent = t('analysis.fromStart')
        if (list.length) {
          const ans = await ask(game, {moves: list})
          let n = tree.root
          let seat = root.toMove
          for (const mv of list) {
            n = tree.add(n, mv, seat)
            seat = -1 // the seats of later moves are known once their positions are asked
          }
          n.ans = ans
          source.textContent = t('analysis.fromMoves')
          show(n)
        } else show(tree.root)
      }
    } catch (e) {
      err.replaceChildren(errorBox(e))
    }
  }

  setEngine(true)
  load()
  return {
    destroy() {
      unkeys()
      engine.destroy()
      closeEditor()
      if (board) board.destroy()
    },
  }
}
