// The puzzles (#/puzzles/<game>): a player asks for the hint, tries a legal
// move that does not win and is told so, then finds the winning move, sees
// the winning line, and finds the puzzle marked solved after a reload.
//
// Rated puzzles (issue 27.8): a registered player's first answer is rated
// (their rating and the puzzle's shown, the change after it), a second try
// is not; a streak runs until the first miss; the daily puzzle opens in its
// game's page; the history lists the attempts. A guest is told that only
// signed-in players are rated. Screenshots of the rated page at 1280×800
// and 390×844, light and dark, in English and Korean (puzzle-*.png).

import {test, before, after} from 'node:test'
import assert from 'node:assert/strict'
import path from 'node:path'
import {fileURLToPath} from 'node:url'
import {launch, newPage, assertNoErrors, settled, BASE, OUT, registered, api} from './helpers.mjs'
import {playMove} from './learnhelpers.mjs'

// The committed screenshots in docs/screenshots/ are rewritten only when
// asked (UPDATE_SCREENSHOTS=1 web/test/run); other runs write to out/.
const SHOTS = process.env.UPDATE_SCREENSHOTS ? path.join(path.dirname(fileURLToPath(import.meta.url)), '..', '..', 'docs', 'screenshots') : OUT

// A loaded machine (the shared one runs several test suites at once) can
// take half a minute to load the page: these pages wait longer than the
// default 15 s before calling a step failed.
async function slowPage(browser, opts) {
  const page = await newPage(browser, opts)
  page.setDefaultTimeout(60000)
  return page
}

let browser
before(async () => {
  browser = await launch()
})
after(async () => {
  await browser?.close()
})

/** rules asks the rules endpoint about a puzzle's position: its legal moves and the seat to move. */
function rules(page, game, position) {
  return page.evaluate(([g, p]) => fetch('/api/rules/' + g, {method: 'POST', headers: {'Content-Type': 'application/json'},
    body: JSON.stringify({position: p})}).then((r) => r.json()), [game, position])
}

/** wrongMove is a legal move of the puzzle that is not its solution (one click on the board). */
async function wrongMove(page, game, pz) {
  const ans = await rules(page, game, pz.position)
  return {move: ans.legal.find((m) => m !== pz.line[0] && !m.includes('(') && m !== 'pass' && m !== 'swap'), seat: ans.toMove}
}

