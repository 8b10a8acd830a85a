// Board preferences per account (issue 27, point 10): a registered player
// picks a board theme and size in one browser; signing in with a fresh
// browser brings them there. A guest's stay in their browser (the page
// never asks the server, which refuses guests).

import {test, before, after} from 'node:test'
import assert from 'node:assert/strict'
import {launch, newPage, assertNoErrors, allowErrors, api, guest, startBotGame, waitUntil, BASE} from './helpers.mjs'

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
  // saved to the account a moment later (before the other browser signs
  // in: an account with nothing saved would take that browser's defaults)
  await waitUntil(async () => {
    const {prefs} = (await api(one, 'GET', '/me/prefs')).body
    return prefs?.boardThemes.sgolte === 'forest' && prefs.boardSize === 'small'
  }, {what: 'the account to keep the board theme and size'})

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

// The page asks who is signed in as it starts (/api/session); a sign-in made
// before that answer came was undone by it (the answer, "nobody", was
// older): the page showed a signed-out visitor and never fetched the
// account's preferences. This test failed a clean-clone run that way.
test('a sign-in made while the starting page still asks who is signed in stays', async () => {
  const setup = await newPage(browser)
  await setup.goto(BASE + '/#/account')
  const name = 'p' + Math.random().toString(36).slice(2, 9)
  const password = 'plum tree ' + Math.random().toString(36).slice(2)
  await setup.evaluate(([n, p]) => import('/js/session.js').then(async (s) => {
    await s.register(n, p)
    const {setBoardTheme} = await import('/js/theme.js')
    setBoardTheme('sgolte', 'forest')
  }), [name, password])
  await waitUntil(async () => (await api(setup, 'GET', '/me/prefs')).body.prefs?.boardThemes.sgolte === 'forest', {what: 'the account to keep the board theme'})

  const page = await newPage(browser, {fresh: true})
  let release
  const held = new Promise((resolve) => { release = resolve })
  let asked = false
  // The start-up question is answered (nobody: this browser has no
  // session) only after the sign-in below has been answered.
  await page.route('**/api/session', async (route) => {
    if (route.request().method() !== 'GET' || asked) return route.continue()
    asked = true
    const answer = await route.fetch()
    await held
    await route.fulfill({response: answer})
  })
  // the page's reading of each answer of /api/session, counted
  await page.addInitScript(() => {
    const json = Response.prototype.json
    window.sessionAnswers = 0
    Response.prototype.json = async function () {
      const body = await json.call(this)
      if (new URL(this.url).pathname === '/api/session') window.sessionAnswers++
      return body
    }
  })
  await page.goto(BASE + '/#/account', {waitUntil: 'commit'})
  await waitUntil(() => asked, {what: 'the page to ask who is signed in'})
  await page.evaluate(([n, p]) => import('/js/session.js').then((s) => s.login(n, p)), [name, password])
  release()
  // the late answer has come, and the page has read it
  await page.waitForFunction(() => window.sessionAnswers === 2) // the sign-in's, then the late one
  assert.equal(await page.evaluate(() => import('/js/session.js').then((s) => s.current()?.name)), name, 'still signed in after the late answer')
  await page.waitForFunction(() => localStorage.getItem('tabula.board.sgolte') === 'forest')
  assertNoErrors(setup)
  assertNoErrors(page)
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
