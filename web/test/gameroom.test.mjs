// The game room on the game page (issue 17; docs/api.md, "The game room"):
// the rematch between two players (accepted: both pages go to the new
// game; declined: both are told), a draw offer accepted, aborting in the
// first moves, an invitation declined from its link, the rematch against a
// bot (and none for a game from a set position). Takebacks are
// gametakeback.test.mjs's, the chat and claiming the win gamechat.test.mjs's;
// reviewing earlier moves while the game goes on is attention.test.mjs's.

import {test, before, after} from 'node:test'
import assert from 'node:assert/strict'
import {launch, newPage, keepOpen, assertNoErrors, guest, api, createGame, playByApi, userName, BASE} from './helpers.mjs'

let browser
before(async () => {
  browser = await launch()
})
after(async () => {
  await browser?.close()
})


async function close(...pages) {
  for (const p of pages) {
    assertNoErrors(p)
    await p.context().close()
  }
}

// The two-player tests share their players (two guests, a page each):
// each plays a new game of its own between them. Signing up and loading
// the site again for each test cost as much as what they test.
let duo = null
async function pair() {
  if (!duo) {
    const alice = keepOpen(await newPage(browser))
    const bob = keepOpen(await newPage(browser))
    await guest(alice)
    await guest(bob)
    duo = {alice, bob, an: await userName(alice), bn: await userName(bob)}
  }
  return duo
}

/** players opens a new game of req between the two, on both their pages (as helpers.mjs's twoPlayers). */
async function players(req) {
  const {alice, bob} = await pair()
  const g = await createGame(alice, {seats: [{kind: 'me'}, {kind: 'open'}], ...req})
  assert.equal((await api(bob, 'POST', `/games/${g.id}/join`, {})).status, 200)
  for (const p of [alice, bob]) {
    // the last game's board goes when the page changes: wait for the new one
    await p.evaluate(() => document.querySelector('.board-svg')?.setAttribute('data-left', ''))
    await p.goto(BASE + '/#/game/' + g.id)
    await p.waitForSelector('.board-svg:not([data-left]) [data-hit]')
  }
  return {...duo, id: g.id}
}

// done checks the shared players' pages logged no error (they close with the browser).
function done(...pages) {
  for (const p of pages) assertNoErrors(p)
}

