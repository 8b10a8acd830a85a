// Joining a game that keeps its creator's deal from the game's own page
// (its link, an invitation) asks for consent first, as the lobby does: the
// creator may know the hidden cards. Without the consent the server answers
// 409 kept_deal, so a page that joined without asking could never seat the
// player.

import {test, before, after} from 'node:test'
import assert from 'node:assert/strict'
import {launch, newPage, assertNoErrors, guest, api, userName, keptDealGame, clickDeclining, waitUntil, BASE} from './helpers.mjs'

let browser
before(async () => {
  browser = await launch()
})
after(async () => {
  await browser?.close()
})

test("the game page's Join asks before taking a seat in a game with its creator's deal", async () => {
  const alice = await newPage(browser)
  await guest(alice)
  const id = await keptDealGame(alice, 778)
  const bob = await newPage(browser)
  await guest(bob)
  await bob.goto(BASE + '/#/game/' + id)
  await bob.waitForSelector('[data-test=join]')
  // declined: nothing happens
  assert.match(await clickDeclining(bob, '[data-test=join]'), /may know them\. Join anyway\?/)
  assert.equal((await api(bob, 'GET', '/games/' + id)).body.game.status, 'open')
  // accepted: seated, the game starts
  bob.once('dialog', (d) => d.accept())
  await bob.click('[data-test=join]')
  await waitUntil(async () => (await api(bob, 'GET', '/games/' + id)).body.game.status === 'live', {what: 'the game to start'})
  const g = (await api(bob, 'GET', '/games/' + id)).body.game
  assert.equal(g.status, 'live')
  assert.equal(g.seats[1].user, await userName(bob))
  assertNoErrors(alice)
  assertNoErrors(bob)
  await alice.context().close()
  await bob.context().close()
})
