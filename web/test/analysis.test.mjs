// The analysis board and the game review: a finished game opens in the
// analysis board with an evaluation and three lines from the server's
// engine, a variation is branched on the board and kept in the tree, the
// engine stops on request, the position editor refuses an impossible
// position with the rules engine's reason and analyses a good one; a game
// review shows marked moves and the win-probability graph, and Skyjo's
// review says it used only each player's own view.

import {test, before, after} from 'node:test'
import assert from 'node:assert/strict'
import path from 'node:path'
import {launch, newPage, assertNoErrors, settled, resize, BASE, SHOTS} from './helpers.mjs'
import {playMove} from './learnhelpers.mjs'

let browser
before(async () => {
  browser = await launch()
})
after(async () => {
  await browser?.close()
})

/**
 * importGame plays a game through the rules endpoint (move k: the legal
 * move at index (7k+3) mod n, or the given moves) and imports it for
 * replay as the page's user (a guest); it returns {id, moves}.
 */
async function importGame(page, game, {options = {}, seed = 1, moves = null, max = 200} = {}) {
  return page.evaluate(async ([game, options, seed, given, max]) => {
    const post = (url, body) => fetch(url, {method: 'POST', headers: {'Content-Type': 'application/json'}, body: JSON.stringify(body)})
      .then(async (r) => {
        const data = await r.json()
        if (!r.ok) throw new Error(url + ': ' + JSON.stringify(data))
        return data
      })
    await fetch('/api/session').then((r) => r.json()).then((s) => s.user || post('/api/guest', {}))
    let moves = given
    if (!moves) {
      moves = []
      let ans = await post('/api/rules/' + game, {options, seed})
      for (let k = 0; ans.status === 'ongoing' && k < max; k++) {
        const mv = ans.legal[(7 * k + 3) % ans.legal.length]
        moves.push(mv)
        ans = await post('/api/rules/' + game, {options, seed, moves})
      }
    }
    const rec = {format: 'tabula-record/1', game, seed: String(seed), options, moves: moves.map((m, i) => ({ply: i, move: m}))}
    const res = await post('/api/records', {record: rec})
    return {id: res.game.id, moves}
  }, [game, options, seed, moves, max])
}

