// Arenas (issue 25): two registered players; one creates an arena through
// the form (a realtime clock, berserk allowed), both join from its page and
// are paired at once; the loser-to-be berserks in the game room (the
// button goes, the clock halves); the game ends, both are paired again at
// once and the live standings show the winner's 2 points. Then a streak:
// b resigns twice more, so a wins three in a row — after the second the
// standings mark a on fire (🔥), and the third counts double (2 + 2 + 4 =
// 8, its sheet entry marked). The games list shows the game being played
// and the three finished ones with links; a click on a player's line opens
// their games (asked of GET .../games?player=NAME) — opponent, result,
// points, the doubled one and b's berserk marked. Screenshots of the arena page at 1280×800 and 390×844
// (docs/screenshots/issue25/ with UPDATE_SCREENSHOTS=1), with no sideways
// scroll.

import {test, before, after} from 'node:test'
import assert from 'node:assert/strict'
import path from 'node:path'
import fs from 'node:fs'
import {launch, newPage, assertNoErrors, BASE, SHOTS, apiPaced, registered} from './helpers.mjs'

const SHOTDIR = path.join(SHOTS, 'issue25')
let browser
before(async () => {
  browser = await launch()
})
after(async () => {
  await browser?.close()
})

/**
 * myGame waits until page's arena page links to a game other than not, and
 * returns its id. (A clean-clone run once timed out here waiting for the
 * pairing after a resignation, and did not again in a dozen runs: a timeout
 * says what the page showed and what the server answered, for the next.)
 */
