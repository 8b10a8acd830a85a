// Quick pairing from Home (issue 27, point 4): asking moves nothing on the
// page (the search shows in a bar fixed to the bottom of the window, in
// view), the search survives browsing other pages and still lands the
// player in the game when someone comes, and closing the tab ends it.
// Skjuub by correspondence: no other test pairs for it, so nobody else's
// search meets ours.

import {test, before, after} from 'node:test'
import assert from 'node:assert/strict'
import path from 'node:path'
import {launch, newPage, assertNoErrors, api, guest, inViewport, waitUntil, settled, BASE, SHOTS} from './helpers.mjs'

let browser
before(async () => {
  browser = await launch()
})
after(async () => {
  await browser?.close()
})

const GAME = 'skjuub'
const CLOCK = 'correspondence'

/** boxes: where every card's buttons and links are now. */
const boxes = (page) => page.$$eval('.game-card button, .game-card a', (els) => els.map((e) => {
  const r = e.getBoundingClientRect()
  return [e.textContent, Math.round(r.left), Math.round(r.top)]
}))

async function status(page, id) {
  return (await api(page, 'GET', '/games/' + id)).body?.game?.status
}

async function askFromHome(page) {
  await guest(page) // signed in first: what moves is then the search's doing alone
  await page.goto(BASE + '/')
  await page.waitForSelector('[data-test=pair-' + GAME + ']')
  await page.selectOption('[data-test=pair-clock]', CLOCK)
  await settled(page)
  const before = await boxes(page)
  await page.click('[data-test=pair-' + GAME + ']')
  await page.waitForSelector('[data-test=pair-waiting]')
  await settled(page)
  return {before, id: await page.getAttribute('[data-test=pair-waiting]', 'data-id')}
}

test('quick pairing on Home: nothing jumps, the search survives other pages and ends with the tab', async () => {
  const alice = await newPage(browser, {viewport: {width: 1280, height: 800}})
  const {before, id} = await askFromHome(alice)
  const after = await boxes(alice)
  assert.deepEqual(after, before, 'asking moved the cards\' buttons')
  assert.ok(await inViewport(alice, '[data-test=pair-waiting]'), 'the waiting box is in view')
  await alice.screenshot({path: path.join(SHOTS, 'polish-pairing-home-1280.png')})

  // Browsing: the lobby, then Learn. The search goes on (its game stays
  // open) and stays in view.
  await alice.click('[data-test=nav-learn]')
  await alice.waitForURL(/#\/learn/)
  await alice.waitForSelector('[data-test=pair-bar] [data-test=pair-waiting]')
  assert.ok(await inViewport(alice, '[data-test=pair-waiting]'))
  assert.equal(await status(alice, id), 'open', 'the waiting game survives browsing')

  // Someone asks for the same: alice's page goes to the game from Learn.
  const bob = await newPage(browser)
  await guest(bob)
  const res = await api(bob, 'POST', '/pairing', {game: GAME, clock: CLOCK})
  assert.equal(res.status, 200, JSON.stringify(res.body))
  assert.equal(res.body.game.id, id, 'bob is paired into alice\'s game')
  await alice.waitForURL('**/#/game/' + id)
  assert.equal(await alice.$('[data-test=pair-waiting]'), null, 'the bar is gone once paired')
  assertNoErrors(alice)
  assertNoErrors(bob)
  await bob.context().close()

  // Closing the tab ends a search (a keepalive abort as the page goes).
  const carol = await newPage(browser, {viewport: {width: 390, height: 844}})
  const second = await askFromHome(carol)
  assert.ok(await inViewport(carol, '[data-test=pair-waiting]'), 'in view on a phone too')
  assert.ok(await carol.$eval('[data-test=pair-bar]', (el) => el.getBoundingClientRect().right <= innerWidth), 'the bar fits a phone\'s width')
  await carol.screenshot({path: path.join(SHOTS, 'polish-pairing-home-390.png')})
  assertNoErrors(carol)
  await carol.close({runBeforeUnload: true})
  await waitUntil(async () => (await status(alice, second.id)) === 'aborted', {what: 'the closed tab\'s game to be aborted'})
  await carol.context().close()
  await alice.context().close()
})
