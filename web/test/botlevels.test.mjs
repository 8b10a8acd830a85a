// The bot pickers show each level's measured rating (issue 26 point 6):
// "easy · ~1200" beside every level, in every game (the calibration
// measured all seven; random and greedy show their names alone). The
// numbers are the server's
// (/api/catalog's botRatings, from ladder.Calibrated); the lobby's seat
// picker shows the chosen game's, Home's picker — one for every game —
// the range over the games. Screenshots of both pickers, their lists
// opened out, at 1280×800 and 390×844.

import {test, before, after} from 'node:test'
import assert from 'node:assert/strict'
import path from 'node:path'
import {launch, newPage, assertNoErrors, guest, resize, BASE, SHOTS} from './helpers.mjs'

let browser
before(async () => {
  browser = await launch()
})
after(async () => {
  await browser?.close()
})

/** slow gives a page a minute per step: the shared test machine is often loaded far beyond its cores. */
const slow = (page) => { page.setDefaultTimeout(60000); return page }

const optionTexts = (page, sel) => page.$$eval(sel + ' option', (els) => els.map((e) => [e.value, e.textContent]))

/** expand shows a select's whole list in the page (a native drop-down is not in a screenshot). */
const expand = (page, sel) => page.$eval(sel, (el) => { el.size = el.options.length })

test('the lobby and Home show each level with its measured rating', async () => {
  const page = slow(await newPage(browser, {viewport: {width: 1280, height: 800}}))
  const cat = await page.request.get(BASE + '/api/catalog').then((r) => r.json())
  const ratings = Object.fromEntries(cat.games.map((g) => [g.name, g.botRatings || {}]))
  for (const [name, r] of Object.entries(ratings)) {
    const levels = ['beginner', 'easy', 'casual', 'club', 'strong', 'medium', 'hard']
    for (const level of levels) {
      assert.ok(r[level] > 0, `${name}: ${level} has a measured rating (${JSON.stringify(r)})`)
    }
    assert.equal(r.easy, 1200, `${name}: easy is the scale's fixed point`)
    // Each level above the one below it, hard the strongest.
    for (let i = 1; i < levels.length; i++) {
      assert.ok(r[levels[i]] > r[levels[i - 1]], `${name}: ${levels[i]} above ${levels[i - 1]} (${JSON.stringify(r)})`)
    }
  }

  await guest(page)
  await page.goto(BASE + '/#/lobby')
  await page.waitForSelector('[data-test=create-game]')
  await page.selectOption('[data-test=create-game]', 'sploof')
  await page.selectOption('[data-test=seat-kind-1]', 'bot')
  let opts = Object.fromEntries(await optionTexts(page, '[data-test=seat-level-1]'))
  assert.equal(opts.easy, 'easy · ~1200')
  assert.equal(opts.casual, `casual · ~${ratings.sploof.casual}`)
  assert.equal(opts.strong, `strong · ~${ratings.sploof.strong}`)
  assert.equal(opts.medium, `medium · ~${ratings.sploof.medium}`)
  assert.equal(opts.hard, `hard · ~${ratings.sploof.hard}`)
  assert.equal(opts.random, 'random', 'a level without a measurement shows its name alone')
  await page.selectOption('[data-test=seat-level-1]', 'casual')
  await expand(page, '[data-test=seat-level-1]')
  await page.locator('[data-test=seat-level-1]').scrollIntoViewIfNeeded()
  await page.screenshot({path: path.join(SHOTS, 'bot-levels-lobby-1280x800.png')})

  // Another game: its own ratings.
  await page.selectOption('[data-test=create-game]', 'skjuub')
  await page.selectOption('[data-test=seat-kind-1]', 'bot')
  opts = Object.fromEntries(await optionTexts(page, '[data-test=seat-level-1]'))
  assert.equal(opts.strong, `strong · ~${ratings.skjuub.strong}`)
  assert.equal(opts.beginner, `beginner · ~${ratings.skjuub.beginner}`)
  assert.equal(opts.hard, `hard · ~${ratings.skjuub.hard}`)

  // Skyjo's medium and hard are sample counts: their own numbers.
  await page.selectOption('[data-test=create-game]', 'skyjo')
  await page.selectOption('[data-test=seat-kind-1]', 'bot')
  opts = Object.fromEntries(await optionTexts(page, '[data-test=seat-level-1]'))
  assert.equal(opts.medium, `medium · ~${ratings.skyjo.medium}`)
  assert.equal(opts.hard, `hard · ~${ratings.skyjo.hard}`)

  // Home's picker serves every game: one number, or the range over the games.
  await page.goto(BASE + '/')
  await page.waitForSelector('[data-test=bot-level]')
  opts = Object.fromEntries(await optionTexts(page, '[data-test=bot-level]'))
  assert.equal(opts.easy, 'easy · ~1200')
  const club = Object.values(ratings).map((r) => r.club)
  const lo = Math.min(...club)
  const hi = Math.max(...club)
  assert.equal(opts.club, lo === hi ? `club · ~${lo}` : `club · ~${lo}–${hi}`)
  for (const level of ['medium', 'hard']) {
    const all = Object.values(ratings).map((r) => r[level])
    const [min, max] = [Math.min(...all), Math.max(...all)]
    assert.equal(opts[level], min === max ? `${level} · ~${min}` : `${level} · ~${min}–${max}`)
  }
  await expand(page, '[data-test=bot-level]')
  await page.screenshot({path: path.join(SHOTS, 'bot-levels-home-1280x800.png')})

  await resize(page, {width: 390, height: 844})
  await page.goto(BASE + '/#/lobby')
  await page.waitForSelector('[data-test=create-game]')
  await page.selectOption('[data-test=create-game]', 'sploof')
  await page.selectOption('[data-test=seat-kind-1]', 'bot')
  await expand(page, '[data-test=seat-level-1]')
  await page.locator('[data-test=seat-level-1]').scrollIntoViewIfNeeded()
  await page.screenshot({path: path.join(SHOTS, 'bot-levels-lobby-390x844.png')})
  await page.goto(BASE + '/')
  await page.waitForSelector('[data-test=bot-level]')
  await expand(page, '[data-test=bot-level]')
  await page.locator('[data-test=bot-level]').scrollIntoViewIfNeeded()
  await page.screenshot({path: path.join(SHOTS, 'bot-levels-home-390x844.png')})
  assertNoErrors(page)
})

test('the ratings are shown in Korean and Mongolian too', async () => {
  for (const [locale, easy, casual] of [['ko-KR', '쉬움', '캐주얼'], ['mn-MN', 'хялбар', 'энгийн']]) {
    const page = slow(await newPage(browser, {locale}))
    const cat = await page.request.get(BASE + '/api/catalog').then((r) => r.json())
    const sgolte = cat.games.find((g) => g.name === 'sgolte').botRatings
    await guest(page)
    await page.goto(BASE + '/#/lobby')
    await page.waitForSelector('[data-test=create-game]')
    await page.selectOption('[data-test=create-game]', 'sgolte')
    await page.selectOption('[data-test=seat-kind-1]', 'bot')
    const opts = Object.fromEntries(await optionTexts(page, '[data-test=seat-level-1]'))
    assert.equal(opts.easy, `${easy} · ~1200`, locale)
    assert.equal(opts.casual, `${casual} · ~${sgolte.casual}`, locale)
    assertNoErrors(page)
    await page.context().close()
  }
})
