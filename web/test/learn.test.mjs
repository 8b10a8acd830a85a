// The lesson paths (#/learn/<game>): for each game a new player walks
// through every step of every lesson by clicking the board, tries each
// wrong move a step invites and sees it explained (the lesson's words and
// the rules engine's reason), tries a legal move that is not the task and
// is told so, finishes the path with the first game against the easy bot
// (resigning it, to keep the test short), and finds the path marked done.
// Screenshots of a lesson step in every language (docs/screenshots/).

import {test, before, after} from 'node:test'
import assert from 'node:assert/strict'
import path from 'node:path'
import {fileURLToPath} from 'node:url'
import {mkdirSync} from 'node:fs'
import {launch, newPage, assertNoErrors, settled, BASE, OUT} from './helpers.mjs'
import {playMove, waitText} from './learnhelpers.mjs'

// The committed screenshots in docs/screenshots/ are rewritten only when
// asked (UPDATE_SCREENSHOTS=1 web/test/run); other runs write to out/.
const SHOTS = process.env.UPDATE_SCREENSHOTS ? path.join(path.dirname(fileURLToPath(import.meta.url)), '..', '..', 'docs', 'screenshots') : OUT
mkdirSync(SHOTS, {recursive: true})

let browser
before(async () => {
  browser = await launch()
})
after(async () => {
  await browser?.close()
})

// A legal move that is not the task, per game: [lesson id, step index, move].
const notTheTask = {
  skjuub: ['moves', 0, 'a1-a3'],
  sgolte: ['merge', 1, 'a1'],
  sploof: ['place', 0, '*1a1'],
  skyjo: ['draw', 0, 'take'],
}

async function course(page, game) {
  return page.evaluate((g) => fetch('learn/lessons/' + g + '.json').then((r) => r.json()), game)
}

for (const game of ['skjuub', 'sgolte', 'sploof', 'skyjo']) {
  test(`${game}: a new player walks the whole lesson path by clicking`, async () => {
    const page = await newPage(browser)
    page.on('dialog', (d) => d.accept())
    await page.goto(BASE + '/#/learn/' + game)
    const c = await course(page, game)
    await page.waitForSelector('[data-test=learn-text]')
    let steps = 0
    for (const lesson of c.lessons) {
      for (const [i, step] of lesson.steps.entries()) {
        await waitText(page, '[data-test=learn-text]', step.text.en)
        if (step.game) {
          await page.click('[data-test=learn-start-game]')
          await page.waitForSelector('[data-test=learn-hints] p')
          await page.click('[data-test=learn-resign]')
          await page.waitForSelector('[data-test=learn-game-over]')
          assert.match(await page.textContent('[data-test=learn-game-over]'), /You lost/)
          steps++
          continue
        }
        await page.waitForSelector('.board-svg [data-hit]')
        for (const tr of step.tries || []) {
          await playMove(page, game, tr.move, step.seat || 0)
          await page.waitForSelector('[data-test=learn-engine]')
          assert.equal(await page.textContent('[data-test=learn-wrong]'), tr.why.en)
          assert.ok((await page.textContent('[data-test=learn-engine]')).includes(tr.engine), `${tr.move}: the engine's reason is shown`)
        }
        const [wl, wi, wm] = notTheTask[game]
        if (wl === lesson.id && wi === i) {
          await playMove(page, game, wm, step.seat || 0)
          await page.waitForSelector('[data-test=learn-wrong]')
          assert.equal(await page.textContent('[data-test=learn-wrong]'), step.wrong.en)
        }
        const mv = step.goal === 'any' ? null : step.accept[0]
        await playMove(page, game, mv, step.seat || 0)
        await page.waitForSelector('[data-test=learn-done]')
        assert.equal(await page.textContent('[data-test=learn-done]'), step.done.en)
        steps++
        if (await page.$('[data-test=learn-next]')) await page.click('[data-test=learn-next]')
      }
    }
    const total = c.lessons.reduce((n, l) => n + l.steps.length, 0)
    assert.equal(steps, total)
    await page.waitForFunction((n) => document.querySelector('[data-test=learn-progress]').textContent.includes(`${n} of ${n}`), total)
    // Progress is remembered: a new visit opens the path as done.
    await page.reload()
    await page.waitForFunction((n) => document.querySelector('[data-test=learn-progress]')?.textContent.includes(`${n} of ${n}`), total)
    assertNoErrors(page)
    await page.context().close()
  })
}

