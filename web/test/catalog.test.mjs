// The page keeps no copy of the site's facts: the games and their order,
// the bot levels, quick pairing's clocks, the analysis board's games and
// the longest chat line are what /api/catalog says. Here the server's
// catalog is changed on its way to the page, and the page follows it; a
// catalog that fails to come is said, with Try again.

import {test, before, after} from 'node:test'
import assert from 'node:assert/strict'
import path from 'node:path'
import {launch, newPage, assertNoErrors, allowErrors, guest, api, createGame, BASE, OUT} from './helpers.mjs'

let browser
before(async () => {
  browser = await launch()
})
after(async () => {
  await browser?.close()
})

/**
 * changed is a catalog unlike the site's: the games in the opposite order,
 * no hard bot, blitz at 3+2 and no rapid, a two-minute pairing window,
 * Skjuub off the analysis board, chat lines of 50 characters.
 */
function changed(c) {
  c.games.reverse()
  for (const g of c.games) if (g.name === 'skjuub') g.analysis = false
  c.bots = c.bots.filter((b) => b !== 'hard')
  c.pairing.clocks = c.pairing.clocks.filter((x) => x.name !== 'rapid')
  c.pairing.clocks.find((x) => x.name === 'blitz').clock = {kind: 'realtime', initialMs: 180000, incrementMs: 2000}
  c.pairing.windowMs = 120000
  c.chatMax = 50
  return c
}

/** withCatalog has the page's context receive change(the server's catalog) instead of the server's. */
async function withCatalog(page, change) {
  await page.context().route('**/api/catalog', async (route) => {
    const res = await route.fetch()
    route.fulfill({response: res, json: change(await res.json())})
  })
}

test('the page follows the server catalog: games, their order, bots, pairing clocks, analysis', async () => {
  const page = await newPage(browser)
  const real = await page.request.get(BASE + '/api/catalog').then((r) => r.json())
  // The levels offered are the catalog's as sent, without the hard bot it
  // drops (the server's list grew from four to nine levels with issue 26).
  assert.ok(real.bots.includes('hard') && real.bots.includes('medium'), 'the server offers hard and medium')
  const bots = real.bots.filter((b) => b !== 'hard')
  await withCatalog(page, changed)
  await page.goto(BASE + '/')
  await page.waitForSelector('.game-card')
  const order = real.games.map((g) => g.name).reverse()
  assert.deepEqual(await page.$$eval('.game-card', (els) => els.map((e) => e.dataset.game)), order, 'the cards in the catalog\'s order')
  assert.deepEqual(await page.$$eval('[data-test=bot-level] option', (els) => els.map((e) => e.value)), bots)
  assert.deepEqual(await page.$$eval('[data-test=pair-clock] option', (els) => els.map((e) => [e.value, e.textContent])),
    [['none', 'no clock'], ['blitz', '3 minutes + 2 seconds'], ['correspondence', '3 days per move']])
  await page.screenshot({path: path.join(OUT, 'catalog-home.png')})

  await page.goto(BASE + '/#/lobby')
  await page.waitForSelector('[data-test=pair-sgolte-blitz]')
  assert.equal(await page.textContent('[data-test=pair-sgolte-blitz]'), '3+2')
  assert.equal(await page.$('[data-test=pair-sgolte-rapid]'), null)
  assert.equal(await page.getAttribute('[data-test=pair-sgolte-blitz]', 'aria-label'), 'Quick pairing: Sgolte, 3+2 (3 minutes + 2 seconds)')
  assert.deepEqual(await page.$$eval('[data-test=create-game] option', (els) => els.map((e) => e.value)), order)
  // The create form's clock is the catalog's: the game made has it.
  await page.selectOption('[data-test=create-game]', 'sgolte')
  await page.selectOption('[data-test=seat-kind-1]', 'bot')
  assert.deepEqual(await page.$$eval('[data-test=seat-level-1] option', (els) => els.map((e) => e.value)), bots)
  await page.selectOption('[data-test=seat-level-1]', 'random')
  await page.selectOption('[data-test=clock]', 'blitz')
  await page.click('[data-test=create]')
  await page.waitForURL(/#\/game\//)
  const id = page.url().split('/').pop()
  const g = (await api(page, 'GET', '/games/' + id)).body.game
  assert.deepEqual(g.clock, {kind: 'realtime', initialMs: 180000, incrementMs: 2000})
  assert.deepEqual(g.seats[1], {...g.seats[1], kind: 'bot', level: 'random'})
  // Done with it: while it stands at its start, the analysis board's start
  // position is one of the player's own live game, whose engine analysis
  // fair play refuses (403 own_game) — a moment after the page opens.
  assert.equal((await api(page, 'POST', '/games/' + id + '/resign', {})).status, 200)

  // The analysis board takes the games the catalog says it takes.
  await page.goto(BASE + '/#/analysis/sgolte')
  await page.waitForSelector('.analysis-games a')
  assert.deepEqual(await page.$$eval('.analysis-games a', (els) => els.map((e) => e.getAttribute('href'))),
    order.filter((n) => n !== 'skjuub' && real.games.find((g) => g.name === n).analysis).map((n) => '#/analysis/' + n))
  await page.goto(BASE + '/#/analysis/skjuub')
  await page.waitForSelector('text=Not found')
  assert.match(await page.textContent('main'), /The analysis board takes these games: Sploof, Sgolte\./)
  assertNoErrors(page)
  await page.context().close()
})

test("the chat's longest line is the catalog's", async () => {
  const alice = await newPage(browser)
  const bob = await newPage(browser)
  for (const p of [alice, bob]) await withCatalog(p, changed)
  await guest(alice)
  await guest(bob)
  const g = await createGame(alice, {game: 'sploof', seats: [{kind: 'me'}, {kind: 'open'}]})
  assert.equal((await api(bob, 'POST', `/games/${g.id}/join`, {})).status, 200)
  await alice.goto(BASE + '/#/game/' + g.id)
  await alice.waitForSelector('[data-test=chat-input]')
  assert.equal(await alice.getAttribute('[data-test=chat-input]', 'maxlength'), '50')
  await alice.fill('[data-test=chat-input]', 'x'.repeat(45))
  await alice.waitForFunction(() => /5 characters left/.test(document.querySelector('[data-test=chat]')?.textContent))
  assertNoErrors(alice)
  assertNoErrors(bob)
  await alice.context().close()
  await bob.context().close()
})

test('a catalog that fails to come is said, and Try again asks again', async () => {
  const page = await newPage(browser)
  let fail = true
  await page.context().route('**/api/catalog', (route) => (fail ?
    route.fulfill({status: 503, json: {error: {code: 'unavailable', message: 'the server is busy'}}}) : route.continue()))
  await page.goto(BASE + '/')
  await page.waitForSelector('[data-test=retry]')
  assert.match(await page.textContent('main'), /busy|unavailable|try again/i)
  assert.equal(await page.$('.game-card'), null)
  fail = false
  await page.click('[data-test=retry]')
  await page.waitForSelector('.game-card')
  allowErrors(page, /status of 503/)
  assertNoErrors(page)
  await page.context().close()
})
