// Rules pages: every page in English, Korean and Mongolian draws each of
// its diagrams on the game's own board (positions played by the rules
// engines, rules/diagrams.json), with marks where the page asks for them;
// nothing is cut off on a phone; Korean breaks only between words; the
// game's words from the glossary close the page. Screenshots of every
// page's first section (1280×800) and its first diagram (390×844) are
// rules-<game>-<lang>-<width>.png; the committed ones in docs/screenshots/
// are rewritten only when asked (UPDATE_SCREENSHOTS=1 web/test/run), other
// runs write to out/.

import {test, before, after} from 'node:test'
import assert from 'node:assert/strict'
import path from 'node:path'
import {fileURLToPath} from 'node:url'
import {mkdirSync} from 'node:fs'
import {launch, newPage, assertNoErrors, BASE, OUT} from './helpers.mjs'

const SHOTS = process.env.UPDATE_SCREENSHOTS ? path.join(path.dirname(fileURLToPath(import.meta.url)), '..', '..', 'docs', 'screenshots') : OUT
mkdirSync(SHOTS, {recursive: true})

const GAMES = ['sgolte', 'sploof', 'skjuub', 'skyjo']
const LANGS = ['en', 'ko', 'mn']
const PHONE = {width: 390, height: 844}
const DESKTOP = {width: 1280, height: 800}

let browser
before(async () => {
  browser = await launch()
})
after(async () => {
  await browser?.close()
})

/** openRules opens a game's rules page in lang and waits until its diagrams are drawn. */
async function openRules(lang, game, viewport) {
  const page = await newPage(browser, {locale: lang, viewport})
  await page.addInitScript((l) => localStorage.setItem('tabula.lang', l), lang)
  await page.goto(BASE + '/#/rules/' + game)
  await page.waitForSelector('[data-test=rules][data-ready]')
  return page
}

for (const game of GAMES) {
  for (const lang of LANGS) {
    test(`rules of ${game} in ${lang}: diagrams drawn, nothing cut off, glossary at the end`, async () => {
      const page = await openRules(lang, game, PHONE)
      const report = await page.evaluate(() => {
        const article = document.querySelector('[data-test=rules]')
        const figs = [...article.querySelectorAll('figure.diagram')]
        const vw = document.documentElement.clientWidth
        const cut = []
        for (const f of figs) {
          for (const svg of f.querySelectorAll('.board-svg svg:not([aria-hidden=true])')) {
            const r = svg.getBoundingClientRect()
            if (r.left < -0.5 || r.right > vw + 0.5 || r.width < 100) cut.push(`${f.dataset.diagram}: ${Math.round(r.left)}…${Math.round(r.right)} of ${vw}`)
          }
        }
        return {
          lang: article.lang,
          figures: figs.length,
          drawn: figs.filter((f) => f.hasAttribute('data-drawn') && f.querySelector('.board-svg svg')).length,
          captions: figs.filter((f) => f.querySelector('figcaption').textContent.trim().length > 10).length,
          // no diagram is left as a code block, and no page is wider than the phone
          codeDiagrams: [...article.querySelectorAll('pre code')].filter((c) => /^caption:/m.test(c.textContent)).length,
          pageWidth: document.documentElement.scrollWidth,
          vw,
          cut,
          wordBreak: getComputedStyle(article).wordBreak,
          terms: article.querySelectorAll('[data-test=glossary] dt').length,
          firstSection: article.querySelector('h2')?.nextElementSibling?.tagName,
        }
      })
      assert.equal(report.lang, lang)
      assert.ok(report.figures >= 5, `${report.figures} diagrams`)
      assert.equal(report.drawn, report.figures, 'every diagram is drawn on a board')
      assert.equal(report.captions, report.figures, 'every diagram has its caption')
      assert.equal(report.codeDiagrams, 0)
      assert.ok(report.pageWidth <= report.vw, `the page is ${report.pageWidth}px wide on a ${report.vw}px phone`)
      assert.deepEqual(report.cut, [], 'diagrams cut off on a phone')
      assert.equal(report.wordBreak, lang === 'ko' ? 'keep-all' : 'normal')
      assert.ok(report.terms >= 8, `${report.terms} glossary terms`)
      // the page starts with what the player does: a list, then a diagram
      assert.equal(report.firstSection, 'UL')
      // the phone shows the first diagram with its caption; the desktop the game in one minute
      await page.evaluate(() => document.querySelector('figure.diagram').scrollIntoView({block: 'start'}))
      await page.screenshot({path: path.join(SHOTS, `rules-${game}-${lang}-390.png`)})
      await page.setViewportSize(DESKTOP)
      await page.evaluate(() => document.querySelector('[data-test=rules] h2').scrollIntoView({block: 'start'}))
      await page.screenshot({path: path.join(SHOTS, `rules-${game}-${lang}-1280.png`)})
      assertNoErrors(page)
      await page.context().close()
    })
  }
}

test('marks and arrows sit on the places they name', async () => {
  const page = await openRules('en', 'sploof', DESKTOP)
  // a ring on the red ball 1g3, a cross between the bridging balls 2d2 and 2d4
  const got = await page.evaluate(() => {
    const centre = (el) => {
      const svg = el.ownerSVGElement
      const b = el.getBBox()
      const m = svg.getScreenCTM().inverse().multiply(el.getScreenCTM())
      const p = new DOMPoint(b.x + b.width / 2, b.y + b.height / 2).matrixTransform(m)
      return [Math.round(p.x), Math.round(p.y)]
    }
    const fig = (id) => document.querySelector(`figure[data-diagram="sploof/${id}"]`)
    const threat = fig('first-threat')
    const bridge = fig('first-bridge')
    return {
      ring: centre(threat.querySelector('.dg-ring')),
      ball: centre(threat.querySelector('[data-hit="1g3"]')),
      cross: centre(bridge.querySelector('.dg-cross')),
      upper: centre(bridge.querySelector('[data-hit="2d4"]')),
      lower: centre(bridge.querySelector('[data-hit="2d2"]')),
    }
  })
  assert.deepEqual(got.ring, got.ball, 'the ring is on 1g3')
  const mid = [(got.upper[0] + got.lower[0]) / 2, (got.upper[1] + got.lower[1]) / 2]
  assert.ok(Math.abs(got.cross[0] - mid[0]) <= 1 && Math.abs(got.cross[1] - mid[1]) <= 1,
    `the cross ${got.cross} is between 2d4 ${got.upper} and 2d2 ${got.lower}`)
  assertNoErrors(page)
  await page.context().close()
})

test('a diagram shows what the engine played: the Sgolte split flips e5', async () => {
  const page = await openRules('en', 'sgolte', DESKTOP)
  const text = await page.textContent('figure[data-diagram="sgolte/first-after"] .board-text-body')
  assert.match(text, /Black: c4, d4, d5, d6, e5\./)
  assert.match(text, /White: e4, e6\./)
  assert.match(text, /Last move: d5\(e5\)/)
  assertNoErrors(page)
  await page.context().close()
})