// The first game's hints come from the position and the server's legal
// moves: in the sacrifice lesson's position, a3-d3 is the one capture.
test('skjuub hints: movable skjuubs, captures, sacrifices', async () => {
  const page = await newPage(browser)
  await page.goto(BASE + '/#/learn')
  const lines = await page.evaluate(async () => {
    const {hints} = await import('/js/lessons/hints.js')
    const position = {game: 'skjuub', board: {d4: '2N', f6: '2W', a3: '1N', c1: '1E'}, pool: [9, 9], toMove: 1, turn: [3, 3]}
    const ans = await fetch('/api/rules/skjuub', {method: 'POST', headers: {'Content-Type': 'application/json'}, body: JSON.stringify({position})}).then((r) => r.json())
    return hints('skjuub', ans.view, ans.legal)
  })
  assert.deepEqual(lines.slice(0, 2), ['Your skjuubs that can move: a3, c1.', 'Moves that capture: a3-d3.'])
  assert.match(lines[2], /^Moves that sacrifice \(and earn a bonus action\): a3-d3\.$/)
  assert.match(lines[3], /only 2 of your skjuubs can move/)
  assertNoErrors(page)
  await page.context().close()
})

// The step each screenshot shows (lesson id, step index), and a wrong try
// to show its explanation where the step has one.
const shotStep = {skjuub: ['collision', 0, 'c4E'], sgolte: ['fewest', 0, 'e5(e4,f3)'], sploof: ['red', 0, '*1a3'], skyjo: ['column', 0, null]}

test('screenshots of a lesson step in every language and on a phone', async () => {
  for (const [locale, lang] of [['en-US', 'en'], ['ko-KR', 'ko'], ['mn-MN', 'mn']]) {
    for (const [w, hgt, suffix] of lang === 'en' ? [[1280, 800, ''], [390, 844, '-phone']] : [[1280, 800, '']]) {
      // One page a language and size, the site loaded once: each game's
      // progress is stored, then its lesson path opened by its route, as a
      // returning player's link would (a load and a reload for each shot
      // were 32 of the suite's page loads).
      const page = await newPage(browser, {locale, viewport: {width: w, height: hgt}})
      await page.goto(BASE + '/#/')
      for (const game of Object.keys(shotStep)) {
        const c = await course(page, game)
        const [lid, si, wrong] = shotStep[game]
        // Mark everything before the step done, so the page opens there.
        const keys = []
        for (const l of c.lessons) {
          for (let i = 0; i < l.steps.length; i++) {
            if (l.id === lid && i === si) break
            keys.push(l.id + '/' + i)
          }
          if (l.id === lid) break
        }
        await page.evaluate(([g, ks]) => localStorage.setItem('tabula.learn.' + g, JSON.stringify(ks)), [game, keys])
        await page.goto(BASE + '/#/learn/' + game)
        const step = c.lessons.find((l) => l.id === lid).steps[si]
        await waitText(page, '[data-test=learn-text]', step.text[lang])
        await page.waitForSelector('.board-svg [data-hit]')
        if (wrong) {
          await playMove(page, game, wrong, 0)
          await page.waitForSelector('[data-test=learn-engine]')
        }
        await settled(page)
        await page.evaluate(() => window.scrollTo(0, 0))
        await page.screenshot({path: path.join(SHOTS, `learn-${game}-${lang}${suffix}.png`), fullPage: suffix !== ''})
      }
      assertNoErrors(page)
      await page.context().close()
    }
  }
})
