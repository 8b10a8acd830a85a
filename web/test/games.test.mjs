// For each game: a guest opens the home page, starts a game against a bot
// with one click, plays legal moves by clicking until the game ends, and
// sees the result; a screenshot of the board is saved mid-game. Then the
// finished game opens in the replay viewer.

import {test, before, after} from 'node:test'
import assert from 'node:assert/strict'
import path from 'node:path'
import {launch, newPage, assertNoErrors, startBotGame, playUntilOver, boardState, settled, resize, OUT} from './helpers.mjs'

let browser
before(async () => {
  browser = await launch()
})
after(async () => {
  await browser?.close()
})

const shotAfter = {sgolte: 16, sploof: 10, skjuub: 14, skyjo: 14}

for (const game of ['sgolte', 'sploof', 'skjuub', 'skyjo']) {
  test(`${game}: a guest plays a bot to the end by clicking`, async () => {
    const page = await newPage(browser)
    await startBotGame(page, game, 'random')
    let shot = false
    const end = await playUntilOver(page, {
      async onState(st) {
        if (!shot && st.moves >= shotAfter[game] && (st.hits.length || st.buttons.length)) {
          await settled(page) // the last move's animation finished
          const now = await boardState(page)
          if (now.hits.length || now.buttons.length) {
            shot = true
            await page.locator('.board').screenshot({path: path.join(OUT, `${game}.png`)})
          }
        }
      },
    })
    assert.match(end.result, /You won|You lost|You share|Draw/)
    if (game === 'skyjo') {
      // the last round's scoreboard: this round's points and the totals
      await page.waitForSelector('[data-test=scoreboard]')
      assert.match(await page.textContent('[data-test=scoreboard]'), /is over/)
      // shown whole in the side panel below the moves, which scrolls on its own
      const whole = () => {
        const r = document.querySelector('[data-test=scoreboard]').getBoundingClientRect()
        const p = document.querySelector('.game-side').getBoundingClientRect()
        return r.top >= p.top - 0.5 && r.bottom <= p.bottom + 0.5
      }
      const inView = () => page.waitForFunction(whole, null, {timeout: 5000}).catch(async () => assert.fail('the scoreboard is not in view ' + JSON.stringify(await page.evaluate(() => { const sb = document.querySelector('[data-test=scoreboard]'); const p = document.querySelector('.game-side'); return {sb: sb.getBoundingClientRect(), p: p.getBoundingClientRect(), sh: p.scrollHeight, ch: p.clientHeight, st: p.scrollTop, ih: innerHeight} }))))
      await inView()
      // and kept there when the window changes size (the panel with it)
      await resize(page, {width: 1280, height: 800})
      await inView()
      await page.evaluate(() => document.querySelector('[data-test=scoreboard]').scrollIntoView({block: 'nearest'}))
      await page.screenshot({path: path.join(OUT, 'skyjo-end-scoreboard-1280x800.png')})
      await resize(page, {width: 1280, height: 900})
    }
    // the step controls' "move N of N" fits between their buttons (three-digit games, a side column of 300 px)
    const ply = await page.$eval('.game-controls .replay-controls .ply', (el) => ({text: el.textContent, fits: el.scrollWidth <= el.clientWidth + 1}))
    assert.ok(ply.fits, `"${ply.text}" overflows the step controls`)
    if (!shot) await page.locator('.board').screenshot({path: path.join(OUT, `${game}.png`)})
    await page.screenshot({path: path.join(OUT, `${game}-end.png`), fullPage: true})

    // the replay viewer steps through the finished game
    await page.click('[data-test=replay-link]')
    await page.waitForSelector('[data-test=replay-ply]')
    await page.waitForFunction(() => /0/.test(document.querySelector('[data-test=replay-ply]').textContent))
    await page.click('[data-test=next]')
    await page.waitForFunction(() => document.querySelector('[data-test=replay-ply]').textContent.includes('1'))
    await page.click('[data-test=last]')
    const total = await page.locator('[data-test=replay-moves] li').count()
    await page.waitForFunction((n) => document.querySelector('[data-test=replay-ply]').textContent.includes(String(n - 1)), total)
    assertNoErrors(page)
    await page.context().close()
  })
}
