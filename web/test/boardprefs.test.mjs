// Board preferences (issue 27, point 10): a theme for every game (Skjuub
// and Skyjo too), the board's size and zen mode — the board and the clocks
// only — on the game page, remembered in this browser. Screenshots of a
// Skjuub game in zen mode at 1280×800 and 390×844.

import {test, before, after} from 'node:test'
import assert from 'node:assert/strict'
import path from 'node:path'
import {launch, newPage, assertNoErrors, startBotGame, resize, settled, inViewport, SHOTS} from './helpers.mjs'

let browser
before(async () => {
  browser = await launch()
})
after(async () => {
  await browser?.close()
})

const boardWidth = (page) => page.$eval('.board-svg > svg:not(.sprite)', (el) => el.getBoundingClientRect().width)
const squareFill = (page) => page.$eval('svg.skjuub .sq.dark', (el) => getComputedStyle(el).fill)

test('board preferences: a Skjuub theme, the board size and zen mode, remembered', async () => {
  const page = await newPage(browser, {viewport: {width: 1280, height: 800}})
  await startBotGame(page, 'skjuub')
  // Skjuub has themes now (Sgolte and Sploof had them alone).
  assert.deepEqual(await page.$$eval('[data-test=board-theme] option', (os) => os.map((o) => o.value)), ['linen', 'stone', 'olive'])
  const linen = await squareFill(page)
  await page.selectOption('[data-test=board-theme]', 'olive')
  await page.waitForFunction((before) => getComputedStyle(document.querySelector('svg.skjuub .sq.dark')).fill !== before, linen)

  // Size: a smaller board is smaller.
  const large = await boardWidth(page)
  await page.selectOption('[data-test=board-size]', 'small')
  await settled(page)
  const small = await boardWidth(page)
  assert.ok(small < large * 0.8, `small ${small} against large ${large}`)
  await page.selectOption('[data-test=board-size]', 'medium')

  // Zen: the board and the clocks; no menu, moves or footer.
  await page.click('[data-test=zen]')
  await page.waitForSelector('body.zen')
  for (const sel of ['#top', '[data-test=moves]', '.foot']) assert.equal(await page.isVisible(sel), false, `${sel} hidden in zen mode`)
  assert.ok(await page.isVisible('[data-test=seats]'), 'the players and their clocks stay')
  assert.ok(await inViewport(page, '.board-svg'), 'the board is in view')

  // Remembered: after a reload, the same theme, size and zen mode.
  await page.reload()
  await page.waitForSelector('.board-svg [data-hit]')
  await page.waitForSelector('body.zen')
  assert.equal(await page.getAttribute('.game-page', 'data-board-size'), 'medium')
  assert.equal(await page.getAttribute('[data-test=board]', 'data-board-theme'), 'olive')
  await settled(page)
  await page.screenshot({path: path.join(SHOTS, 'polish-zen-1280x800.png')})
  await resize(page, {width: 390, height: 844})
  await page.screenshot({path: path.join(SHOTS, 'polish-zen-390x844.png')})
  assert.ok(await page.evaluate(() => document.documentElement.scrollWidth <= innerWidth), 'no sideways scroll in zen mode')
  // Escape leaves zen mode.
  await page.keyboard.press('Escape')
  await page.waitForSelector('body:not(.zen)')
  assert.ok(await page.isVisible('#top'))
  assertNoErrors(page)
  await page.context().close()
})
