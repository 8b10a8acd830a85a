// Smaller things a player notices in the site's pages (issue 27, item 7;
// the game pages' are in polish.test.mjs): the rules pages show no
// command-line flags; Korean breaks between words only; Mongolian dates
// never come out in English; the top menu has Learn and Puzzles; a bad
// address gets the site's own 404 page; a page left before its data came
// draws nothing into the next; Home's cards keep their buttons in one line.

import {test, before, after} from 'node:test'
import assert from 'node:assert/strict'
import path from 'node:path'
import {launch, newPage, assertNoErrors, allowErrors, registered, BASE, SHOTS} from './helpers.mjs'

let browser
before(async () => {
  browser = await launch()
})
after(async () => {
  await browser?.close()
})

test('the rules pages show no command-line flags, in any language', async () => {
  for (const lang of ['en', 'ko', 'mn']) {
    const page = await newPage(browser, {locale: lang})
    for (const game of ['skyjo', 'skjuub', 'sgolte']) {
      await page.goto(BASE + '/#/rules/' + game)
      await page.waitForSelector('[data-test=rules][data-ready]')
      const text = await page.textContent('[data-test=rules]')
      const bad = text.match(/-o \w+=|--p\d|--position|command line|command-line|명령줄|тушаалын мөр|tabula (moves|play)/g)
      assert.equal(bad, null, `${game} (${lang}): ${bad}`)
    }
    assertNoErrors(page)
    await page.context().close()
  }
})

test('Korean breaks between words; Mongolian dates are never English', async () => {
  const page = await newPage(browser, {locale: 'ko'})
  await page.goto(BASE + '/')
  await page.waitForSelector('.game-card')
  for (const sel of ['h1', '.lead', '.game-card .pitch']) {
    assert.equal(await page.$eval(sel, (e) => getComputedStyle(e).wordBreak), 'keep-all', sel)
  }
  await page.context().close()

  // A browser without Mongolian date data (simulated) writes the date in Mongolian's own pattern.
  const mn = await newPage(browser, {locale: 'mn'})
  await mn.addInitScript(() => {
    const real = Intl.DateTimeFormat.supportedLocalesOf
    Intl.DateTimeFormat.supportedLocalesOf = (l, o) => real(l, o).filter((x) => !String(x).startsWith('mn'))
  })
  await mn.goto(BASE + '/')
  const dates = await mn.evaluate(async () => {
    const {fmtTime} = await import('/js/dom.js')
    const iso = new Date(2026, 11, 1, 15, 4).toISOString()
    return [fmtTime(iso, 'mn'), fmtTime(iso, 'en')]
  })
  assert.equal(dates[0], '2026 оны 12-р сарын 1, 15:04')
  assert.match(dates[1], /Dec/)
  assertNoErrors(mn)
  await mn.context().close()
})

test('the top menu has Learn and Puzzles; a bad address gets the site’s own 404 page', async () => {
  const page = await newPage(browser, {viewport: {width: 1280, height: 800}})
  await page.goto(BASE + '/')
  await page.click('[data-test=nav-learn]')
  await page.waitForSelector('[data-test=learn-index]')
  assert.equal(await page.getAttribute('[data-test=nav-learn]', 'aria-current'), 'page')
  await page.click('[data-test=nav-puzzles]')
  await page.waitForSelector('[data-test=puzzle-title]')
  assert.equal(await page.getAttribute('[data-test=nav-puzzles]', 'aria-current'), 'page')

  const res = await page.goto(BASE + '/no/such/page')
  assert.equal(res.status(), 404)
  await page.waitForSelector('[data-test=not-found-home]')
  assert.equal(await page.textContent('h1'), 'Page not found')
  assert.equal(await page.getAttribute('[data-test=nav-lobby]', 'href'), '/#/lobby')
  await page.screenshot({path: path.join(SHOTS, 'not-found-1280x800.png')})
  await page.click('[data-test=nav-lobby]')
  await page.waitForURL(BASE + '/#/lobby')
  allowErrors(page, /status of 404/)
  assertNoErrors(page)
  await page.context().close()
})

test('a page left before its data came does not draw into the next one', async () => {
  const page = await newPage(browser)
  const name = await registered(page, 'left')
  await page.goto(BASE + '/#/rules/sgolte')
  await page.waitForSelector('[data-test=rules][data-ready]')
  // The profile's stats come late: the player has gone on to the rules by then.
  let arrived
  const came = new Promise((resolve) => { arrived = resolve })
  await page.route('**/api/users/*/stats', async (r) => {
    await new Promise((resolve) => setTimeout(resolve, 500))
    await r.continue()
    arrived()
  })
  await page.evaluate((n) => { location.hash = '#/user/' + n }, name)
  await page.waitForSelector('h1:text-is("' + name + '")')
  await page.evaluate(() => { location.hash = '#/rules/sgolte' })
  await page.waitForSelector('[data-test=rules][data-ready]')
  await came
  await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => setTimeout(resolve, 50))))
  assert.deepEqual(await page.$$eval('#main h1, #main h2', (hs) => hs.map((x) => x.textContent)), await page.$$eval('[data-test=rules] h1, [data-test=rules] h2', (hs) => hs.map((x) => x.textContent)),
    'only the rules page\'s headings: not the profile\'s Ratings, Recent games…')
  assert.equal(await page.$('#main [data-test=ratings]'), null, 'the profile drew its ratings into the rules page')
  assertNoErrors(page)
  await page.context().close()
})

test("Home's cards keep their buttons in one line", async () => {
  const page = await newPage(browser, {viewport: {width: 1280, height: 800}})
  await page.goto(BASE + '/')
  await page.waitForSelector('[data-test=play-bot-skjuub]')
  const tops = await page.$$eval('.game-card [data-test^=play-bot-]', (bs) => bs.map((b) => Math.round(b.getBoundingClientRect().top)))
  assert.equal(tops.length, 4)
  assert.ok(Math.max(...tops) - Math.min(...tops) <= 1, 'the play buttons at one height: ' + tops)
  await page.screenshot({path: path.join(SHOTS, 'home-en-1280x800.png')})
  assertNoErrors(page)
  await page.context().close()
})