test('a finished Sploof game in the analysis board: evaluation, three lines, a variation, stop, the editor', async () => {
  const page = await newPage(browser, {viewport: {width: 1280, height: 800}})
  await page.goto(BASE + '/')
  const {id, moves} = await importGame(page, 'sploof', {options: {first: 'white'}, moves: ['1c3', '1c5', '1e3', '1e5', '*1a1', '*1a3']})

  // From the game page of the finished game, the Analyse link.
  await page.goto(BASE + '/#/game/' + id)
  await page.click('[data-test=analysis-link]')
  await page.waitForURL(/#\/analysis\/sploof\?game=/)
  await page.waitForFunction(() => document.querySelectorAll('[data-test=engine-line]').length === 3)
  assert.match(await page.textContent('[data-test=engine-eval]'), /^(White|Black) to move: wins \d+%$/)
  assert.equal(await page.textContent('[data-test=analysis-ply]'), 'ply ' + moves.length)
  // The reports keep coming while it searches: the iteration count grows.
  const count = async () => Number((await page.textContent('[data-test=engine-stats]')).replace(/[^\d].*$/, '').replace(/\D/g, ''))
  const first = await count()
  await page.waitForFunction((n) => Number(document.querySelector('[data-test=engine-stats]').textContent.split(' ')[0].replace(/\D/g, '')) > n, first)
  const shares = await page.$$eval('[data-test=engine-line] .lshare', (es) => es.map((e) => parseInt(e.textContent, 10)))
  assert.ok(shares[0] >= shares[1] && shares[1] >= shares[2], 'lines in order of visits: ' + shares)
  await page.screenshot({path: path.join(SHOTS, 'analysis-board.png')})

  // Back one ply with the arrow key, then branch: play a move that is not
  // the game's on the board.
  await page.keyboard.press('ArrowLeft')
  await page.waitForFunction((n) => document.querySelector('[data-test=analysis-ply]').textContent === 'ply ' + n, moves.length - 1)
  const legal = await page.evaluate(([ms]) => fetch('/api/rules/sploof', {method: 'POST', headers: {'Content-Type': 'application/json'},
    body: JSON.stringify({options: {first: 'white'}, seed: 1, moves: ms})}).then((r) => r.json()).then((a) => a.legal), [moves.slice(0, -1)])
  const other = legal.find((m) => m !== moves[moves.length - 1])
  await playMove(page, 'sploof', other, -1)
  await page.waitForSelector('[data-test=variation]')
  // The tree and the ply's label are drawn one after the other: wait for both.
  await page.waitForFunction(([m, n]) => document.querySelector('.tmove.current')?.textContent === m &&
    document.querySelector('[data-test=analysis-ply]').textContent === 'ply ' + n, [moves.length + '.' + other, moves.length])
  // The game's own move is still there: step back and forward along it.
  await page.keyboard.press('ArrowLeft')
  await page.keyboard.press('ArrowRight')
  await page.waitForFunction((m) => document.querySelector('.tmove.current')?.textContent.endsWith(m), moves[moves.length - 1])
  // A line's move is played into the tree too.
  await page.waitForFunction(() => document.querySelectorAll('[data-test=engine-line]').length === 3)

  // Stop: the engine says so and no report comes after.
  await page.click('[data-test=engine-toggle]')
  await page.waitForFunction(() => document.querySelector('[data-test=engine-state]').textContent === 'The engine is stopped.')
  assert.equal(await page.textContent('[data-test=engine-toggle]'), 'Analyse')

  // The editor: an impossible position is refused with the rules engine's
  // reason; a possible one is analysed.
  await page.click('[data-test=editor-open]')
  await page.waitForFunction(() => document.querySelector('[data-test=editor-verdict]')?.textContent === 'The rules accept this position.')
  const before = page.errors.length
  await page.fill('[data-test=editor-level0]', 'RRRR/R..R/R..R/RRR')
  await page.waitForFunction(() => document.querySelector('[data-test=editor-verdict]').textContent.startsWith('The rules refuse this position: '))
  // The rules endpoint refuses with 422, which the browser logs: expected here, and only that.
  const logged = page.errors.splice(before)
  assert.ok(logged.length >= 1 && logged.every((e) => / 422 /.test(e)), 'only the refusal was logged: ' + logged)
  const refused = await page.textContent('[data-test=editor-verdict]')
  assert.ok(refused.length > 'The rules refuse this position: '.length + 5, 'the reason is given: ' + refused)
  assert.doesNotMatch(refused, /invalid position/, 'said once, not again in the engine\'s words: ' + refused)
  assert.ok(await page.isDisabled('[data-test=editor-use]'))
  await page.screenshot({path: path.join(SHOTS, 'analysis-editor.png')})
  await page.click('.editor-raw summary')
  await page.fill('[data-test=editor-json]', JSON.stringify({game: 'sploof', levels: ['RRRR/RW.R/R..R/RRRR', '.../.../...', '../..', '.'],
    toMove: 'black', stock: {white: 1, black: 2}, supply: {white: 14, black: 14}, options: {bothlines: 'mover', first: 'white', supply: 'finite'}, first: 'white'}))
  await page.waitForFunction(() => document.querySelector('[data-test=editor-level0]').value === 'RRRR/RW.R/R..R/RRRR')
  await page.waitForFunction(() => document.querySelector('[data-test=editor-verdict]').textContent === 'The rules accept this position.')
  await page.click('[data-test=editor-use]')
  await page.waitForFunction(() => document.querySelector('[data-test=analysis-source]').textContent === 'From a position set up in the editor.')
  await page.click('[data-test=engine-toggle]')
  await page.waitForFunction(() => document.querySelectorAll('[data-test=engine-line]').length >= 1)
  assertNoErrors(page)
  await page.context().close()
})

test('the analysis board on a phone, from the start of a Sgolte game', async () => {
  const page = await newPage(browser, {viewport: {width: 390, height: 844}})
  await page.goto(BASE + '/#/analysis/sgolte')
  await page.waitForFunction(() => document.querySelectorAll('[data-test=engine-line]').length === 3)
  // A move on the board is analysed in its turn.
  await playMove(page, 'sgolte', 'e5', 0)
  await page.waitForFunction(() => document.querySelector('[data-test=analysis-ply]').textContent === 'ply 1')
  await page.waitForFunction(() => document.querySelectorAll('[data-test=engine-line]').length === 3)
  await settled(page)
  await page.screenshot({path: path.join(SHOTS, 'analysis-board-phone.png'), fullPage: true})
  // From a move list in the address: the position after it, the moves in the tree.
  await page.goto(BASE + '/#/analysis/sploof?moves=1c3+1c5')
  await page.waitForFunction(() => document.querySelector('[data-test=analysis-ply]')?.textContent === 'ply 2')
  assert.equal(await page.textContent('[data-test=analysis-source]'), 'From the start position and the moves given.')
  assert.deepEqual(await page.$$eval('[data-test=tree-move]', (es) => es.map((e) => e.textContent)), ['1.1c3', '2.1c5'])
  await page.waitForFunction(() => document.querySelectorAll('[data-test=engine-line]').length === 3)
  assertNoErrors(page)
  await page.context().close()
})

test('a game review: marked moves, the better move and the graph', async () => {
  const page = await newPage(browser, {viewport: {width: 1280, height: 800}})
  await page.goto(BASE + '/')
  const {id, moves} = await importGame(page, 'sploof', {options: {first: 'white'}, seed: 3})
  await page.goto(BASE + '/#/replay/' + id)
  await page.click('[data-test=review-link]')
  await page.waitForURL(/#\/review\//)
  await page.waitForSelector('[data-test=review-graph] svg path.curve', {timeout: 200000})
  const marked = await page.$$('[data-test=review-marked]')
  assert.ok(marked.length >= 1, 'a game of thoughtless moves has marked moves')
  assert.equal(await page.$$eval('[data-test=review-moves] li', (ls) => ls.length), moves.length + 1)
  assert.ok((await page.$$('[data-test=graph-mark]')).length === marked.length)
  await marked[0].click()
  await page.waitForFunction(() => /better was /.test(document.querySelector('[data-test=review-detail]').textContent))
  assert.ok(await page.isHidden('[data-test=review-note]'))
  await page.screenshot({path: path.join(SHOTS, 'analysis-review.png')})
  // Asked again (on a phone), the review the server kept comes at once.
  await page.setViewportSize({width: 390, height: 844})
  // Kept means the answer to the request holds the review itself: no second run, no progress stream.
  // (Asserted on the answer, not on a clock: the CI machine is loaded.)
  const again = page.waitForResponse((r) => r.request().method() === 'POST' && new URL(r.url()).pathname === `/api/games/${id}/review`)
  await page.reload()
  const kept = await (await again).json()
  assert.ok(kept.review, 'the review asked again comes from the server, not from a new run')
  assert.equal(kept.events, undefined, 'no progress stream for a kept review')
  await page.waitForSelector('[data-test=review-graph] svg path.curve')
  assert.equal(await page.textContent('[data-test=review-progress]'), '')
  await settled(page)
  await page.screenshot({path: path.join(SHOTS, 'analysis-review-phone.png'), fullPage: true})
  assertNoErrors(page)
  await page.context().close()
})

test("Skyjo's review says it judged each decision from its player's own view", async () => {
  const page = await newPage(browser, {viewport: {width: 1280, height: 800}})
  await page.goto(BASE + '/')
  const {id} = await importGame(page, 'skyjo', {options: {players: '2'}, seed: 5, max: 6})
  await page.goto(BASE + '/#/review/' + id)
  await page.waitForSelector('[data-test=review-graph] svg', {timeout: 120000})
  assert.match(await page.textContent('[data-test=review-note]'), /own view only: the review never used the hidden cards/)
  assert.equal(await page.$('[data-test=analysis-link]'), null, 'no analysis board for a game with hidden cards')
  assertNoErrors(page)
  await page.context().close()
})

test("Sploof's start is solved: the board says the second player wins and plays the proof's move", async () => {
  for (const viewport of [{width: 1280, height: 800}, {width: 390, height: 844}]) {
    const page = await newPage(browser, {viewport})
    await page.goto(BASE + '/#/analysis/sploof')
    const solved = '[data-test=engine-solved]'
    await page.waitForSelector(solved)
    // Who begins is drawn (first=random); the other colour wins.
    const first = (await page.textContent('[data-test=engine-eval]')).split(' ')[0]
    const second = first === 'White' ? 'Black' : 'White'
    assert.match(await page.textContent(solved), new RegExp(`^Solved: ${second} wins with best play`))
    assert.equal(await page.$('[data-test=solved-move]'), null, 'no move for the side to move, who loses')
    assert.equal(await page.textContent('[data-test=engine-eval]'), `${first} to move: wins 0%`)
    // The first move, then the proof's answer, played from its button.
    await page.goto(BASE + '/#/analysis/sploof?moves=1c3')
    await page.waitForFunction(() => document.querySelector('[data-test=analysis-ply]')?.textContent === 'ply 1')
    await page.waitForSelector('[data-test=solved-move]')
    const move = await page.textContent('[data-test=solved-move]')
    // Reports come four times a second; the button a player presses stays the same element through them.
    const button = await page.$('[data-test=solved-move]')
    for (let i = 0; i < 2; i++) {
      const stats = await page.textContent('[data-test=engine-stats]')
      await page.waitForFunction((was) => document.querySelector('[data-test=engine-stats]')?.textContent !== was, stats)
    }
    assert.ok(await button.evaluate((el) => el.isConnected), 'the proof\'s move is the same button after two more reports')
    await settled(page)
    await page.screenshot({path: path.join(SHOTS, viewport.width > 500 ? 'analysis-solved.png' : 'analysis-solved-phone.png'), fullPage: viewport.width < 500})
    await page.click('[data-test=solved-move]')
    await page.waitForFunction(() => document.querySelector('[data-test=analysis-ply]')?.textContent === 'ply 2')
    assert.deepEqual(await page.$$eval('[data-test=tree-move]', (es) => es.map((e) => e.textContent)), ['1.1c3', '2.' + move])
    await page.waitForSelector(solved)
    assert.equal(await page.$('[data-test=solved-move]'), null)
    assertNoErrors(page)
    await page.context().close()
  }
})
