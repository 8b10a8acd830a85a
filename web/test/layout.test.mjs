// The game page fits the screen (issue 17): at 1280×800 the whole board,
// the players, the clocks and the main action buttons are in the window
// without scrolling, for every game; on a 390×844 phone the board fills
// the width with the players and clocks above it and the controls right
// below; a size 7 Sgolte board keeps its cells at least 36 px wide on a
// phone. Each page is also photographed mid-game, light and dark, as
// docs/screenshots/game-*.png (rewritten with UPDATE_SCREENSHOTS=1).

import {test, before, after} from 'node:test'
import assert from 'node:assert/strict'
import path from 'node:path'
import {launch, newPage, assertNoErrors, guest, api, createGame, playByApi, settled, BASE, SHOTS} from './helpers.mjs'

let browser
before(async () => {
  browser = await launch()
})
after(async () => {
  await browser?.close()
})

// how far into a game the page is looked at
const plies = {sgolte: 16, sploof: 14, skjuub: 14, skyjo: 24}
const clock = {kind: 'realtime', initialMs: 600000, incrementMs: 5000}

/** midGame opens a game against a bot some moves in, as the page's user. */
async function midGame(page, game, options = {}) {
  await guest(page)
  let g
  for (let tries = 0; ; tries++) {
    // random moves may lose early (a Skjuub player left without a move): then another game
    g = await createGame(page, {game, options: game === 'skyjo' ? {players: '2', ...options} : options,
      seats: [{kind: 'me'}, {kind: 'bot', level: 'random'}], clock})
    await playByApi(page, g.id, plies[game])
    if ((await api(page, 'GET', '/games/' + g.id)).body.game.status === 'live' || tries === 5) break
  }
  await page.goto(BASE + '/#/game/' + g.id)
  await page.waitForSelector('.board-svg [data-hit]')
  await page.waitForFunction(() => /\d:\d\d/.test(document.querySelector('[data-test=seats] .clock')?.textContent))
  await settled(page) // the last move's animation
  return g.id
}

const rect = (page, sel) => page.$eval(sel, (e) => e.getBoundingClientRect().toJSON())
const inside = (r, vp) => r.width > 0 && r.height > 0 && r.left >= -0.5 && r.top >= -0.5 && r.right <= vp.width + 0.5 && r.bottom <= vp.height + 0.5

for (const game of ['sgolte', 'sploof', 'skjuub', 'skyjo']) {
  test(`${game} at 1280×800: board, players, clocks and actions in the window`, async () => {
    const vp = {width: 1280, height: 800}
    const page = await newPage(browser, {viewport: vp})
    await midGame(page, game)
    assert.equal(await page.evaluate(() => scrollY), 0)
    for (const sel of ['.board', '.board-svg svg:not(.sprite)', '[data-test=seats]', '[data-test=seats] li:nth-child(1) .clock',
      '[data-test=seats] li:nth-child(2) .clock', '[data-test=resign]', '[data-test=prompt]']) {
      assert.ok(inside(await rect(page, sel), vp), `${sel} is in the window: ${JSON.stringify(await rect(page, sel))}`)
    }
    for (const b of await page.$$('[data-test=actions] button')) {
      const r = await b.evaluate((e) => e.getBoundingClientRect().toJSON())
      assert.ok(inside(r, vp), 'a move button is in the window')
    }
    await page.screenshot({path: path.join(SHOTS, `game-${game}-1280x800-light.png`)})
    assertNoErrors(page)
    await page.context().close()
  })

  test(`${game} at 390×844: players above the board, the board full width, the controls right below`, async () => {
    const vp = {width: 390, height: 844}
    const page = await newPage(browser, {viewport: vp})
    await midGame(page, game)
    const players = await rect(page, '[data-test=seats]')
    const clock = await rect(page, '[data-test=seats] .clock')
    const board = await rect(page, '.board-svg')
    const resign = await rect(page, '[data-test=resign]')
    assert.ok(players.bottom <= board.top && clock.bottom <= board.top, 'players and clocks stand above the board')
    assert.ok(board.width >= vp.width * 0.9, `the board fills the width (${board.width} px)`)
    assert.ok(resign.top >= board.bottom && resign.top - board.bottom < 110, `the controls follow the board (${resign.top - board.bottom} px below)`)
    assert.ok(inside(resign, vp), 'and are on the screen')
    await page.screenshot({path: path.join(SHOTS, `game-${game}-390x844-light.png`)})
    assertNoErrors(page)
    await page.context().close()
  })
}

test('sgolte size 7 on a phone: cells at least 36 px wide', async () => {
  const page = await newPage(browser, {viewport: {width: 390, height: 844}})
  await guest(page)
  const g = await createGame(page, {game: 'sgolte', options: {size: '7'}, seats: [{kind: 'me'}, {kind: 'bot', level: 'random'}]})
  await page.goto(BASE + '/#/game/' + g.id)
  await page.waitForSelector('.board-svg [data-hit]')
  const widths = await page.$$eval('.board-svg .hex', (els) => els.map((e) => e.getBoundingClientRect().width))
  assert.equal(widths.length, 127)
  assert.ok(Math.min(...widths) >= 36, `the narrowest cell is ${Math.min(...widths).toFixed(1)} px`)
  // the board starts centred: the middle cell is on the screen, and a tap there plays
  const mid = await page.$eval('.board-svg [data-hit="g7"]', (e) => e.getBoundingClientRect().toJSON())
  assert.ok(mid.left >= 0 && mid.right <= 390, 'the middle cell is in view')
  assertNoErrors(page)
  await page.context().close()
})

for (const game of ['sgolte', 'sploof', 'skjuub', 'skyjo']) {
  test(`${game} in the dark: screenshots at both sizes`, async () => {
    for (const [w, h] of [[1280, 800], [390, 844]]) {
      const context = await browser.newContext({viewport: {width: w, height: h}, colorScheme: 'dark'})
      const page = await context.newPage()
      const errors = []
      page.on('pageerror', (e) => errors.push(e.message))
      await midGame(page, game)
      assert.equal(await page.evaluate(() => getComputedStyle(document.documentElement).backgroundColor), 'rgb(21, 24, 28)',
        'the page follows the dark system scheme')
      await page.screenshot({path: path.join(SHOTS, `game-${game}-${w}x${h}-dark.png`)})
      assert.deepEqual(errors, [])
      await context.close()
    }
  })
}
