// Small gaps of issues 24 and 26 closed together: the lobby says in words,
// once, what the "?" of a provisional rating means; Home's top fives say
// who is listed; the history page's clock menu shows an exact control of
// its address ("5+3") as selected rather than "Any".

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

const NOTE = 'A ? after a rating: provisional — too few rated games yet for it to be sure.'

/** move plays a legal move for whichever of pages is to move. */
async function move(pages, id) {
  for (const page of pages) {
    const g = (await apiPaced(page, 'GET', '/games/' + id)).body
    if (!g.legal?.length) continue
    const res = await apiPaced(page, 'POST', `/games/${id}/moves`, {ply: g.moves.length, move: g.legal[0]})
    assert.equal(res.status, 200, JSON.stringify(res.body))
    return
  }
  assert.fail('nobody may move in ' + id)
}

test('the lobby explains a provisional "?" rating once, under its lists', async () => {
  const a = await newPage(browser)
  const b = await newPage(browser)
  await registered(a, 'pv')
  const bn = await registered(b, 'pv')
  // One rated game played to its end gives both a provisional rating.
  const res = await apiPaced(a, 'POST', '/games', {game: 'sgolte', seats: [{kind: 'me'}, {kind: 'invite', user: bn}], rated: true})
  assert.equal(res.status, 201, JSON.stringify(res.body))
  const id = res.body.game.id
  assert.equal((await apiPaced(b, 'POST', `/games/${id}/join`, {})).status, 200)
  await move([a, b], id)
  await move([a, b], id)
  assert.equal((await apiPaced(b, 'POST', `/games/${id}/resign`, {})).status, 200)
  // An open rated game of a's: the lobby shows a's rating with its "?".
  const open = await apiPaced(a, 'POST', '/games', {game: 'sgolte', seats: [{kind: 'me'}, {kind: 'open'}], rated: true})
  assert.equal(open.status, 201, JSON.stringify(open.body))
  await b.goto(BASE + '/#/lobby')
  const row = b.locator(`[data-test=open-games] li[data-id="${open.body.game.id}"]`)
  await row.locator('[data-test=rating]').waitFor()
  assert.match(await row.locator('[data-test=rating]').textContent(), /^\d+\?$/)
  const note = b.locator('[data-test=lobby-rating-note] [data-test=provisional-note]')
  await note.waitFor()
  assert.equal(await b.locator('[data-test=provisional-note]').count(), 1, 'said once, not per row')
  assert.equal(await note.textContent(), NOTE)
  assert.equal(await note.isVisible(), true)
  for (const [width, height] of [[1280, 800], [390, 844]]) {
    await resize(b, {width, height})
    await settled(b)
    await note.scrollIntoViewIfNeeded()
    await b.screenshot({path: path.join(OUT, `lobby-rating-note-${width}x${height}.png`)})
  }
  await b.evaluate(() => import('/js/i18n.js').then((m) => m.setLang('ko')))
  await b.waitForFunction(() => /임시 레이팅/.test(document.querySelector('[data-test=provisional-note]')?.textContent || ''))
  await b.evaluate(() => import('/js/i18n.js').then((m) => m.setLang('en')))
  assertNoErrors(a)
  assertNoErrors(b)
})

test("Home's top fives say who is listed", async () => {
  const p = await newPage(browser)
  await p.goto(BASE + '/#/')
  const rule = p.locator('[data-test=lb-overview-rule]')
  await rule.waitFor()
  // every game's top five has answered (the section is drawn again on each answer)
  await p.waitForFunction(() => [...document.querySelectorAll('.lb-top-game')].every((g) => !/…/.test(g.textContent)) &&
    document.querySelectorAll('.lb-top-game').length > 0)
  assert.equal(await rule.textContent(),
    'Settled ratings only (±110 or less: about ten rated games); a provisional rating (shown with a ?) is not listed yet.')
  assert.equal(await p.locator('[data-test=lb-overview] [data-test=lb-overview-rule]').count(), 1)
  await rule.scrollIntoViewIfNeeded()
  await p.screenshot({path: path.join(OUT, 'home-lb-rule-1280x900.png')})
  await p.evaluate(() => import('/js/i18n.js').then((m) => m.setLang('mn')))
  await p.waitForFunction(() => /тогтсон үнэлгээ/.test(document.querySelector('[data-test=lb-overview-rule]')?.textContent || ''))
  await p.evaluate(() => import('/js/i18n.js').then((m) => m.setLang('en')))
  assertNoErrors(p)
})

test('the history clock menu shows an exact control of the address as selected', async () => {
  const p = await newPage(browser)
  const name = await registered(p, 'hc')
  // as typed (the "+" of a query reads as a space) and as the page writes it
  for (const q of ['5+3', '5%2B3']) {
    await p.goto(BASE + '/#/history/' + encodeURIComponent(name) + '?clock=' + q)
    const sel = p.locator('[data-test=filter-clock]')
    await sel.waitFor()
    await p.waitForFunction(() => document.querySelector('[data-test=filter-clock]')?.value === '5+3')
    assert.equal(await sel.evaluate((s) => s.selectedOptions[0].textContent), 'Exactly 5+3')
    // the server took the filter: the list answers (no games yet), not a refusal
    await p.locator('[data-test=history-empty]').waitFor()
    assert.equal(await p.locator('[data-test=history-list] .error').count(), 0)
  }
  const sel = p.locator('[data-test=filter-clock]')
  // a kind of the menu's own is not doubled
  await p.goto(BASE + '/#/history/' + encodeURIComponent(name) + '?clock=blitz')
  await p.waitForFunction(() => document.querySelector('[data-test=filter-clock]')?.value === 'blitz')
  assert.equal(await sel.evaluate((s) => [...s.options].filter((o) => o.value === 'blitz').length), 1)
  assert.equal(await sel.evaluate((s) => [...s.options].some((o) => o.value === '5+3')), false)
  assertNoErrors(p)
})
