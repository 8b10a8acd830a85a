// The game room's seat rows are drawn again at every move (the row to move
// changes): a player's profile link pressed as a move arrives must be the
// same link when it is released, or the click is lost.

import {test, before, after} from 'node:test'
import assert from 'node:assert/strict'
import {launch, assertNoErrors, api, twoPlayers} from './helpers.mjs'

let browser
before(async () => {
  browser = await launch()
})
after(async () => {
  await browser?.close()
})

test('the seat rows keep their profile links through a move', async () => {
  const {alice, bob, an, id} = await twoPlayers(browser, {game: 'sgolte',
    position: {game: 'sgolte', size: 5, black: ['d3', 'd5'], white: ['e2', 'e3', 'e4', 'e5', 'e6', 'f3'], toMove: 'black', pie: 'done'}})
  const link = await bob.waitForSelector(`[data-test=seats] li[data-seat="0"] a[href="#/user/${encodeURIComponent(an)}"]`)
  assert.ok(await bob.$('[data-test=seats] li[data-seat="0"].to-move'))
  assert.equal((await api(alice, 'POST', `/games/${id}/moves`, {ply: 0, move: 'b1'})).status, 200)
  await bob.waitForSelector('[data-test=seats] li[data-seat="1"].to-move') // the rows were drawn again: bob to move
  assert.equal(await bob.$('[data-test=seats] li[data-seat="0"].to-move'), null)
  assert.ok(await link.evaluate((el) => el.isConnected), 'alice\'s link is the same element after her move')
  await link.click()
  await bob.waitForURL(new RegExp(`#/user/${encodeURIComponent(an)}$`))
  assertNoErrors(alice)
  assertNoErrors(bob)
})
