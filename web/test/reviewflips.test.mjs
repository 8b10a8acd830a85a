// Skyjo's review never marks a choice that is the same from the player's
// view: at the start of a round every face-down card is like another, so
// none of the opening flips may carry a mark ("flip c1 ?! better flip b3"
// was sampling noise shown as a mistake; issue 27, point 1). The review's
// header, table and board name a bot by its level without a second pair
// of brackets around it ("Winner: Bot (easy) (Player 2)" was shown; now
// "Winner: Bot (easy) · Player 2").

import {test, before, after} from 'node:test'
import assert from 'node:assert/strict'
import {launch, newPage, assertNoErrors, guest, api, createGame, playByApi, BASE} from './helpers.mjs'

let browser
before(async () => {
  browser = await launch()
})
after(async () => {
  await browser?.close()
})

test("Skyjo's review marks no opening flip and names the winning bot without doubled brackets", async () => {
  const page = await newPage(browser, {viewport: {width: 1280, height: 800}})
  await guest(page)
  const g = await createGame(page, {game: 'skyjo', options: {players: '2', target: '1'}, seats: [{kind: 'me'}, {kind: 'bot', level: 'easy'}]})
  // The opening (two flips each) and a few turns, then a resignation: the
  // bot wins, so the header names it, and the review stays short.
  assert.ok((await playByApi(page, g.id, 8)) >= 8)
  const res = await api(page, 'POST', `/games/${g.id}/resign`, {})
  assert.equal(res.status, 200, JSON.stringify(res.body))

  await page.goto(BASE + '/#/review/' + g.id)
  await page.waitForSelector('[data-test=review-counts] tr + tr th', {timeout: 200000})
  const rows = await page.$$eval('[data-test=review-moves] li[data-ply]:not([data-ply="0"])', (lis) =>
    lis.map((li) => ({move: li.querySelector('code').textContent, marked: li.classList.contains('marked'), cls: li.className})))
  // The opening: the flips made before any card is drawn or taken.
  const opening = []
  for (const r of rows) {
    if (!/^flip\b/.test(r.move)) break
    opening.push(r)
  }
  assert.equal(opening.length, 4, 'two opening flips each: ' + rows.map((r) => r.move).join(', '))
  for (const r of opening) assert.equal(r.marked, false, `the opening ${r.move} is marked (${r.cls})`)

  const header = await page.textContent('.result')
  assert.match(header, /Bot \(easy\) · Player 2/, header)
  const heads = await page.$$eval('[data-test=review-counts] tr + tr th', (ths) => ths.map((th) => th.textContent))
  const info = await page.textContent('.side-info')
  for (const text of [header, ...heads, info]) {
    assert.doesNotMatch(text, /\(\(|\)\)|\) \(/, 'doubled brackets: ' + text)
  }
  assertNoErrors(page)
  await page.context().close()
})
