// Skyjo tables (issue 25): a registered player creates a table tournament
// through the page's form (the games offered are those of 3 seats or
// more, with the most players at a table), starting in a few seconds; two
// others join. The site seats the three at one table: the page shows round
// 1's table with its seats and a link to its Skyjo game. A player resigns,
// the other two share the first places (1.5 points each, no Skyjo total),
// the standings show the totals that break ties, and the podium appears.
// Screenshots at 1280×800 and 390×844, with no sideways scroll.

import {test, before, after} from 'node:test'
import assert from 'node:assert/strict'
import path from 'node:path'
import {launch, newPage, assertNoErrors, BASE, SHOTS, apiPaced, registered, waitUntil} from './helpers.mjs'

let browser
before(async () => {
  browser = await launch()
})
after(async () => {
  await browser?.close()
})

async function sideways(page) {
  return page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth)
}

test('a Skyjo table tournament: its tables, games and standings on its page', async () => {
  const pa = await newPage(browser)
  const pb = await newPage(browser)
  const pc = await newPage(browser)
  const [a, b, c] = [await registered(pa, 'tb'), await registered(pb, 'tb'), await registered(pc, 'tb')]

  await pa.goto(BASE + '/#/tournaments')
  await pa.waitForSelector('[data-test=tn-form]')
  await pa.fill('[data-test=tn-name]', 'Skyjo night ' + a)
  await pa.selectOption('[data-test=tn-format]', 'tables')
  // Only games of three seats or more: Skyjo.
  const offered = await pa.$$eval('[data-test=tn-game] option', (os) => os.map((o) => o.value))
  assert.deepEqual(offered, ['skyjo'])
  assert.equal(await pa.isVisible('[data-test=tn-max-table]'), true)
  assert.equal(await pa.isVisible('[data-test=tn-rounds]'), true)
  await pa.fill('[data-test=tn-max-table]', '4')
  await pa.fill('[data-test=tn-rounds]', '1')
  const start = await pa.evaluate(() => {
    const d = new Date(Date.now() + 15000)
    return new Date(d.getTime() - d.getTimezoneOffset() * 60000).toISOString().slice(0, 19)
  })
  await pa.fill('[data-test=tn-start]', start)
  await pa.click('[data-test=tn-submit]')
  await pa.waitForURL(/#\/tournament\/[\w-]+$/)
  const id = pa.url().split('/').pop()
  assert.match(await pa.textContent('[data-test=tn-facts]'), /Skyjo tables · Skyjo · .*tables of up to 4 · 1 round/)
  await pa.click('[data-test=tn-join]')
  await pa.waitForSelector('[data-test=tn-withdraw]')
  for (const p of [pb, pc]) {
    const res = await apiPaced(p, 'POST', `/tournaments/${id}/join`, {})
    assert.equal(res.status, 200, JSON.stringify(res.body))
  }

  // The site seats the three at one table: its seats and its game's link.
  await pa.waitForSelector('[data-test=tn-round][data-round="1"] [data-test=tn-table]', {timeout: 60000})
  const tables = await pa.$$eval('[data-test=tn-table]', (ts) => ts.map((el) => ({
    seats: [...el.querySelectorAll('.tn-seats li')].map((li) => li.dataset.user),
    href: el.querySelector('a[data-test=tn-game]').getAttribute('href'),
    result: el.querySelector('a[data-test=tn-game]').dataset.result,
  })))
  assert.equal(tables.length, 1, JSON.stringify(tables))
  assert.equal(tables[0].seats.length, 3)
  assert.deepEqual([...tables[0].seats].sort(), [a, b, c].sort())
  assert.match(tables[0].href, /^#\/game\/[\w-]+$/)
  assert.equal(tables[0].result, '')
  const gameId = tables[0].href.split('/').pop()
  // The table's game id is the director's before the game is stored (a
  // director that takes over makes the same one), so the page may show the
  // link a moment before the game answers.
  const g = await waitUntil(async () => (await apiPaced(pa, 'GET', '/games/' + gameId)).body?.game, {what: 'the table\'s game ' + gameId})
  assert.equal(g.game, 'skyjo')
  assert.deepEqual(g.seats.map((s) => s.user), tables[0].seats)

  for (const [p, w, hh, scheme] of [[pa, 1280, 800, 'light'], [pb, 390, 844, 'dark']]) {
    await p.emulateMedia({colorScheme: scheme})
    await p.setViewportSize({width: w, height: hh})
    if (p !== pa) {
      await p.goto(BASE + '/#/tournament/' + id)
      await p.waitForSelector('[data-test=tn-table]')
    }
    assert.ok(await sideways(p) <= 0, `sideways scroll at ${w}px`)
    await p.screenshot({path: path.join(SHOTS, `tables-running-${w}x${hh}-${scheme}.png`), fullPage: true})
  }

  // The table's first seat resigns: the other two share the first places.
  const first = {[a]: pa, [b]: pb, [c]: pc}[tables[0].seats[0]]
  const res = await apiPaced(first, 'POST', `/games/${gameId}/resign`, {})
  assert.equal(res.status, 200, JSON.stringify(res.body))
  await pa.waitForSelector('[data-test=tn-podium]', {timeout: 60000})
  await pa.waitForSelector('[data-test=tn-table] a[data-result=placed]')
  const scores = await pa.$$eval('[data-test=tn-seat-score]', (els) => els.map((e) => e.textContent.trim()))
  assert.deepEqual(scores, ['0 pts · 0', '1.5 pts · 0', '1.5 pts · 0'])
  const standings = await pa.$$eval('[data-test=tn-standings] tbody tr', (trs) => trs.map((tr) => ({
    user: tr.dataset.user, points: tr.querySelector('[data-test=tn-points]').textContent, total: tr.querySelector('[data-test=tn-skyjo-total]').textContent,
  })))
  assert.deepEqual(standings.map((s) => s.points), ['1.5', '1.5', '0'])
  assert.equal(standings[2].user, tables[0].seats[0])
  assert.ok(standings.every((s) => s.total === '0'))
  for (const [p, w, hh, scheme] of [[pa, 1280, 800, 'light'], [pb, 390, 844, 'dark']]) {
    await p.setViewportSize({width: w, height: hh})
    if (p !== pa) await p.waitForSelector('[data-test=tn-podium]', {timeout: 60000})
    assert.ok(await sideways(p) <= 0, `sideways scroll at ${w}px`)
    await p.screenshot({path: path.join(SHOTS, `tables-finished-${w}x${hh}-${scheme}.png`), fullPage: true})
  }
  for (const p of [pa, pb, pc]) assertNoErrors(p)
})
