// Follows and the inbox (issue 24 items 5-6): an invitation shows in the
// bell of both of the invited player's tabs and on their inbox page;
// reading it in one tab drops the other tab's count, without a reload.
// A follow from the profile; the followed player's game is announced and
// watched with one click from the Following list. Screenshots of the inbox
// page and its bell at 1280×800 and 390×844.

import {test, before, after} from 'node:test'
import assert from 'node:assert/strict'
import path from 'node:path'
import {launch, newPage, assertNoErrors, BASE, OUT, apiPaced, registered, resize, settled} from './helpers.mjs'

let browser
before(async () => {
  browser = await launch()
})
after(async () => {
  await browser?.close()
})

const count = (page) => page.$eval('[data-test=inbox-count]', (el) => (el.hidden ? 0 : Number(el.textContent)))

async function waitCount(page, n) {
  await page.waitForFunction((n) => {
    const el = document.querySelector('[data-test=inbox-count]')
    return el && (el.hidden ? 0 : Number(el.textContent)) === n
  }, n)
}

test('an invitation in two tabs; read in one, the other drops; a follow, and a game watched with one click', async () => {
  const alice = await newPage(browser, {viewport: {width: 1280, height: 800}})
  const bob = await newPage(browser)
  alice.setDefaultTimeout(30000)
  bob.setDefaultTimeout(30000)
  // Nobody signed in: no bell, and nothing in its place.
  await bob.goto(BASE + '/#/')
  await bob.waitForSelector('[data-test=nav-home]')
  assert.equal(await bob.$('[data-test=inbox-bell]'), null)
  assert.doesNotMatch(await bob.textContent('#top'), /null|undefined/)
  const an = await registered(alice, 'in')
  const bn = await registered(bob, 'fo')
  // A second tab of alice's: same cookies.
  const tab2 = await alice.context().newPage()
  tab2.setDefaultTimeout(30000)
  tab2.errors = []
  tab2.on('pageerror', (e) => tab2.errors.push('pageerror: ' + e.message))
  await alice.goto(BASE + '/#/inbox')
  await tab2.goto(BASE + '/#/')
  await alice.waitForSelector('[data-test=inbox-status]:not(:empty)')
  assert.equal(await count(alice), 0)

  // Bob invites alice: both of her tabs' bells show it, and her inbox lists it.
  const inv = await apiPaced(bob, 'POST', '/games', {game: 'sploof', seats: [{kind: 'me'}, {kind: 'invite', user: an}]})
  assert.equal(inv.status, 201, JSON.stringify(inv.body))
  await waitCount(alice, 1)
  await waitCount(tab2, 1)
  const item = alice.locator('[data-test=inbox-item][data-kind=invitation]')
  await item.waitFor()
  assert.match(await item.textContent(), new RegExp(bn))
  assert.equal(await item.getAttribute('data-read'), 'false')

  // Bob follows alice from her profile; alice follows bob from his.
  await alice.goto(BASE + '/#/user/' + bn)
  await alice.click('[data-test=follow-toggle]')
  await alice.waitForSelector('[data-test=follow-toggle][aria-pressed=true]')

  // Screenshots of the inbox with an unread invitation and a follow.
  await alice.goto(BASE + '/#/inbox')
  await alice.waitForSelector('[data-test=follow-row]')
  await alice.waitForSelector('[data-test=inbox-item]')
  await settled(alice)
  await alice.screenshot({path: path.join(OUT, 'inbox-1280x800.png')})
  await resize(alice, {width: 390, height: 844})
  assert.ok(await alice.evaluate(() => document.documentElement.scrollWidth <= innerWidth), 'no sideways scroll at 390 px')
  await alice.screenshot({path: path.join(OUT, 'inbox-390x844.png'), fullPage: true})
  await resize(alice, {width: 1280, height: 800})

  // Read in one tab: the other tab's count drops, with no reload.
  await alice.click('[data-test=inbox-mark]')
  await waitCount(alice, 0)
  await waitCount(tab2, 0)
  await alice.waitForSelector('[data-test=inbox-item][data-read=true]')

  // A new item comes in at the top: the list is renewed, not redrawn (each
  // row matched by its item), so the rows below it are the same elements —
  // a click on one as an item comes in is not lost to its replacement.
  const readLink = await alice.$('[data-test=inbox-item][data-read=true] a.inbox-open')
  const inv2 = await apiPaced(bob, 'POST', '/games', {game: 'sploof', seats: [{kind: 'me'}, {kind: 'invite', user: an}]})
  assert.equal(inv2.status, 201, JSON.stringify(inv2.body))
  await alice.waitForSelector('[data-test=inbox-item][data-read=false]')
  assert.ok(await readLink.evaluate((el) => el.isConnected), 'the read item\'s link is the same element after a new item came in')
  const followLink = await alice.$(`[data-test=follow-row][data-user="${bn}"] a[href="#/user/${bn}"]`)

  // Bob starts a game (against a bot): alice's tab hears it, and one
  // click on Watch in her Following list opens it.
  const g = await apiPaced(bob, 'POST', '/games', {game: 'sploof', seats: [{kind: 'me'}, {kind: 'bot', level: 'random'}]})
  assert.equal(g.status, 201, JSON.stringify(g.body))
  const id = g.body.game.id
  await tab2.waitForSelector('[data-test=follow-toast]')
  await alice.waitForSelector(`[data-test=follow-row][data-user="${bn}"] [data-test=follow-watch]`)
  assert.ok(await followLink.evaluate((el) => el.isConnected), 'the followed player\'s link is the same element after the list came again')
  await alice.click(`[data-test=follow-row][data-user="${bn}"] [data-test=follow-watch]`)
  await alice.waitForURL(new RegExp('#/game/' + id + '$'))
  await alice.waitForFunction((bn) => document.querySelector('[data-test=seats]')?.textContent.includes(bn), bn)
  // An unread item's link opens it and marks it read.
  await alice.goto(BASE + '/#/inbox')
  await alice.click('[data-test=inbox-item][data-read=false] a.inbox-open')
  await alice.waitForURL(new RegExp('#/game/' + inv2.body.game.id + '$'))
  await waitCount(alice, 0)
  assertNoErrors(alice)
  assertNoErrors(bob)
  assert.deepEqual(tab2.errors, [])
})
