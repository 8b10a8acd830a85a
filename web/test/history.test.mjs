// Game history (issue 24 item 7): a player's finished games on #/history/NAME,
// filtered by game and result from the form (the filters kept in the address,
// so a reload keeps them), a page at a time, each linking to its replay; a
// record chosen as a file in the page's import form opens as a replay, and a
// broken one pasted there is refused with the server's reason. Screenshots at
// 1280×800 and 390×844 (and dark) when HISTORY_SHOTS names a directory.

import {test, before, after} from 'node:test'
import assert from 'node:assert/strict'
import path from 'node:path'
import {mkdirSync} from 'node:fs'
import {launch, newPage, assertNoErrors, guest, userName, BASE, apiPaced, allowErrors} from './helpers.mjs'

let browser
before(async () => {
  browser = await launch()
})
after(async () => {
  await browser?.close()
})

/** finished: a creates a game of game, b joins, loser resigns at once; the game's id. */
async function finished(a, b, game, loser) {
  const res = await apiPaced(a, 'POST', '/games', {game, seats: [{kind: 'me'}, {kind: 'open'}]})
  assert.equal(res.status, 201, JSON.stringify(res.body))
  const id = res.body.game.id
  assert.equal((await apiPaced(b, 'POST', `/games/${id}/join`, {})).status, 200)
  const r = await apiPaced(loser, 'POST', `/games/${id}/resign`, {})
  assert.equal(r.status, 200, JSON.stringify(r.body))
  return id
}

const rows = (page) => page.$$eval('[data-test=history-game]', (els) => els.map((e) => e.dataset.id + ':' + e.dataset.game + ':' + e.dataset.outcome))

test('history: filter by game and result from the page, page on, import a record from the page', async () => {
  const a = await newPage(browser)
  const b = await newPage(browser)
  await guest(a)
  await guest(b)
  const an = await userName(a)
  const g1 = await finished(a, b, 'sgolte', b)
  const g2 = await finished(a, b, 'sploof', a)
  const g3 = await finished(a, b, 'sgolte', b)

  await a.goto(BASE + '/#/history/' + an)
  await a.waitForSelector('[data-test=history-game]')
  assert.deepEqual(await rows(a), [g3 + ':sgolte:win', g2 + ':sploof:loss', g1 + ':sgolte:win'])
  assert.equal(await a.getAttribute(`[data-id="${g2}"] [data-test=history-replay]`, 'href'), '#/replay/' + g2)

  // Filters from the form: each is a new address, which a reload keeps.
  await a.selectOption('[data-test=filter-game]', 'sgolte')
  await a.waitForFunction(() => location.hash.includes('game=sgolte') && document.querySelectorAll('[data-test=history-game]').length === 2)
  await a.selectOption('[data-test=filter-result]', 'loss')
  await a.waitForSelector('[data-test=history-empty]')
  await a.selectOption('[data-test=filter-result]', 'win')
  await a.waitForFunction(() => /result=win/.test(location.hash) && document.querySelectorAll('[data-test=history-game]').length === 2)
  await a.reload()
  await a.waitForSelector('[data-test=history-game]')
  assert.deepEqual(await rows(a), [g3 + ':sgolte:win', g1 + ':sgolte:win'])
  assert.equal(await a.inputValue('[data-test=filter-game]'), 'sgolte')
  assert.equal(await a.inputValue('[data-test=filter-result]'), 'win')

  // A page at a time (a shared address may set the page size).
  await a.goto(BASE + '/#/history/' + an + '?limit=1')
  const seen = []
  for (;;) {
    await a.waitForFunction((n) => document.querySelectorAll('[data-test=history-game]').length === 1 && !document.querySelector(`[data-id="${n}"]`), seen.at(-1) || '')
    seen.push(...(await rows(a)).map((r) => r.split(':')[0]))
    if (!(await a.$('[data-test=history-next]'))) break
    await a.click('[data-test=history-next]')
  }
  assert.deepEqual(seen, [g3, g2, g1])

  // A bad filter in a shared address: the server's words, naming it.
  await a.goto(BASE + '/#/history/' + an + '?opponent=nobody-here-zz')
  assert.match(await a.textContent('[data-test=history-list] [data-test=error-detail]'), /^opponent: /)

  // Import from the page: a broken record is refused in the server's words;
  // a good one opens as a replay.
  const record = (await apiPaced(a, 'GET', `/games/${g2}/record`)).body
  await a.goto(BASE + '/#/history/' + an)
  await a.fill('[data-test=import-text]', JSON.stringify({...record, id: undefined, moves: ['zz9']}))
  await a.click('[data-test=import-submit]')
  assert.match(await a.textContent('[data-test=import-msg] [data-test=error-detail]'), /zz9|ply 0/)
  assert.match(location(a), /#\/history\//)
  await a.setInputFiles('[data-test=import-file]', {name: 'game.json', mimeType: 'application/json', buffer: Buffer.from(JSON.stringify(record))})
  await a.waitForFunction(() => document.querySelector('[data-test=import-text]').value.startsWith('{"format"'))
  await a.click('[data-test=import-submit]')
  await a.waitForFunction((g2) => /^#\/replay\/\w+$/.test(location.hash) && location.hash !== '#/replay/' + g2, g2)
  const imported = a.url().split('/').pop()
  const sum = (await apiPaced(a, 'GET', '/games/' + imported)).body.game
  assert.equal(sum.status, 'imported')
  assert.equal(sum.game, 'sploof')

  const dir = process.env.HISTORY_SHOTS
  if (dir) {
    mkdirSync(dir, {recursive: true})
    await a.goto(BASE + '/#/history/' + an)
    await a.waitForSelector('[data-test=history-game]')
    for (const [w, h] of [[1280, 800], [390, 844]]) {
      await a.setViewportSize({width: w, height: h})
      await a.waitForTimeout(200)
      assert.ok(await a.evaluate(() => document.documentElement.scrollWidth <= innerWidth), `no sideways scroll at ${w}px`)
      await a.screenshot({path: path.join(dir, `history-${w}x${h}.png`), fullPage: w < 500})
    }
    await a.emulateMedia({colorScheme: 'dark'})
    await a.screenshot({path: path.join(dir, 'history-390x844-dark.png')})
  }
  allowErrors(a, /status of 4\d\d/) // the refused filter and record above
  assertNoErrors(a)
  assertNoErrors(b)
})

function location(page) {
  return new URL(page.url()).hash
}
