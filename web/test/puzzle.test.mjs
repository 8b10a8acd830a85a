// The puzzles (#/puzzles/<game>): a player asks for the hint, tries a legal
// move that does not win and is told so, then finds the winning move, sees
// the winning line, and finds the puzzle marked solved after a reload.

import {test, before, after} from 'node:test'
import assert from 'node:assert/strict'
import path from 'node:path'
import {fileURLToPath} from 'node:url'
import {launch, newPage, assertNoErrors, settled, BASE, OUT} from './helpers.mjs'
import {playMove} from './learnhelpers.mjs'

// The committed screenshots in docs/screenshots/ are rewritten only when
// asked (UPDATE_SCREENSHOTS=1 web/test/run); other runs write to out/.
const SHOTS = process.env.UPDATE_SCREENSHOTS ? path.join(path.dirname(fileURLToPath(import.meta.url)), '..', '..', 'docs', 'screenshots') : OUT

let browser
before(async () => {
  browser = await launch()
})
after(async () => {
  await browser?.close()
})

for (const game of ['sploof', 'sgolte']) {
  test(`${game}: a puzzle is solved with the hint's help`, async () => {
    const page = await newPage(browser)
    await page.goto(BASE + '/#/puzzles/' + game + '?n=2')
    const set = await page.evaluate((g) => fetch('learn/puzzles/' + g + '.json').then((r) => r.json()), game)
    assert.ok(set.puzzles.length >= 50)
    const pz = set.puzzles[1]
    await page.waitForSelector('.board-svg [data-hit]')
    await page.waitForSelector('[data-test=puzzle-task]')
    assert.match(await page.textContent('[data-test=puzzle-task]'), new RegExp(`within ${pz.plies} plies`))

    await page.click('[data-test=puzzle-hint]')
    assert.ok((await page.textContent('[data-test=puzzle-hint-text]')).length > 10)

    // A legal move that is not the solution does not win by force.
    const legal = await page.evaluate(([g, p]) => fetch('/api/rules/' + g, {method: 'POST', headers: {'Content-Type': 'application/json'},
      body: JSON.stringify({position: p})}).then((r) => r.json()).then((a) => a.legal), [game, pz.position])
    const seat = await page.evaluate(([g, p]) => fetch('/api/rules/' + g, {method: 'POST', headers: {'Content-Type': 'application/json'},
      body: JSON.stringify({position: p})}).then((r) => r.json()).then((a) => a.toMove), [game, pz.position])
    const wrong = legal.find((m) => m !== pz.line[0] && !m.includes('(') && m !== 'pass' && m !== 'swap')
    if (wrong) {
      await playMove(page, game, wrong, seat)
      await page.waitForSelector('[data-test=puzzle-wrong]')
      assert.match(await page.textContent('[data-test=puzzle-wrong]'), /does not win by force/)
    }

    await playMove(page, game, pz.line[0], seat)
    await page.waitForSelector('[data-test=puzzle-solved]')
    assert.equal(await page.textContent('[data-test=puzzle-line]'), `The winning line: ${pz.line.join(' ')}.`)
    await settled(page)
    await page.evaluate(() => window.scrollTo(0, 0))
    await page.screenshot({path: path.join(SHOTS, `puzzle-${game}.png`)})

    await page.reload()
    await page.waitForFunction((n) => document.querySelector('[data-test=puzzle-progress]')?.textContent === `1 of ${n} solved`, set.puzzles.length)
    assert.match(await page.getAttribute('[data-test=puzzle-2]', 'class'), /solved/)
    assertNoErrors(page)
    await page.context().close()
  })
}
