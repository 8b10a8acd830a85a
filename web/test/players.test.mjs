// Find people (issue 24 item 3): the Players page finds a user by the
// first letters of their name, and lists who is online with the game they
// play and a link to watch it; the top menu fits a phone (a Menu button
// opens it) and a laptop without sideways scrolling. Screenshots of the
// page and the header at 1280×800 and 390×844.

import {test, before, after} from 'node:test'
import assert from 'node:assert/strict'
import path from 'node:path'
import {launch, newPage, assertNoErrors, registered, openGame, api, waitUntil, nextRead, BASE, SHOTS} from './helpers.mjs'

let browser
before(async () => {
  browser = await launch()
})
after(async () => {
  await browser?.close()
})

const noSideways = (page) => page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)

test('a player is found by name and seen playing; the menu fits a phone and a laptop', async () => {
  const alice = await newPage(browser, {viewport: {width: 1280, height: 800}})
  const name = await registered(alice, 'pl')
  const id = await openGame(alice, {game: 'sploof', seats: [{kind: 'me'}, {kind: 'bot', level: 'random'}]})
  await waitUntil(async () => (await api(alice, 'GET', '/online/players')).body.players.some((p) => p.name === name && p.games?.some((g) => g.id === id)),
    {what: name + ' playing in the online list'})

  // A phone: the menu is one button; opened, it has every page, Players too.
  const bob = await newPage(browser, {viewport: {width: 390, height: 844}})
  await registered(bob, 'pm')
  await bob.goto(BASE + '/#/players')
  assert.ok(await noSideways(bob), 'the page scrolls sideways at 390 px')
  assert.equal(await bob.isVisible('[data-test=nav-players]'), false, 'the links are folded on a phone')
  await bob.click('[data-test=nav-toggle]')
  assert.equal(await bob.getAttribute('[data-test=nav-toggle]', 'aria-expanded'), 'true')
  for (const link of ['nav-lobby', 'nav-puzzles', 'nav-tournaments', 'nav-players', 'nav-account']) assert.ok(await bob.isVisible(`[data-test=${link}]`), link + ' in the open menu')
  assert.equal(await bob.getAttribute('[data-test=nav-players]', 'aria-current'), 'page')
  assert.ok(await noSideways(bob), 'the open menu scrolls sideways')
  await bob.screenshot({path: path.join(SHOTS, 'people-menu-390x844.png')})
  await bob.keyboard.press('Escape')
  assert.equal(await bob.getAttribute('[data-test=nav-toggle]', 'aria-expanded'), 'false')
  assert.equal(await bob.evaluate(() => document.activeElement.dataset.test), 'nav-toggle', 'Escape gives the focus back to the button')

  // The search finds alice as one types; the online list has her game.
  await bob.fill('[data-test=players-search]', name.slice(0, 5))
  await bob.waitForSelector(`[data-test=players-results] a[href="#/user/${name}"]`)
  await bob.fill('[data-test=players-search]', name + 'x')
  await bob.waitForSelector('[data-test=players-none]')
  await bob.fill('[data-test=players-search]', 'a%')
  await bob.waitForSelector('[data-test=players-bad]')
  await bob.fill('[data-test=players-search]', name)
  await bob.waitForSelector(`[data-test=players-results] li[data-user="${name}"] .players-on`)
  await bob.waitForSelector(`[data-test=players-game-sploof] li[data-user="${name}"] [data-test=players-watch-${id}]`)
  assert.ok(await noSideways(bob), 'the Players page scrolls sideways at 390 px')
  await bob.screenshot({path: path.join(SHOTS, 'people-players-390x844.png'), fullPage: true})
  await bob.click(`[data-test=players-watch-${id}]`)
  await bob.waitForURL(new RegExp('#/game/' + id + '$'))

  // A laptop (alice, in a second tab: her game's stays open): every link
  // in the bar, no Menu button, nothing sideways.
  const lap = await alice.context().newPage()
  await lap.goto(BASE + '/#/players')
  await lap.waitForSelector(`[data-test=players-watch-${id}]`)
  assert.equal(await lap.isVisible('[data-test=nav-toggle]'), false)
  for (const link of ['nav-home', 'nav-puzzles', 'nav-players', 'nav-profile', 'nav-account']) assert.ok(await lap.isVisible(`[data-test=${link}]`), link + ' in the bar')
  assert.ok(await noSideways(lap))
  // The bar is one row at 1280 px, signed in: a link that wraps to a second
  // row pushes every page down.
  const rows = await lap.$$eval('header [data-test^=nav-]', (els) => els.filter((e) => e.offsetParent).map((e) => {
    const r = e.getBoundingClientRect()
    return (r.top + r.bottom) / 2
  }))
  assert.ok(Math.max(...rows) - Math.min(...rows) < 12, 'the bar wraps at 1280 px: link centres at ' + rows.map(Math.round).join(', '))
  await lap.screenshot({path: path.join(SHOTS, 'people-players-1280x800.png')})
  assertNoErrors(alice)
  assertNoErrors(bob)
  await alice.context().close()
  await bob.context().close()
})