test('rematch between two players: offered, accepted, both go to the new game; a second one declined', async () => {
  const {alice, bob, an, bn, id} = await players({game: 'sploof', options: {first: 'white'}})
  assert.equal(await alice.isVisible('[data-test=rematch]'), false, 'no rematch while the game is on')
  alice.once('dialog', (d) => d.accept())
  await alice.click('[data-test=resign]')
  for (const p of [alice, bob]) await p.waitForSelector('[data-test=result]:not([hidden])')

  await alice.click('[data-test=rematch]')
  await alice.waitForSelector('[data-test=rematch-box] >> text=You offered a rematch')
  assert.match(await alice.textContent('[data-test=rematch-box]'), new RegExp(bn))
  assert.ok(await alice.isVisible('[data-test=rematch-withdraw]'))
  assert.equal(await alice.isVisible('[data-test=rematch]'), false, 'one rematch: the button is gone')
  await bob.waitForSelector(`[data-test=rematch-box] >> text=${an} offers a rematch`)
  // bob reloads: the snapshot carries the rematch, and his page still hears it start
  await bob.reload()
  await bob.waitForSelector(`[data-test=rematch-box] >> text=${an} offers a rematch`)
  assert.ok(await bob.isVisible('[data-test=rematch-decline]'))
  await bob.click('[data-test=rematch-accept]')
  for (const p of [alice, bob]) await p.waitForFunction((old) => /#\/game\//.test(location.hash) && !location.hash.endsWith(old), id)
  const next = alice.url().split('/').pop()
  assert.equal(bob.url().split('/').pop(), next, 'both pages are in the same new game')
  const g = (await api(alice, 'GET', '/games/' + next)).body.game
  assert.equal(g.status, 'live')
  assert.deepEqual(g.seats.map((se) => se.user), [bn, an], 'the seats swapped')
  for (const p of [alice, bob]) await p.waitForSelector('.board-svg [data-hit]')

  // the rematch ends too; this time bob offers and alice declines
  assert.equal((await api(bob, 'POST', `/games/${next}/resign`, {})).status, 200)
  for (const p of [alice, bob]) await p.waitForSelector('[data-test=result]:not([hidden])')
  await bob.click('[data-test=rematch]')
  await alice.waitForSelector(`[data-test=rematch-box] >> text=${bn} offers a rematch`)
  await alice.click('[data-test=rematch-decline]')
  await alice.waitForSelector('[data-test=rematch-box] >> text=You declined the rematch.')
  await bob.waitForSelector(`[data-test=rematch-box] >> text=No rematch: ${an} declined or left.`)
  for (const p of [alice, bob]) {
    assert.equal(await p.isVisible('[data-test=rematch]'), false, 'a declined rematch is not offered again')
    assert.ok(p.url().endsWith(next), 'nobody left the finished game')
  }
  done(alice, bob)
})

test('a draw offer accepted ends the game drawn by agreement', async () => {
  const {alice, bob, an, id} = await players({game: 'sgolte'})
  await playByApi(alice, id, 1)
  await playByApi(bob, id, 2)
  await alice.click('[data-test=offer-draw]')
  await alice.waitForSelector('[data-test=offer-draw] >> text=You offered a draw.')
  assert.ok(await alice.isVisible('[data-test=offer-draw] [data-test=withdraw]'))
  await bob.waitForSelector(`[data-test=offer-draw] >> text=${an} offers a draw.`)
  await bob.click('[data-test=offer-draw] [data-test=accept]')
  for (const p of [alice, bob]) {
    await p.waitForSelector('[data-test=result]:not([hidden])')
    assert.match(await p.textContent('[data-test=result]'), /Draw\. \(by agreement\)/)
    assert.equal(await p.isVisible('[data-test=offer-draw]'), false)
  }
  const r = (await api(alice, 'GET', '/games/' + id)).body.game.result
  assert.deepEqual([r.status, r.reason], ['drawn', 'agreed'])
  done(alice, bob)
})

test('abort in the first moves: both see the game cancelled', async () => {
  const {alice, bob, id} = await players({game: 'sgolte'})
  await playByApi(alice, id, 1)
  await bob.waitForSelector('[data-test=abort]')
  bob.once('dialog', (d) => d.accept())
  await bob.click('[data-test=abort]')
  for (const p of [alice, bob]) {
    await p.waitForSelector('[data-test=result] >> text=This game was cancelled')
    assert.equal(await p.isVisible('[data-test=resign]'), false)
  }
  assert.equal((await api(alice, 'GET', '/games/' + id)).body.game.status, 'aborted')
  done(alice, bob)
})

test('an invitation opened from its link can be declined there', async () => {
  const {alice, bob, bn} = await pair()
  const g = await createGame(alice, {game: 'sgolte', seats: [{kind: 'me'}, {kind: 'invite', user: bn}]})
  await bob.goto(BASE + '/#/game/' + g.id)
  await bob.waitForSelector('[data-test=join]')
  await bob.click('[data-test=decline-invite]')
  await bob.waitForSelector('[data-test=result] >> text=This game was cancelled')
  assert.equal((await api(alice, 'GET', '/games/' + g.id)).body.game.status, 'aborted')
  done(alice, bob)
})

test('against a bot: Rematch turns the seats and starts at once; a game from a set position has none', async () => {
  const page = await newPage(browser)
  await guest(page)
  const g = await createGame(page, {game: 'sploof', options: {first: 'white'}, seats: [{kind: 'me'}, {kind: 'bot', level: 'random'}]})
  await page.goto(BASE + '/#/game/' + g.id)
  await page.waitForSelector('[data-test=resign]')
  page.once('dialog', (d) => d.accept())
  await page.click('[data-test=resign]')
  await page.waitForSelector('[data-test=again]') // play again (same seats) stays
  await page.click('[data-test=rematch]')
  await page.waitForFunction((old) => /#\/game\//.test(location.hash) && !location.hash.endsWith(old), g.id)
  const next = (await api(page, 'GET', '/games/' + page.url().split('/').pop())).body.game
  assert.equal(next.status, 'live')
  assert.deepEqual(next.seats.map((se) => se.kind), ['bot', 'human'], 'the seats turned')
  assert.equal(next.seats[1].user, await userName(page))
  // The rematch is not needed any more; ended, it cannot count as a live game
  // whose start this player may not use (the fair-play rule) while its bot has
  // yet to move.
  assert.equal((await api(page, 'POST', `/games/${next.id}/resign`, {})).status, 200)

  // from a set position: no rematch (the server has none), play again still
  const pos = (await api(page, 'POST', '/rules/sploof', {options: {first: 'white'}, moves: []})).body.position
  const p = await createGame(page, {game: 'sploof', position: pos, seats: [{kind: 'me'}, {kind: 'bot', level: 'random'}]})
  assert.equal((await api(page, 'POST', `/games/${p.id}/resign`, {})).status, 200)
  await page.goto(BASE + '/#/game/' + p.id)
  await page.waitForSelector('[data-test=result]:not([hidden])')
  await page.waitForSelector('[data-test=export]')
  assert.equal(await page.isVisible('[data-test=rematch]'), false)
  await close(page)
})
