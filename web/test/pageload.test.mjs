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

const modules = (page) => page.evaluate(() => performance.getEntriesByType('resource')
  .map((e) => new URL(e.name).pathname).filter((p) => p.startsWith('/js/')))

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

test('a reload checks each file and fetches none that has not changed', async () => {
  const page = await newPage(browser, {fresh: true})
  await page.goto(BASE + '/')
  await page.waitForSelector('.game-card')
  await page.reload()
  await page.waitForSelector('.game-card')
  // A file the browser checked and kept (304) transferred its headers only
  // (about 300 bytes; Chromium gives a kept stylesheet's body as 0); one
  // fetched again transferred its headers and its whole body.
  const files = await page.evaluate(() => performance.getEntriesByType('resource')
    .filter((e) => /\/(js|css)\//.test(new URL(e.name).pathname))
    .map((e) => ({path: new URL(e.name).pathname, transfer: e.transferSize, body: e.encodedBodySize})))
  assert.ok(files.some((f) => f.path === '/js/app.js'), 'the reload loaded the application: ' + JSON.stringify(files))
  const fetched = files.filter((f) => f.transfer > Math.max(f.body, 1000))
  assert.deepEqual(fetched, [], 'fetched again on reload')
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