// A page's code can come just after a tap on Menu (a slow network, a busy
// machine): the header drawn again once it has come keeps the menu open. It
// used to close it (this file's test above failed so in a CI run, the tap
// landing before the Players page's code).
test("the phone menu stays open when the page's code comes after a tap on Menu", async () => {
  const page = await newPage(browser, {viewport: {width: 390, height: 844}})
  await registered(page, 'pn')
  let release
  const held = new Promise((resolve) => { release = resolve })
  let asked = false
  await page.route('**/js/pages/players.js*', async (route) => {
    asked = true
    const answer = await route.fetch()
    await held
    await route.fulfill({response: answer})
  })
  await page.goto(BASE + '/#/players')
  await waitUntil(() => asked, {what: "the page to ask for the Players page's code"})
  await page.click('[data-test=nav-toggle]')
  assert.equal(await page.getAttribute('[data-test=nav-toggle]', 'aria-expanded'), 'true')
  release()
  await page.waitForSelector('[data-test=players-search]')
  assert.equal(await page.getAttribute('[data-test=nav-toggle]', 'aria-expanded'), 'true', "the page's code closed the menu")
  assert.ok(await page.isVisible('[data-test=nav-players]'), 'the open menu shows its links')
  assert.equal(await page.evaluate(() => document.activeElement.dataset.test), 'nav-toggle', 'the focus stays on Menu')
  assertNoErrors(page)
})

// The online list is read again every 15 s, and was drawn anew each time:
// a profile link, Watch or Challenge pressed as it came again was released
// on its replacement, and the click did nothing. Renewed in place, they are
// the same elements after two more reads, and do their work.
test('the online list keeps its links and Challenge buttons through its refreshes', async () => {
  const alice = await newPage(browser)
  const name = await registered(alice, 'pr')
  const id = await openGame(alice, {game: 'sploof', seats: [{kind: 'me'}, {kind: 'bot', level: 'random'}]})
  await waitUntil(async () => (await api(alice, 'GET', '/online/players')).body.players.some((p) => p.name === name && p.games?.some((g) => g.id === id)),
    {what: name + ' playing in the online list'})
  const bob = await newPage(browser, {viewport: {width: 1280, height: 800}})
  await registered(bob, 'ps')
  await bob.clock.install() // its 15 s are moved on by the test
  await bob.goto(BASE + '/#/players')
  const row = `[data-test=players-game-sploof] li[data-user="${name}"]`
  const watch = await bob.waitForSelector(`${row} [data-test=players-watch-${id}]`)
  const profile = await bob.$(`${row} a[href="#/user/${name}"]`)
  const challenge = await bob.$(`${row} [data-test=players-challenge]`)
  const onlineRead = (r) => new URL(r.url()).pathname === '/api/online/players'
  for (let i = 0; i < 2; i++) await nextRead(bob, onlineRead, 15000)
  for (const [what, el] of [['the profile link', profile], ['Watch', watch], ['Challenge', challenge]]) {
    assert.ok(await el.evaluate((e) => e.isConnected), what + ' is the same element after two more reads of the list')
  }
  await challenge.click()
  await bob.waitForSelector('[data-test=challenge-dialog]')
  assert.equal(await bob.textContent('#challenge-title'), 'Challenge ' + name)
  await bob.keyboard.press('Escape')
  await bob.waitForSelector('[data-test=challenge-dialog]', {state: 'detached'})
  await watch.click()
  await bob.waitForURL(new RegExp('#/game/' + id + '$'))
  assertNoErrors(alice)
  assertNoErrors(bob)
  await alice.context().close()
  await bob.context().close()
})

