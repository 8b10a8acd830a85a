// The puzzles of Skjuub and Skyjo (#/puzzles/skjuub, #/puzzles/skyjo; issue
// 27, point 8). Skjuub: a sacrifice puzzle on the Skjuub board — the task
// counts bonus actions as plies, the hint names the sacrifice, a legal move
// that does not win is refused, the solution solves it and the winning line
// is shown. Skyjo: a decision posed from the seat of the player to move —
// the board shows that seat's view (every face-down card a card back, as
// many as the view has), the task names the held card, a choice that is not
// the best on average is refused, a move that is the same choice as the
// answer from the player's view (another move of pz.accept) solves it, and
// the expected margin over the sampled deals is shown. Each page is
// screenshot to web/test/out/ (docs/screenshots/ with UPDATE_SCREENSHOTS=1).

import {test, before, after} from 'node:test'
import assert from 'node:assert/strict'
import path from 'node:path'
import {launch, newPage, assertNoErrors, settled, BASE, SHOTS} from './helpers.mjs'
import {playMove} from './learnhelpers.mjs'

let browser
before(async () => {
  browser = await launch()
})
after(async () => {
  await browser?.close()
})

function rules(page, game, body) {
  return page.evaluate(([g, b]) => fetch('/api/rules/' + g, {method: 'POST', headers: {'Content-Type': 'application/json'},
    body: JSON.stringify(b)}).then((r) => r.json()), [game, body])
}

test('skjuub: a sacrifice puzzle is solved on the Skjuub board', async () => {
  const page = await newPage(browser)
  await page.goto(BASE + '/#/puzzles/skjuub')
  const set = await page.evaluate(() => fetch('learn/puzzles/skjuub.json').then((r) => r.json()))
  assert.ok(set.puzzles.length >= 200, `${set.puzzles.length} Skjuub puzzles`)
  const n = set.puzzles.findIndex((p) => p.kind === 'sacrifice' && /^[a-f][1-6][-~][a-f][1-6]$/.test(p.line[0]))
  assert.ok(n >= 0, 'no sacrifice puzzle that starts with a slide or a tumble')
  const pz = set.puzzles[n]
  await page.goto(BASE + '/#/puzzles/skjuub?n=' + (n + 1))
  await page.waitForSelector('.board-svg [data-hit]')
  await page.waitForFunction((want) => document.querySelector('[data-test=puzzle-heading]')?.textContent === want, `Puzzle ${n + 1} of ${set.puzzles.length}`)
  const ans = await rules(page, 'skjuub', {position: pz.position})
  assert.equal(await page.textContent('[data-test=puzzle-task]'),
    `Player ${ans.seatNames[ans.toMove]} to move and win within ${pz.plies} plies (each bonus action is a ply too).`)

  await page.click('[data-test=puzzle-hint]')
  assert.equal(await page.textContent('[data-test=puzzle-hint-text]'), 'The winning move is a sacrifice: it earns a bonus action.')

  // A legal slide or tumble that is not the solution does not win by force.
  const wrong = ans.legal.find((m) => m !== pz.line[0] && /^[a-f][1-6][-~][a-f][1-6]$/.test(m))
  assert.ok(wrong, 'no other slide or tumble')
  await playMove(page, 'skjuub', wrong, ans.toMove)
  await page.waitForSelector('[data-test=puzzle-wrong]')
  assert.match(await page.textContent('[data-test=puzzle-wrong]'), new RegExp(`^${wrong} does not win by force`))

  await settled(page)
  await playMove(page, 'skjuub', pz.line[0], ans.toMove)
  await page.waitForSelector('[data-test=puzzle-solved]')
  assert.equal(await page.textContent('[data-test=puzzle-line]'), `The winning line: ${pz.line.join(' ')}.`)
  // The board shows the end of the line: the game won by the solver.
  const end = await rules(page, 'skjuub', {position: pz.position, moves: pz.line})
  assert.equal(end.status, 'won')
  assert.deepEqual(end.winners, [ans.toMove])
  await settled(page)
  await page.evaluate(() => window.scrollTo(0, 0))
  await page.screenshot({path: path.join(SHOTS, 'puzzle-skjuub.png')})
  assertNoErrors(page)
  await page.context().close()
})

