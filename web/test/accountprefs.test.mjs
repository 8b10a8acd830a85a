// Board preferences per account (issue 27, point 10): a registered player
// picks a board theme and size in one browser; signing in with a fresh
// browser brings them there. A guest's stay in their browser (the page
// never asks the server, which refuses guests).

import {test, before, after} from 'node:test'
import assert from 'node:assert/strict'
import {launch, newPage, assertNoErrors, allowErrors, api, guest, startBotGame, BASE} from './helpers.mjs'

let browser
before(async () => {
  browser = await launch()
})
after(async () => {
  await browser?.close()
})

test('a board theme chosen in one browser is there after signing in with another', async () => {
  const one = await newPage(browser)
  await one.goto(BASE + '/#/account')
  const name = 'p' + Math.random().toString(36).slice(2, 9)
  const password = 'plum tree ' + Math.random().toString(36).slice(2)
  await one.evaluate(([n, p]) => import('/js/session.js').then((s) => s.register(n, p)), [name, password])
  await startBotGame(one, 'sgolte')
  await one.selectOption('[data-test=board-theme]', 'forest')
  await one.selectOption('[data-test=board-size]', 'small')
  // saved to the account a moment later
  await one.waitForFunction(async () => {
    const res = await fetch('/api/me/prefs').then((r) => r.json())
    return res.prefs && res.prefs.boardThemes.sgolte === 'forest' && res.prefs.boardSize === 'small'
  }, null, {polling: 200})

  const two = await newPage(browser) // a fresh context: nothing in its storage
  await two.goto(BASE + '/#/account')
  assert.equal(await two.evaluate(() => localStorage.getItem('tabula.board.sgolte')), null)
  await two.evaluate(([n, p]) => import('/js/session.js').then((s) => s.login(n, p)), [name, password])
  await two.waitForFunction(() => localStorage.getItem('tabula.board.sgolte') === 'forest')
  await startBotGame(two, 'sgolte')
  assert.equal(await two.$eval('[data-test=board-theme]', (el) => el.value), 'forest')
  assert.equal(await two.$eval('[data-test=board]', (el) => el.dataset.boardTheme), 'forest')
  assert.equal(await two.$eval('[data-test=board-size]', (el) => el.value), 'small')
  assertNoErrors(one)
  assertNoErrors(two)
})

test("a guest's board theme stays in the browser and the page asks the server nothing", async () => {
  const page = await newPage(browser)
  await guest(page)
  const asked = []
  page.on('request', (r) => {
    if (r.url().includes('/api/me/prefs')) asked.push(r.method())
  })
  await startBotGame(page, 'sgolte')
  await page.selectOption('[data-test=board-theme]', 'slate')
  await page.waitForFunction(() => localStorage.getItem('tabula.board.sgolte') === 'slate')
  assert.equal((await api(page, 'GET', '/me/prefs')).status, 403)
  allowErrors(page, /status of 403/) // the test's own request just above
  assert.deepEqual(asked, ['GET'], 'only the test itself asked') // the page made no request of its own
  assertNoErrors(page)
})
