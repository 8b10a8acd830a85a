// Light and dark (issue 17): the page follows the system's colour scheme
// until the visitor picks one in the header, which is remembered; the
// Sgolte and Sploof boards have themes, remembered per game.

import {test, before, after} from 'node:test'
import assert from 'node:assert/strict'
import {launch, guest, openGame} from './helpers.mjs'

let browser
before(async () => {
  browser = await launch()
})
after(async () => {
  await browser?.close()
})

const background = (page) => page.evaluate(() => getComputedStyle(document.documentElement).backgroundColor)
const LIGHT = 'rgb(246, 243, 236)'
const DARK = 'rgb(21, 24, 28)'

async function pageIn(colorScheme) {
  const context = await browser.newContext({viewport: {width: 1280, height: 800}, colorScheme})
  const page = await context.newPage()
  page.errors = []
  page.on('pageerror', (e) => page.errors.push(e.message))
  page.on('console', (m) => m.type() === 'error' && page.errors.push(m.text()))
  return page
}

test('the colours follow the system, then the visitor\'s choice, which is remembered', async () => {
  const page = await pageIn('dark')
  await guest(page)
  await page.goto(page.url().split('#')[0] + '#/')
  await page.waitForSelector('[data-test=scheme]')
  assert.equal(await background(page), DARK, 'a dark system: a dark page')
  assert.equal(await page.getAttribute('[data-test=scheme]', 'data-scheme'), 'auto')
  // auto → light → dark → auto
  await page.click('[data-test=scheme]')
  await page.waitForFunction(() => document.documentElement.dataset.theme === 'light')
  assert.equal(await background(page), LIGHT, 'light, chosen against the dark system')
  await page.reload()
  await page.waitForSelector('[data-test=scheme][data-scheme=light]')
  assert.equal(await background(page), LIGHT, 'remembered after a reload')
  await page.click('[data-test=scheme]')
  await page.waitForSelector('[data-test=scheme][data-scheme=dark]')
  assert.equal(await background(page), DARK)
  await page.click('[data-test=scheme]')
  await page.waitForSelector('[data-test=scheme][data-scheme=auto]')
  assert.equal(await background(page), DARK, 'back to the system')
  assert.deepEqual(page.errors, [])
  await page.context().close()
})

for (const [game, theme, selector, property] of [['sgolte', 'slate', '.board-svg .hex', 'fill'], ['sploof', 'sea', '.board-svg .tray', 'fill']]) {
  test(`${game}: a board theme, remembered`, async () => {
    const page = await pageIn('light')
    await guest(page)
    await openGame(page, {game, seats: [{kind: 'me'}, {kind: 'bot', level: 'random'}]})
    const paint = () => page.$eval(selector, (e, p) => getComputedStyle(e)[p], property)
    const before = await paint()
    await page.selectOption('[data-test=board-theme]', theme)
    await page.waitForFunction(([s, p, b]) => getComputedStyle(document.querySelector(s))[p] !== b, [selector, property, before])
    const after = await paint()
    await page.reload()
    await page.waitForSelector('.board-svg [data-hit]')
    assert.equal(await page.inputValue('[data-test=board-theme]'), theme)
    assert.equal(await paint(), after, 'the theme is remembered')
    assert.deepEqual(page.errors, [])
    await page.context().close()
  })
}
