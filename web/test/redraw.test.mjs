// What a move costs the game page: the page is drawn anew at every move,
// and in a long game (a Skyjo game runs to hundreds of moves) the parts
// that were made again or measured again at each one made the page slower
// and slower. The move list keeps the rows it has and adds the new ones;
// the Skyjo board measures a player's name once, not at every move; the
// chat is drawn again when a line comes, not at every move.

import {test, before, after} from 'node:test'
import assert from 'node:assert/strict'
import {launch, newPage, assertNoErrors, startBotGame, boardState, clickHit, clickMoveButton, twoPlayers, api} from './helpers.mjs'

let browser
before(async () => {
  browser = await launch()
})
after(async () => {
  await browser?.close()
})

/** moves is how many rows the game's move list has. */
const moves = (page) => page.$$eval('[data-test=moves] li', (els) => els.length)

/** playTo plays the guest's turns by clicking until the list has n rows. */
async function playTo(page, n) {
  for (let step = 0; step < 2000 && (await moves(page)) < n; step++) {
    const st = await boardState(page)
    assert.ok(!st.over, 'the game ended before ' + n + ' moves')
    if (!st.hits.length && !st.buttons.length) {
      await page.waitForFunction((k) => document.querySelectorAll('[data-test=moves] li').length >= k ||
        document.querySelector('.board-svg [data-hit].hit, [data-test=actions] button[data-move]'), n)
      continue
    }
    if (st.buttons.length) await clickMoveButton(page, st.buttons[0])
    else await clickHit(page, st.hits[step % st.hits.length])
  }
  assert.ok((await moves(page)) >= n, 'the game did not reach ' + n + ' moves')
}

test('skyjo: the move list keeps its rows and the board measures a name once', async () => {
  const page = await newPage(browser)
  // Count the board's measures of its texts (each makes the browser lay the page out).
  await page.addInitScript(() => {
    const measure = SVGTextContentElement.prototype.getComputedTextLength
    window.measured = 0
    SVGTextContentElement.prototype.getComputedTextLength = function () {
      window.measured++
      return measure.call(this)
    }
  })
  await startBotGame(page, 'skyjo', 'random')
  // By 12 moves both players have held a drawn card (the board writes
  // the holder's name under it): each name has been measured.
  await playTo(page, 12)
  const kept = await page.$$eval('[data-test=moves] li', (els) => {
    for (const li of els) li.kept = true
    return els.length
  })
  const measuredBefore = await page.evaluate(() => window.measured)
  assert.ok(measuredBefore > 0, 'the held card\'s holder was measured')
  await playTo(page, 40)
  const list = await page.$$eval('[data-test=moves] li', (els) => els.map((li) => ({kept: li.kept === true, ply: Number(li.dataset.ply)})))
  assert.deepEqual(list.slice(0, kept).map((r) => r.kept), Array(kept).fill(true), 'the first rows are the same elements')
  assert.deepEqual(list.map((r) => r.ply), list.map((_, i) => i + 1), 'one row a move, in order')
  assert.equal(await page.evaluate(() => window.measured), measuredBefore, 'no name measured again')
  assertNoErrors(page)
  await page.context().close()
})

test('sgolte between two people: the chat is not drawn again at every move', async () => {
  const {alice, bob, id} = await twoPlayers(browser, {game: 'sgolte'})
  await alice.fill('[data-test=chat-input]', 'good luck')
  await alice.press('[data-test=chat-input]', 'Enter')
  await bob.waitForSelector('[data-test=chat-log] >> text=good luck')
  await bob.$$eval('[data-test=chat-log] li', (els) => { for (const li of els) li.kept = true })
  // ten moves through the API, each an event of the game on bob's page
  for (let n = 0; n < 10; n++) {
    const p = n % 2 ? bob : alice
    const g = (await api(p, 'GET', `/games/${id}`)).body
    assert.equal((await api(p, 'POST', `/games/${id}/moves`, {ply: n, move: g.legal[0]})).status, 200)
    await bob.waitForFunction((k) => document.querySelectorAll('[data-test=moves] li').length === k, n + 1)
  }
  assert.deepEqual(await bob.$$eval('[data-test=chat-log] li', (els) => els.map((li) => li.kept === true)), [true],
    'the line is the same element')
  // and a new line is still drawn
  await alice.fill('[data-test=chat-input]', 'well played')
  await alice.press('[data-test=chat-input]', 'Enter')
  await bob.waitForSelector('[data-test=chat-log] >> text=well played')
  for (const p of [alice, bob]) {
    assertNoErrors(p)
    await p.context().close()
  }
})
