// What a page load costs the browser: a page fetches the application's shell
// and its own page's code, not every page's (app.js loads a page's module
// when it is first opened), a page left before its code came draws
// nothing, and a reload fetches no file that has not changed.

import {test, before, after} from 'node:test'
import assert from 'node:assert/strict'
import {launch, newPage, assertNoErrors, guest, BASE, OUT} from './helpers.mjs'

let browser
before(async () => {
  browser = await launch()
})
after(async () => {
  await browser?.close()
})

// The modules the page loaded, by their names from /js/ (the page loads
// them under its release's names, /r/<release>/js/…).
const modules = (page) => page.evaluate(() => performance.getEntriesByType('resource')
  .map((e) => new URL(e.name).pathname.replace(/^\/r\/[\w-]+\//, '/')).filter((p) => p.startsWith('/js/')))

test("the home page loads its own page's code, not every page's", async () => {
  const page = await newPage(browser, {fresh: true})
  await page.goto(BASE + '/')
  await page.waitForSelector('.game-card')
  const home = await modules(page)
  assert.ok(home.includes('/js/pages/home.js'), 'the home page: ' + home.join(' '))
  for (const other of ['/js/pages/game.js', '/js/pages/tournament.js', '/js/pages/analysis.js', '/js/pages/learn.js']) {
    assert.ok(!home.includes(other), `${other} loaded on the home page`)
  }
  // The rules page's code comes when the page is opened.
  await page.click('[data-test=nav-rules]')
  await page.waitForFunction(() => performance.getEntriesByType('resource').some((e) => e.name.endsWith('/js/pages/rules.js')))
  await page.waitForSelector('[data-test=nav-rules][aria-current=page]')
  assertNoErrors(page)
  await page.context().close()
})

test('a page left before its code came draws nothing into the next', async () => {
  const page = await newPage(browser, {fresh: true})
  await guest(page)
  // The analysis page's code is held back until the home page is drawn.
  let release
  const held = new Promise((r) => { release = r })
  await page.route('**/js/pages/analysis.js', async (route) => { await held; await route.continue() })
  await page.goto(BASE + '/#/analysis/sploof')
  await page.waitForSelector('#main')
  await page.evaluate(() => { location.hash = '#/' })
  await page.waitForSelector('.game-card')
  release()
  // The page's own import of the module resolves first (it asked first);
  // a task after this one runs after whatever it would draw.
  await page.evaluate(() => import('/js/pages/analysis.js').then(() => new Promise((r) => setTimeout(r, 0))))
  assert.equal(await page.locator('#main .view').count(), 1, 'one page drawn')
  assert.equal(await page.locator('[data-test=stock-white]').count(), 0, 'no analysis board under the home page')
  assertNoErrors(page)
  await page.context().close()
})

test('a second visit asks the server for the page alone, and a reload fetches no file that has not changed', async () => {
  const page = await newPage(browser, {fresh: true})
  const files = () => page.evaluate(() => performance.getEntriesByType('resource')
    .filter((e) => /\/(js|css)\//.test(new URL(e.name).pathname))
    .map((e) => ({path: new URL(e.name).pathname, transfer: e.transferSize, body: e.encodedBodySize})))
  await page.goto(BASE + '/')
  await page.waitForSelector('.game-card')
  const first = await files()
  assert.ok(first.some((f) => /^\/r\/[\w-]+\/js\/app\.js$/.test(f.path)), 'the page names its files under the release: ' + JSON.stringify(first))
  assert.deepEqual(first.filter((f) => !f.path.startsWith('/r/')), [], 'files loaded at plain names')
  // The release's files are kept without asking again: a second visit
  // takes every one from the browser's cache (nothing transferred).
  await page.goto(BASE + '/#/learn')
  await page.goto(BASE + '/')
  await page.waitForSelector('.game-card')
  const second = await files()
  assert.equal(second.length, first.length, 'the second visit loaded the same files: ' + JSON.stringify(second))
  assert.deepEqual(second.filter((f) => f.transfer !== 0), [], 'asked the server again on the second visit')
  // A reload may check a file (a 304 transfers its headers only, about
  // 300 bytes; Chromium gives a kept stylesheet's body as 0); one fetched
  // again transferred its headers and its whole body.
  await page.reload()
  await page.waitForSelector('.game-card')
  const reloaded = await files()
  assert.ok(reloaded.some((f) => f.path.endsWith('/js/app.js')), 'the reload loaded the application: ' + JSON.stringify(reloaded))
  assert.deepEqual(reloaded.filter((f) => f.transfer > Math.max(f.body, 1000)), [], 'fetched again on reload')
  // The application's modules named from the root (/js/…) are the ones
  // the page runs (the import map sends them to the release's names).
  assert.equal(await page.evaluate(async () => {
    const mine = await import('/js/i18n.js')
    const its = await import(new URL('i18n.js', document.querySelector('script[type=module][src]').src).href)
    return mine === its
  }), true, '/js/i18n.js is another instance than the page\'s')
  assertNoErrors(page)
  await page.context().close()
})

test("a page whose code cannot be loaded says so in the page's language and offers a reload", async () => {
  const page = await newPage(browser, {locale: 'ko-KR'})
  await page.goto(BASE + '/')
  await page.waitForSelector('.game-card')
  await page.route('**/js/pages/leaderboard.js', (route) => route.abort('connectionrefused'))
  // The refused module is a console error of the browser's own: expected here.
  await page.evaluate(() => { location.hash = '#/leaderboard' })
  await page.waitForSelector('#main .error')
  const text = await page.evaluate(() => document.querySelector('#main .error').textContent)
  assert.equal(text, '이 페이지를 불러올 수 없습니다. 연결을 확인한 뒤 새로고침하세요.')
  assert.ok(await page.isVisible('[data-test=page-reload]'), 'a reload button')
  for (const [width, height, name] of [[1280, 800, ''], [390, 844, '-phone']]) {
    await page.setViewportSize({width, height})
    await page.screenshot({path: OUT + `/pageload-failed-ko${name}.png`})
  }
  // Once the network is back, the button brings the page.
  await page.unroute('**/js/pages/leaderboard.js')
  await Promise.all([page.waitForEvent('load'), page.click('[data-test=page-reload]')])
  await page.waitForSelector('[data-test=nav-leaderboard][aria-current=page]', {state: 'attached'})
  assert.equal(await page.locator('#main .error').count(), 0)
  await page.context().close()
})
