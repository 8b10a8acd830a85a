// For each game: a guest opens the home page, starts a game against a bot
// with one click, plays legal moves by clicking until the game ends, and
// sees the result; a screenshot of the board is saved mid-game. Then the
// finished game opens in the replay viewer.

import {test, before, after} from 'node:test'
import assert from 'node:assert/strict'
import path from 'node:path'
import {launch, newPage, assertNoErrors, startBotGame, playUntilOver, boardState, settled, OUT} from './helpers.mjs'

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
    }
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