test('skyjo: a decision from the player\'s seat, solved by any move of the best choice', async () => {
  const page = await newPage(browser)
  await page.goto(BASE + '/#/puzzles/skyjo')
  const set = await page.evaluate(() => fetch('learn/puzzles/skyjo.json').then((r) => r.json()))
  assert.ok(set.puzzles.length >= 50, `${set.puzzles.length} Skyjo puzzles`)
  for (const p of set.puzzles) {
    assert.ok(p.expect.deals >= 2000 && p.expect.margin > 3 * p.expect.stderr, `${p.id}: ${JSON.stringify(p.expect)}`)
    assert.ok(p.accept.includes(p.line[0]) && !p.accept.includes(p.expect.next), p.id)
  }
  const n = set.puzzles.findIndex((p) => p.accept.length > 1)
  assert.ok(n >= 0, 'no puzzle whose best choice has two moves')
  const pz = set.puzzles[n]
  await page.goto(BASE + '/#/puzzles/skyjo?n=' + (n + 1))
  await page.waitForSelector('.board-svg [data-hit]')
  await page.waitForFunction((want) => document.querySelector('[data-test=puzzle-heading]')?.textContent === want, `Puzzle ${n + 1} of ${set.puzzles.length}`)
  const ans = await rules(page, 'skyjo', {position: pz.position})
  assert.equal(await page.textContent('[data-test=puzzle-task]'),
    `Player ${ans.seatNames[ans.toMove]} to move, holding the card ${ans.view.held}. Which choice is best on average?`)
  assert.match(await page.textContent('.lead'), /nobody knows a face-down card/)
  // The board draws the seat's view: every face-down card is a card back
  // (the deck's three backs besides), none shows its value.
  const hidden = ans.view.players.flatMap((p) => p.grid.flat()).filter((c) => c === '?').length
  assert.equal(await page.locator('.board-svg use.card-back').count(), hidden + 3)

  await page.click('[data-test=puzzle-hint]')
  assert.equal(await page.textContent('[data-test=puzzle-hint-text]'), pz.line[0].startsWith('swap')
    ? 'The best choice puts the held card into your grid (a swap).'
    : 'The best choice puts the drawn card on the discard pile and flips a face-down card.')

  // The next best choice is refused.
  await playMove(page, 'skyjo', pz.expect.next, ans.toMove)
  await page.waitForSelector('[data-test=puzzle-wrong]')
  assert.equal(await page.textContent('[data-test=puzzle-wrong]'), `${pz.expect.next} is not the best choice on average. Try again.`)

  // Another move of the same choice (not the line's) solves it.
  await settled(page)
  const same = pz.accept.find((m) => m !== pz.line[0])
  await playMove(page, 'skyjo', same, ans.toMove)
  await page.waitForSelector('[data-test=puzzle-solved]')
  const e = pz.expect
  assert.equal(await page.textContent('[data-test=puzzle-line]'),
    `The best choice: ${pz.accept.join(' · ')}. On average over ${e.deals} deals it gains ${e.margin.toFixed(2)} ± ${e.stderr.toFixed(2)} points a round over the next best choice, ${e.next}.`)
  await settled(page)
  await page.evaluate(() => window.scrollTo(0, 0))
  await page.screenshot({path: path.join(SHOTS, 'puzzle-skyjo.png')})

  // Solved is remembered: after a reload the list marks it.
  await page.reload()
  await page.waitForSelector(`[data-test=puzzle-${n + 1}]`)
  await page.waitForFunction((k) => /solved/.test(document.querySelector(`[data-test=puzzle-${k}]`)?.className || ''), n + 1)
  assertNoErrors(page)
  await page.context().close()
})