async function myGame(page, not) {
  await page.waitForFunction((not) => {
    const a = document.querySelector('[data-test=tn-my-game]')
    return a && !a.getAttribute('href').endsWith('/' + not)
  }, not, {timeout: 20000}).catch(async (e) => {
    const shown = await page.getAttribute('[data-test=tn-my-game]', 'href', {timeout: 1000}).catch(() => '(no link)')
    const id = page.url().split('/').pop()
    const {status, body} = await apiPaced(page, 'GET', '/tournaments/' + id)
    assert.fail(`${e.message}\nthe page links to ${shown}; GET /api/tournaments/${id}: ${status} ` +
      JSON.stringify(body).slice(0, 3000))
  })
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
  assert.match(await pa.textContent('[data-test=tn-ends]'), /ends in (20:00|1\d:\d\d)/) // 20 minutes from a start in this second

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

  // Two more wins for a: on fire after the second, the third counts double.
  const ids = [g1, g2] // the games in the order played
  for (const n of [2, 3]) {
    assert.equal((await apiPaced(pb, 'POST', `/games/${ids.at(-1)}/resign`, {})).status, 200)
    ids.push(await myGame(pa, ids.at(-1)))
    if (n === 2) await pa.waitForSelector(`tr[data-user="${a}"] [data-test=tn-fire]`) // two wins in a row: the next counts double
  }
  const [, , g3, g4] = ids
  await pa.waitForFunction((a) => document.querySelector(`tr[data-user="${a}"] [data-test=tn-points]`)?.textContent === '8', a)
  assert.deepEqual(await pa.$$eval(`tr[data-user="${a}"] [data-test=tn-sheet] span`, (ss) => ss.map((x) => [x.textContent, x.classList.contains('fire')])),
    [['2', false], ['2', false], ['4', true]])
  assert.ok(await pa.$(`tr[data-user="${a}"] [data-test=tn-fire]`), 'a is still on fire')
  assert.equal(await pa.$(`tr[data-user="${b}"] [data-test=tn-fire]`), null)

  // The games: the one being played and the three finished (the latest first), each linked.
  await pa.waitForFunction(() => document.querySelectorAll('[data-test=tn-arena-finished] [data-test=tn-arena-game]').length === 3)
  const finished = await pa.$$eval('[data-test=tn-arena-finished] [data-test=tn-game]', (as) => as.map((x) => [x.getAttribute('href'), x.dataset.result]))
  const aWon = async (g) => ((await apiPaced(pa, 'GET', '/games/' + g)).body.game.seats[0].user === a ? '1-0' : '0-1')
  assert.deepEqual(finished, [[`#/game/${g3}`, await aWon(g3)], [`#/game/${g2}`, await aWon(g2)], [`#/game/${g1}`, await aWon(g1)]])
  assert.deepEqual(await pa.$$eval('[data-test=tn-arena-ongoing] [data-test=tn-game]', (as) => as.map((x) => x.getAttribute('href'))), ['#/game/' + g4])

  // A click on a's line opens a's games, asked of the server (the answer's rounds
  // hold only the recent boards): three won against b, the third doubled, one being played.
  const asked = pa.waitForRequest((r) => r.url().endsWith(`/api/tournaments/${id}/games?player=${a}`))
  await pa.click(`tr[data-user="${a}"] td.tn-bz`)
  await asked
  await pa.waitForSelector(`[data-test=tn-player-games][data-user="${a}"] [data-test=tn-pg-game]`)
  const games = await pa.$$eval('[data-test=tn-pg-game]', (rows) => rows.map((r) => ({
    opp: r.dataset.opp, result: r.querySelector('[data-test=tn-pg-result]')?.textContent, href: r.querySelector('[data-test=tn-pg-result]')?.getAttribute('href'),
    points: r.querySelector('[data-test=tn-pg-points]')?.textContent ?? '', doubled: !!r.querySelector('[data-test=tn-pg-doubled]'),
    berserk: !!r.querySelector('[data-test=tn-pg-berserk]')})))
  assert.deepEqual(games, [
    {opp: b, result: 'won', href: '#/game/' + g1, points: '2', doubled: false, berserk: false},
    {opp: b, result: 'won', href: '#/game/' + g2, points: '2', doubled: false, berserk: false},
    {opp: b, result: 'won', href: '#/game/' + g3, points: '4', doubled: true, berserk: false},
    {opp: b, result: 'playing', href: '#/game/' + g4, points: '', doubled: false, berserk: false},
  ])
  // b's games, opened by the points button (as on a phone, where the sheet is hidden): b berserked in the first.
  await pa.click(`tr[data-user="${b}"] [data-test=tn-show-games]`)
  await pa.waitForSelector(`[data-test=tn-player-games][data-user="${b}"] [data-test=tn-pg-game]`)
  assert.deepEqual(await pa.$$eval('[data-test=tn-pg-game]', (rows) => rows.map((r) => [r.querySelector('[data-test=tn-pg-result]')?.textContent, !!r.querySelector('[data-test=tn-pg-berserk]')])),
    [['lost', true], ['lost', false], ['lost', false], ['playing', false]])
  await pa.click(`tr[data-user="${a}"] [data-test=tn-show-games]`)
  await pa.waitForSelector(`[data-test=tn-player-games][data-user="${a}"] [data-test=tn-pg-game]`)
  assert.equal(await pa.getAttribute('[data-test=tn-help]', 'href'), '#/help/tournaments')

  fs.mkdirSync(SHOTDIR, {recursive: true})
  await pa.setViewportSize({width: 1280, height: 800})
  await pa.screenshot({path: path.join(SHOTDIR, 'arena-1280x800.png'), fullPage: true})
  await pa.setViewportSize({width: 390, height: 844})
  await pa.waitForTimeout(200)
  await pa.screenshot({path: path.join(SHOTDIR, 'arena-390x844.png'), fullPage: true})
  assert.equal(await pa.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth), 0, 'sideways scroll at 390 px')

  // The page is renewed in place at each push, not drawn anew: a finished
  // game's link, Pause and Withdraw stay the same elements through two more
  // games (b resigns each: a push as it ends, one as the next is paired), the
  // finished games growing above the link; the kept link opens its game.
  await pa.setViewportSize({width: 1280, height: 800})
  const kept = {link: await pa.$(`[data-test=tn-arena-finished] a[href="#/game/${g1}"]`), pause: await pa.$('[data-test=tn-pause]'),
    withdraw: await pa.$('[data-test=tn-withdraw]'), help: await pa.$('[data-test=tn-help]')}
  for (const n of [5, 6]) {
    assert.equal((await apiPaced(pb, 'POST', `/games/${ids.at(-1)}/resign`, {})).status, 200)
    ids.push(await myGame(pa, ids.at(-1)))
    await pa.waitForFunction((n) => document.querySelectorAll('[data-test=tn-arena-finished] [data-test=tn-arena-game]').length === n, n - 1)
  }
  for (const [what, el] of Object.entries(kept)) assert.ok(await el.evaluate((e) => e.isConnected), `${what} is the same element after two more games`)
  await kept.link.click()
  await pa.waitForURL(new RegExp(`#/game/${g1}$`))
  assertNoErrors(pa)
  assertNoErrors(pb)
})
