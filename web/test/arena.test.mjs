// Arenas (issue 25): two registered players; one creates an arena through
// the form (a realtime clock, berserk allowed), both join from its page and
// are paired at once; the loser-to-be berserks in the game room (the
// button goes, the clock halves); the game ends, both are paired again at
// once and the live standings show the winner's 2 points. Screenshots of
// the arena page at 1280×800 and 390×844, with no sideways scroll.

import {test, before, after} from 'node:test'
import assert from 'node:assert/strict'
import path from 'node:path'
import {launch, newPage, assertNoErrors, BASE, apiPaced, registered} from './helpers.mjs'

const SHOTS = process.env.ARENA_SHOTS // screenshots for review, outside the repository
let browser
before(async () => {
  browser = await launch()
})
after(async () => {
  await browser?.close()
})

/** myGame waits until page's arena page links to a game other than not, and returns its id. */
async function myGame(page, not) {
  await page.waitForFunction((not) => {
    const a = document.querySelector('[data-test=tn-my-game]')
    return a && !a.getAttribute('href').endsWith('/' + not)
  }, not, {timeout: 20000})
  return (await page.getAttribute('[data-test=tn-my-game]', 'href')).split('/').pop()
}

test('an arena: paired, berserk, paired again, live standings', async (t) => {
  const pa = await newPage(browser)
  await pa.goto(BASE + '/')
  const pb = await newPage(browser)
  const a = await registered(pa, 'ar')
  const b = await registered(pb, 'ar')

  await pa.goto(BASE + '/#/tournaments')
  await pa.waitForSelector('[data-test=tn-form]')
  await pa.fill('[data-test=tn-name]', 'Arena ' + a)
  await pa.selectOption('[data-test=tn-format]', 'arena')
  assert.ok(await pa.isHidden('[data-test=tn-rounds]'))
  await pa.fill('[data-test=tn-minutes]', '20')
  const clock = await pa.$eval('[data-test=tn-clock]', (s) => [...s.options].find((o) => /\+/.test(o.textContent))?.value)
  await pa.selectOption('[data-test=tn-clock]', clock) // a realtime clock
  await pa.fill('[data-test=tn-start]', await pa.evaluate(() => {
    const d = new Date()
    return new Date(d.getTime() - d.getTimezoneOffset() * 60000).toISOString().slice(0, 19)
  }))
  await pa.click('[data-test=tn-submit]')
  await pa.waitForURL(/#\/tournament\/[\w-]+$/)
  const id = pa.url().split('/').pop()
  await pa.click('[data-test=tn-join]')
  await pb.goto(BASE + '/#/tournament/' + id)
  await pb.click('[data-test=tn-join]')
  const g1 = await myGame(pa)
  assert.equal(await myGame(pb), g1)
  await pa.waitForSelector('[data-test=tn-ends]')
  assert.match(await pa.textContent('[data-test=tn-ends]'), /ends in 1\d:\d\d/)

  // b berserks in the game room: the button goes, b's clock is halved.
  await pb.click('[data-test=tn-my-game]')
  await pb.waitForSelector('[data-test=berserk]')
  const seat = (await apiPaced(pb, 'GET', '/games/' + g1)).body.game.seats.findIndex((s) => s.user === b)
  await pb.click('[data-test=berserk]')
  await pb.waitForSelector('[data-test=berserked]')
  const g = (await apiPaced(pb, 'GET', '/games/' + g1)).body.game
  assert.equal(g.clock.berserk, 1 << seat)
  const shown = await pb.textContent(`[data-test=clock-${seat}]`)
  const full = g.clock.initialMs / 1000
  const [m, s] = shown.trim().split(':').map(Number)
  assert.ok(m * 60 + s <= full / 2 && m * 60 + s > full / 2 - 30, `b's clock shows ${shown}, of ${full} s`)

  // b resigns: both are paired again at once, and a has 2 points.
  assert.equal((await apiPaced(pb, 'POST', `/games/${g1}/resign`, {})).status, 200)
  await pb.goto(BASE + '/#/tournament/' + id)
  const g2 = await myGame(pa, g1)
  assert.equal(await myGame(pb, g1), g2)
  await pa.waitForFunction((a) => document.querySelector(`tr[data-user="${a}"] [data-test=tn-points]`)?.textContent === '2', a)
  assert.equal(await pa.textContent(`tr[data-user="${b}"] [data-test=tn-points]`), '0')
  assert.equal(await pa.textContent(`tr[data-user="${b}"] td.tn-bz`), '1') // one berserk

  if (SHOTS) {
    await pa.screenshot({path: path.join(SHOTS, 'arena-1280x800.png')})
    await pa.setViewportSize({width: 390, height: 844})
    await pa.waitForTimeout(200)
    await pa.screenshot({path: path.join(SHOTS, 'arena-390x844.png'), fullPage: true})
  }
  await pa.setViewportSize({width: 390, height: 844})
  assert.equal(await pa.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth), 0, 'sideways scroll at 390 px')
  assertNoErrors(pa)
  assertNoErrors(pb)
})
