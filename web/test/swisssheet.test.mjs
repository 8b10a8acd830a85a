// A big Swiss's table round by round (issue 25): above 16 players the
// page's cross-table would be a square of N×N cells (40,000 for 200
// players), so a Swiss of more shows each player's rounds instead — the
// opponent's rank, the side (○ first, ● second) and the result, linked to
// the game; + a bye, – not paired. Seventeen players registered through
// the API join a Swiss that starts a few seconds later; once round 1 is
// paired (eight boards and a bye) every row's cell is what the API's
// round says of that player. Screenshots at 1280×800 and 390×844 (light and dark), the
// table scrolling in its box, never the page.

import {test, before, after} from 'node:test'
import assert from 'node:assert/strict'
import path from 'node:path'
import {launch, newPage, assertNoErrors, BASE, OUT, apiPaced, registered, waitUntil, joiners} from './helpers.mjs'

let browser
before(async () => {
  browser = await launch()
})
after(async () => {
  await browser?.close()
})

test('a Swiss of 17 players shows its table round by round', async () => {
  const page = await newPage(browser)
  await registered(page, 'sw')
  const res = await apiPaced(page, 'POST', '/tournaments', {name: 'Big Swiss', format: 'swiss', game: 'sploof', rounds: 3,
    clock: {kind: 'correspondence', days: 3}, start: new Date(Date.now() + 20000).toISOString()})
  assert.equal(res.status, 201, JSON.stringify(res.body))
  const id = res.body.tournament.id
  const names = await joiners(id, 17, 's')
  let detail
  await waitUntil(async () => {
    detail = (await apiPaced(page, 'GET', '/tournaments/' + id)).body
    return detail.rounds.length >= 1
  }, {timeout: 120000, what: 'round 1 paired'})
  const players = detail.standings.map((s) => s.name)
  assert.ok(players.length > 16, `${players.length} players in the standings`)
  const rank = new Map(players.map((n, i) => [n, i + 1]))
  const want = new Map() // name → what round 1's cell says
  for (const b of detail.rounds[0].boards) {
    if (!b.black || b.result === 'bye') want.set(b.white, '+')
    else {
      want.set(b.white, `${rank.get(b.black)}○ …`)
      want.set(b.black, `${rank.get(b.white)}● …`)
    }
  }
  assert.ok([...want.values()].includes('+'), 'an odd number: a bye')

  await page.goto(BASE + '/#/tournament/' + id)
  await page.waitForSelector('[data-test=tn-round-sheet]')
  assert.equal(await page.$('[data-test=tn-cross]:not(.tn-round-sheet)'), null, 'no square cross-table')
  const shown = await page.$$eval('[data-test=tn-round-sheet] tbody tr', (trs) => trs.map((tr) => [tr.dataset.user,
    tr.querySelector('[data-test=tn-sheet-cell]').textContent.trim()]))
  assert.equal(shown.length, players.length)
  for (const [name, cell] of shown) assert.equal(cell, want.get(name) ?? '–', name)
  for (const n of names) assert.ok(rank.has(n), n + ' in the standings')
  // A played cell links to its game.
  const link = await page.getAttribute('[data-test=tn-round-sheet] [data-test=tn-sheet-cell] a', 'href')
  assert.match(link, /^#\/game\//)

  await page.setViewportSize({width: 1280, height: 800})
  await page.locator('[data-test=tn-round-sheet]').scrollIntoViewIfNeeded()
  await page.screenshot({path: path.join(OUT, 'swiss-sheet-1280x800.png')})
  await page.setViewportSize({width: 390, height: 844})
  await page.waitForFunction(() => innerWidth === 390)
  await page.locator('[data-test=tn-round-sheet]').scrollIntoViewIfNeeded()
  await page.screenshot({path: path.join(OUT, 'swiss-sheet-390x844.png')})
  assert.equal(await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth), 0, 'sideways scroll at 390 px')
  await page.emulateMedia({colorScheme: 'dark'})
  await page.waitForFunction(() => matchMedia('(prefers-color-scheme: dark)').matches)
  await page.screenshot({path: path.join(OUT, 'swiss-sheet-390x844-dark.png')})
  await page.setViewportSize({width: 1280, height: 800})
  await page.locator('[data-test=tn-round-sheet]').scrollIntoViewIfNeeded()
  await page.screenshot({path: path.join(OUT, 'swiss-sheet-1280x800-dark.png')})
  assertNoErrors(page)
})
