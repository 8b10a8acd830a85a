// Conditional moves (issue 27, point 9): in a correspondence game, while
// the opponent is to move, a player saves "if X then Y" in the game room;
// a line that is not legal is refused with a message and nothing saved;
// when the opponent plays X, Y is in both players' move lists at once; a
// saved line can be deleted.

import {test, before, after} from 'node:test'
import assert from 'node:assert/strict'
import path from 'node:path'
import {launch, assertNoErrors, api, twoPlayers, resize, settled, OUT} from './helpers.mjs'

let browser
before(async () => {
  browser = await launch()
})
after(async () => {
  await browser?.close()
})

const moveTexts = (page) => page.$$eval('[data-test=moves] li code', (els) => els.map((e) => e.textContent))
const waitMoves = (page, n) => page.waitForFunction((n) => document.querySelectorAll('[data-test=moves] li code').length >= n, n)
const lineTexts = (page) => page.$$eval('[data-test=cond-line] span', (els) => els.map((e) => e.textContent))

async function saveLine(page, text) {
  await page.fill('[data-test=cond-text]', text)
  await page.click('[data-test=cond-save]')
}

test('sgolte by correspondence: bob stores "if a1 then i1", alice plays a1, i1 follows at once', async () => {
  const {alice, bob, id} = await twoPlayers(browser, {game: 'sgolte', clock: {kind: 'correspondence', days: 3},
    position: {game: 'sgolte', size: 5, black: ['d3'], white: ['e4'], toMove: 'black', pie: 'done'}})

  // Alice (Black) is to move: the panel is hers only on bob's turn.
  await bob.waitForSelector('[data-test=conditional]:not([hidden])')
  assert.equal(await alice.$('[data-test=conditional]:not([hidden])'), null, 'no conditional moves on one\'s own turn')
  await bob.click('[data-test=conditional] summary')
  await bob.waitForSelector('[data-test=cond-none]')

  // An illegal line is refused, with a message, and nothing is saved.
  await saveLine(bob, 'a1; d3')
  await bob.waitForSelector('[data-test=cond-error] .error')
  assert.match(await bob.textContent('[data-test=cond-error]'), /not legal/)
  assert.deepEqual(await lineTexts(bob), [])
  assert.equal((await api(bob, 'GET', `/games/${id}/conditional`)).body.lines, null)
  const refused = bob.errors.filter((e) => /status of 422/.test(e))
  assert.equal(refused.length, 1, 'the refusal is the one 422 logged')
  bob.errors = bob.errors.filter((e) => !/status of 422/.test(e))

  await saveLine(bob, 'a1; i1')
  await bob.waitForSelector('[data-test=cond-line]')
  assert.deepEqual(await lineTexts(bob), ['if a1 → i1'])
  await saveLine(bob, 'b1 ; i2')
  await bob.waitForFunction(() => document.querySelectorAll('[data-test=cond-line]').length === 2)
  assert.equal(await bob.$('[data-test=cond-error] .error'), null)
  for (const size of [{width: 1280, height: 800}, {width: 390, height: 844}]) {
    await resize(bob, size)
    await bob.$eval('[data-test=conditional]', (el) => el.scrollIntoView({block: 'center'}))
    await settled(bob)
    await bob.screenshot({path: path.join(OUT, `conditional-${size.width}.png`)})
    // the open panel makes the column beside the board taller than the window: nothing in it runs out of
    // the game's layout (before, the chat's box and its input ran over the page's footer)
    await bob.waitForFunction(() => {
      const lay = document.querySelector('.game-layout').getBoundingClientRect()
      return [...document.querySelectorAll('.game-layout *')].every((e) => !e.getClientRects().length || e.getBoundingClientRect().bottom <= lay.bottom + 1)
    }, null, {timeout: 5000}).catch(() => assert.fail(`something runs out of the game's layout at ${size.width} px`))
  }
  await resize(bob, {width: 1280, height: 800})

  // Alice plays a1: bob's i1 is in both move lists at once, without a click of his.
  assert.equal((await api(alice, 'POST', `/games/${id}/moves`, {ply: 0, move: 'a1'})).status, 200)
  await waitMoves(alice, 2)
  assert.deepEqual(await moveTexts(alice), ['a1', 'i1'])
  await waitMoves(bob, 2)
  assert.deepEqual(await moveTexts(bob), ['a1', 'i1'])

  // Alice to move again: the lines were used up; a new one can be deleted.
  await bob.waitForSelector('[data-test=cond-none]')
  await saveLine(bob, 'a2; i3')
  await bob.waitForSelector('[data-test=cond-line]')
  await bob.click('[data-test=cond-delete]')
  await bob.waitForSelector('[data-test=cond-none]')
  assert.equal((await api(bob, 'GET', `/games/${id}/conditional`)).body.lines, null)
  assertNoErrors(alice)
  assertNoErrors(bob)
})
