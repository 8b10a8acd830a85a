// The game review as a player sees it after a game against a bot: the
// table of marks names each seat by its side as the game names it (Player
// 1 in Skyjo, Black in Sploof) and by its player, the bot as "Bot (easy)",
// in every language — never a raw key such as "colour.1" or "Seat 2".

import {test, before, after} from 'node:test'
import assert from 'node:assert/strict'
import path from 'node:path'
import {launch, newPage, assertNoErrors, guest, api, createGame, playByApi, userName, resize, BASE, SHOTS} from './helpers.mjs'

let browser
before(async () => {
  browser = await launch()
})
after(async () => {
  await browser?.close()
})

/** reviewRows opens the game's review and reads its table's row heads. */
async function reviewRows(page, id) {
  await page.goto(BASE + '/#/review/' + id)
  await page.reload()
  await page.waitForSelector('[data-test=review-counts] tr + tr th', {timeout: 200000})
  return page.$$eval('[data-test=review-counts] tr + tr th', (ths) => ths.map((th) => th.textContent))
}

test("Skyjo's review names the players and the bot, in English and Korean", async () => {
  const page = await newPage(browser, {viewport: {width: 1280, height: 800}})
  await guest(page)
  const me = await userName(page)
  // One round (a target of 1 ends the game after the first round).
  const g = await createGame(page, {game: 'skyjo', options: {players: '2', target: '1'}, seats: [{kind: 'me'}, {kind: 'bot', level: 'easy'}]})
  await playByApi(page, g.id)
  assert.deepEqual(await reviewRows(page, g.id), [`Player 1 · ${me}`, 'Player 2 · Bot (easy)'])
  await page.screenshot({path: path.join(SHOTS, 'review-skyjo-1280x800.png')})
  // the two curves (hidden cards: each player's own estimate) say whose is which colour
  assert.deepEqual(await page.$$eval('[data-test=graph-key]', (ks) => ks.map((k) => [k.textContent, getComputedStyle(k, '::before').borderTopColor])),
    [['Player 1', await page.$eval('.review-graph .curve.seat-0', (c) => getComputedStyle(c).stroke)],
      ['Player 2', await page.$eval('.review-graph .curve.seat-1', (c) => getComputedStyle(c).stroke)]])
  await resize(page, {width: 390, height: 844})
  assert.ok(await page.evaluate(() => document.documentElement.scrollWidth <= innerWidth), 'no sideways scroll on a phone')
  // drawn again to the phone's width: as high as on a wide screen's drawing, not a scaled-down sliver
  await page.waitForFunction(() => document.querySelector('.review-graph svg').getBoundingClientRect().height >= 100)
  await page.screenshot({path: path.join(SHOTS, 'review-skyjo-390x844.png'), fullPage: true})
  await page.setViewportSize({width: 1280, height: 800})
  await page.evaluate(() => localStorage.setItem('tabula.lang', 'ko'))
  const ko = await reviewRows(page, g.id)
  assert.deepEqual(ko.map((r) => r.split(' · ')[1]), [me, '봇 (쉬움)'])
  for (const r of ko) assert.doesNotMatch(r, /colour\.|seat\.|Seat|Player/, 'an untranslated label: ' + r)
  await page.screenshot({path: path.join(SHOTS, 'review-skyjo-ko-1280x800.png')})
  await page.evaluate(() => localStorage.removeItem('tabula.lang'))
  assertNoErrors(page)
  await page.context().close()
})

test("Sploof's review names the bot's side and the bot", async () => {
  const page = await newPage(browser, {viewport: {width: 1280, height: 800}})
  await guest(page)
  const me = await userName(page)
  const g = await createGame(page, {game: 'sploof', options: {first: 'white'}, seats: [{kind: 'me'}, {kind: 'bot', level: 'random'}]})
  // A few moves each, then a resignation: the review's labels come from the
  // seats, and a whole game played out cost half a minute of review search.
  assert.ok((await playByApi(page, g.id, 4)) >= 4)
  assert.equal((await api(page, 'POST', `/games/${g.id}/resign`, {})).status, 200)
  const rows = await reviewRows(page, g.id)
  assert.equal(rows.length, 2)
  assert.ok(rows.includes(`White · ${me}`) || rows.includes(`Black · ${me}`), rows.join(' | '))
  assert.ok(rows.some((r) => /^(Black|White) · Bot \(random\)$/.test(r)), rows.join(' | '))
  assertNoErrors(page)
  await page.context().close()
})
