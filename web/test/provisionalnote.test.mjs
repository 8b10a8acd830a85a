// "Provisional ratings explained where they are shown" (issue 24 item 1):
// every page that writes a provisional rating with a "?" says in words
// what the "?" means (a tooltip is not seen on a phone). The profile, the
// lobby, the game room and the leaderboard are checked by their own tests
// (ratingchange, socialgaps, leaderboard); here the bot ladder's page and
// the puzzle page. Their answers are taken from the server and only the
// provisional flag is set or cleared, so that the test does not depend on
// how settled the shared server's bots and puzzles happen to be.

import {test, before, after} from 'node:test'
import assert from 'node:assert/strict'
import path from 'node:path'
import {launch, newPage, assertNoErrors, registered, resize, settled, BASE, OUT} from './helpers.mjs'

let browser
before(async () => {
  browser = await launch()
})
after(async () => {
  await browser?.close()
})

/** shoot saves the page at 1280×800 and 390×844 (web/test/out/) and checks that it does not scroll sideways. */
async function shoot(page, name) {
  for (const [width, height] of [[1280, 800], [390, 844]]) {
    await resize(page, {width, height})
    await settled(page)
    assert.equal(await page.evaluate(() => document.documentElement.scrollWidth <= innerWidth), true, `${name} scrolls sideways at ${width}px`)
    await page.screenshot({path: path.join(OUT, `${name}-${width}x${height}.png`), fullPage: true})
  }
}

const note = 'A ? after a rating: provisional — too few rated games yet for it to be sure.'

/** ladderAnswer is a ladder with one bot account and one level, the bot's rating provisional or not. */
function ladderAnswer(provisional) {
  return {
    game: 'sgolte',
    entrants: [
      {id: 'level:easy', name: 'easy', anchor: true, active: true, rating: 1200, deviation: 50, provisional: false, games: 3, wins: 1, draws: 0, losses: 2, playing: 0},
      {id: 'user:7', name: 'provbot', bot: true, active: true, rating: 1310, deviation: 240, provisional, games: 3, wins: 2, draws: 0, losses: 1, playing: 1},
    ],
    headToHead: [],
    games: [],
  }
}

test('the bot ladder explains the ? of a provisional rating, and only when one is shown', async () => {
  const page = await newPage(browser, {viewport: {width: 390, height: 844}})
  let provisional = true
  await page.route('**/api/ladder/sgolte', (route) => route.fulfill({status: 200, contentType: 'application/json', body: JSON.stringify(ladderAnswer(provisional))}))
  await page.goto(BASE + '/#/ladder/sgolte')
  await page.waitForSelector('[data-test=ladder-table] tr[data-entrant="user:7"]')
  assert.match(await page.textContent('[data-test=ladder-table] tr[data-entrant="user:7"]'), /1310\? ±240/)
  assert.equal(await page.textContent('[data-test=ladder] [data-test=provisional-note]'), note)
  await shoot(page, 'provisional-ladder')
  // Settled: no "?", no note (the page asks again every 5 s).
  provisional = false
  await page.waitForFunction(() => !/\?/.test(document.querySelector('[data-test=ladder-table] tr[data-entrant="user:7"]')?.textContent ?? '?'))
  assert.equal(await page.$('[data-test=ladder] [data-test=provisional-note]'), null)
  assertNoErrors(page)
  await page.context().close()
})

test('the puzzle page explains the ? of a provisional rating, the player\'s or the puzzle\'s', async () => {
  const page = await newPage(browser, {viewport: {width: 390, height: 844}})
  await registered(page, 'pv')
  // me / puzzles: whose rating the answer marks provisional.
  let me = true
  let puzzles = false
  await page.route('**/api/puzzles/sgolte', async (route) => {
    const res = await route.fetch()
    const body = await res.json()
    body.player.rated = true
    body.player.rating = body.player.rating || {rating: 1500, deviation: 350}
    body.player.rating.provisional = me
    for (const p of body.puzzles) if (p.rating) p.rating.provisional = puzzles
    await route.fulfill({response: res, json: body})
  })
  const open = async () => {
    await page.goto(BASE + '/#/')
    await page.goto(BASE + '/#/puzzles/sgolte')
    await page.waitForFunction(() => /\d/.test(document.querySelector('[data-test=puzzle-my-rating]')?.textContent || ''))
    await page.waitForFunction(() => /\d/.test(document.querySelector('[data-test=puzzle-rating]')?.textContent || ''))
  }
  await open()
  assert.match(await page.textContent('[data-test=puzzle-my-rating]'), /\d\?/)
  assert.doesNotMatch(await page.textContent('[data-test=puzzle-rating]'), /\?/)
  assert.equal(await page.textContent('[data-test=puzzle-bar] [data-test=provisional-note]'), note)
  await shoot(page, 'provisional-puzzle')

  me = false
  puzzles = true
  await open()
  assert.doesNotMatch(await page.textContent('[data-test=puzzle-my-rating]'), /\?/)
  assert.match(await page.textContent('[data-test=puzzle-rating]'), /\d\?/)
  assert.equal(await page.textContent('[data-test=puzzle-bar] [data-test=provisional-note]'), note)

  puzzles = false
  await open()
  assert.doesNotMatch(await page.textContent('[data-test=puzzle-bar] .puzzle-ratings'), /\?/)
  assert.equal(await page.$('[data-test=puzzle-bar] [data-test=provisional-note]'), null)
  assertNoErrors(page)
  await page.context().close()
})