for (const game of ['sploof', 'sgolte']) {
  test(`${game}: a puzzle is solved with the hint's help`, async () => {
    const page = await slowPage(browser)
    await page.goto(BASE + '/#/puzzles/' + game + '?n=2')
    const set = await page.evaluate((g) => fetch('learn/puzzles/' + g + '.json').then((r) => r.json()), game)
    assert.ok(set.puzzles.length >= 50)
    const pz = set.puzzles[1]
    await page.waitForSelector('.board-svg [data-hit]')
    await page.waitForSelector('[data-test=puzzle-task]')
    assert.match(await page.textContent('[data-test=puzzle-task]'), new RegExp(`within ${pz.plies} plies`))
    // A visitor is told that only signed-in players are rated.
    await page.waitForFunction(() => /only signed-in players are rated/.test(document.querySelector('[data-test=puzzle-rated-note]')?.textContent))

    await page.click('[data-test=puzzle-hint]')
    await page.waitForSelector('[data-test=puzzle-hint-text]')
    assert.ok((await page.textContent('[data-test=puzzle-hint-text]')).length > 10)

    // A legal move that is not the solution does not win by force.
    const {move: wrong, seat} = await wrongMove(page, game, pz)
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

test('rated puzzles: a rated miss, an unrated retry, a streak, the daily puzzle and the history; screenshots', async () => {
  const game = 'sploof'
  const page = await slowPage(browser, {viewport: {width: 1280, height: 800}})
  await registered(page, 'pz')
  const set = await page.evaluate((g) => fetch('learn/puzzles/' + g + '.json').then((r) => r.json()), game)
  const byID = Object.fromEntries(set.puzzles.map((p) => [p.id, p]))
  // The rated try is at one of the hardest puzzles, so that the streak
  // (which starts at the easiest) does not meet it again.
  const hardest = Math.max(...set.puzzles.map((p) => p.difficulty || 0))
  const N = set.puzzles.findIndex((p) => (p.difficulty || 0) === hardest) + 1
  await page.goto(BASE + '/#/puzzles/' + game + '?n=' + N)
  await page.waitForSelector('.board-svg [data-hit]')
  await page.waitForFunction(() => /^Your puzzle rating: 1500\?$/.test(document.querySelector('[data-test=puzzle-my-rating]')?.textContent))
  await page.waitForFunction(() => /^This puzzle's rating: \d+/.test(document.querySelector('[data-test=puzzle-rating]')?.textContent))
  assert.match(await page.textContent('[data-test=puzzle-rated-note]'), /first try at each puzzle changes your puzzle rating/)

  // A wrong first answer: rated, the rating falls, no solution shown.
  const pz = set.puzzles[N - 1]
  const {move: wrong, seat} = await wrongMove(page, game, pz)
  await playMove(page, game, wrong, seat)
  await page.waitForSelector('[data-test=puzzle-wrong]')
  await page.waitForSelector('[data-test=puzzle-change]')
  const change = await page.textContent('[data-test=puzzle-change]')
  const m = /^Your rating 1500 → (\d+) \(−\d+\); the puzzle's (\d+) → (\d+)\.$/.exec(change)
  assert.ok(m, change)
  assert.ok(Number(m[3]) > Number(m[2]), 'the puzzle gains when it is missed: ' + change)
  assert.equal(await page.$('[data-test=puzzle-line]'), null, 'a wrong answer shows no solution')
  await page.waitForFunction((r) => document.querySelector('[data-test=puzzle-my-rating]')?.textContent === `Your puzzle rating: ${r}?`, m[1])

  // The right answer now: solved, but not rated again.
  await playMove(page, game, pz.line[0], seat)
  await page.waitForSelector('[data-test=puzzle-solved]')
  await page.waitForFunction(() => /^Not rated: you tried this puzzle before\.$/.test(document.querySelector('[data-test=puzzle-change]')?.textContent))
  assert.equal(await page.textContent('[data-test=puzzle-my-rating]'), `Your puzzle rating: ${m[1]}?`)
  assert.match(await page.getAttribute(`[data-test=puzzle-${N}]`, 'class'), /solved/)

  // The streak: one solved, then a miss ends it with the best kept.
  await page.click('[data-test=puzzle-streak-start]')
  await page.waitForFunction(() => /^Streak: 0 solved in a row \(best 0\)/.test(document.querySelector('[data-test=puzzle-streak]')?.textContent))
  const first = (await api(page, 'GET', '/puzzles/' + game)).body.player.streak
  assert.ok(first.puzzle, 'a streak runs')
  await page.waitForFunction((n) => document.querySelector('[data-test=puzzle-heading]')?.textContent.startsWith(`Puzzle ${n} of`), first.n)
  await page.waitForSelector('.board-svg [data-hit]')
  const s1 = (await rules(page, game, byID[first.puzzle].position)).toMove
  await playMove(page, game, byID[first.puzzle].line[0], s1)
  await page.waitForSelector('[data-test=puzzle-solved]')
  await page.waitForFunction(() => /^Streak: 1 solved in a row \(best 1\)/.test(document.querySelector('[data-test=puzzle-streak]')?.textContent))
  await page.click('[data-test=puzzle-streak-next]')
  const second = (await api(page, 'GET', '/puzzles/' + game)).body.player.streak
  assert.notEqual(second.puzzle, first.puzzle)
  await page.waitForFunction((n) => document.querySelector('[data-test=puzzle-heading]')?.textContent.startsWith(`Puzzle ${n} of`), second.n)
  await page.waitForSelector('.board-svg [data-hit]')
  const miss = await wrongMove(page, game, byID[second.puzzle])
  await playMove(page, game, miss.move, miss.seat)
  await page.waitForSelector('[data-test=puzzle-streak-again]')
  assert.match(await page.textContent('[data-test=puzzle-streak]'), /^Streak over: 1 solved in a row \(best 1\)\.$/)
  assert.match(await page.textContent('[data-test=puzzle-wrong]'), /does not win by force/)
  assert.match(await page.textContent('[data-test=puzzle-line]'), /^The winning line: /, 'a streak miss shows the solution')

  // The daily puzzle opens in its game's page, the same as the API's.
  const daily = (await api(page, 'GET', '/puzzles/daily')).body
  await page.click('[data-test=puzzle-daily]')
  await page.waitForFunction((d) => location.hash === `#/puzzles/${d.game}?n=${d.n}&mode=daily`, daily)
  await page.waitForFunction(() => /daily puzzle: the same for everyone today/i.test(document.querySelector('[data-test=puzzle-streak]')?.textContent))
  await page.waitForFunction((n) => document.querySelector('[data-test=puzzle-heading]')?.textContent.startsWith(`Puzzle ${n} of`), daily.n)

  // The history: the four first attempts, newest first.
  await page.goto(BASE + '/#/puzzles/' + game + '?n=' + N)
  await page.waitForSelector('.board-svg [data-hit]')
  await page.click('[data-test=puzzle-history] summary')
  await page.waitForFunction(() => document.querySelectorAll('[data-test=puzzle-history-item]').length === 3)
  const items = await page.$$eval('[data-test=puzzle-history-item]', (els) => els.map((e) => e.textContent))
  assert.match(items[0], new RegExp(`^Sploof puzzle ${second.n} missed \\d+ → \\d+ \\(`))
  assert.match(items[1], new RegExp(`^Sploof puzzle ${first.n} solved \\d+ → \\d+ \\(\\+`))
  assert.match(items[2], new RegExp(`^Sploof puzzle ${N} missed 1500 → ${m[1]} \\(−`))
  assertNoErrors(page)

  // Screenshots: the rated page with its history open, as this player; one
  // page per language, its size and colour scheme switched in place.
  const state = await page.context().storageState()
  for (const [locale, code] of [['en-US', 'en'], ['ko-KR', 'ko']]) {
    const ctx = await browser.newContext({storageState: state, locale, viewport: {width: 1280, height: 800}})
    const p = await ctx.newPage()
    p.setDefaultTimeout(60000)
    await p.goto(BASE + '/#/puzzles/' + game + '?n=' + N)
    await p.waitForSelector('.board-svg [data-hit]')
    await p.waitForFunction(() => /\d/.test(document.querySelector('[data-test=puzzle-rating]')?.textContent))
    await p.click('[data-test=puzzle-history] summary')
    await p.waitForFunction(() => document.querySelectorAll('[data-test=puzzle-history-item]').length === 3)
    for (const [w, h] of [[1280, 800], [390, 844]]) {
      await p.setViewportSize({width: w, height: h})
      for (const scheme of ['light', 'dark']) {
        await p.emulateMedia({colorScheme: scheme})
        await settled(p)
        await p.evaluate(() => window.scrollTo(0, 0))
        const sideways = await p.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth)
        assert.ok(sideways <= 0, `${code} ${w}×${h} ${scheme}: the page scrolls sideways by ${sideways}px`)
        // the board starts in the window's upper part (the ratings and modes are beside it, not above it)
        const top = await p.$eval('[data-test=board]', (b) => b.getBoundingClientRect().top)
        assert.ok(top < (w > 500 ? 300 : 500), `${code} ${w}×${h}: the board starts ${Math.round(top)} px down`)
        await p.screenshot({path: path.join(SHOTS, `puzzle-${code}-${w}x${h}-${scheme}.png`)})
      }
    }
    await ctx.close()
  }
  await page.context().close()
})
