// The players' tournaments page (#/help/tournaments, issue 25), rendered
// from docs/help as the rules pages are from docs/rules: in English, Korean
// and Mongolian it is the page of that language (not the English fallback),
// says the arena's streak rule and names the Swiss tie-breaks in order,
// shows its tables, marks itself in its navigation, leaves no console
// error and no sideways scroll on a phone. Screenshots (1280×800 and
// 390×844, English also dark; and the tie-breaks and the placement table
// on a phone in each language) go to docs/screenshots/issue25/ with UPDATE_SCREENSHOTS=1,
// else to out/issue25/.

import {test, before, after} from 'node:test'
import assert from 'node:assert/strict'
import path from 'node:path'
import {mkdirSync} from 'node:fs'
import {launch, newPage, assertNoErrors, BASE, SHOTS} from './helpers.mjs'

const DIR = path.join(SHOTS, 'issue25')
mkdirSync(DIR, {recursive: true})

const PHONE = {width: 390, height: 844}
const DESKTOP = {width: 1280, height: 800}

// What each language's page must say: its title (also the navigation's
// current link), the streak rule, and the Swiss tie-breaks in their order.
const WANT = {
  en: {
    title: 'How tournaments work',
    streak: /After two wins in a row you are on fire: every game counts double.*third win in a row scores 4/s,
    tieBreaks: ['Buchholz:', 'Buchholz cut 1:', 'Sonneborn–Berger:', 'Wins:', 'Direct encounter:'],
    berger: /Berger tables/,
  },
  ko: {
    title: '토너먼트 안내',
    streak: /두 판을 연달아 이기면 '연승 중'이 되어.*두 배가 됩니다.*세 번째 연승은 4점/s,
    tieBreaks: ['부흐홀츠:', '부흐홀츠 컷 1:', '소네보른-베르거:', '승리 수:', '승자승:'],
    berger: /베르거 표/,
  },
  mn: {
    title: 'Тэмцээн хэрхэн явагддаг вэ',
    streak: /Дараалан хоёр хожвол "цувралтай" болж.*давхар\s+оноотой.*дараалсан гурав дахь хожил 4 оноо/s,
    tieBreaks: ['Бухгольц:', 'Бухгольц 1 хасалттай:', 'Зоннеборн-Бергер:', 'Хожлын тоо:', 'Шууд уулзалт:'],
    berger: /Бергерийн хүснэгт/,
  },
}

let browser
before(async () => {
  browser = await launch()
})
after(async () => {
  await browser?.close()
})

/** openHelp opens #/help/tournaments in lang and waits until its text is drawn. */
async function openHelp(lang, viewport, colorScheme = 'light') {
  const page = await newPage(browser, {locale: lang, viewport})
  await page.emulateMedia({colorScheme})
  await page.addInitScript((l) => localStorage.setItem('tabula.lang', l), lang)
  await page.goto(BASE + '/#/help/tournaments')
  await page.waitForSelector('[data-test=help][data-ready]')
  return page
}

for (const lang of Object.keys(WANT)) {
  test(`#/help/tournaments in ${lang}: the page of that language, its streak rule and tie-breaks, no sideways scroll`, async () => {
    const want = WANT[lang]
    const page = await openHelp(lang, PHONE)
    const got = await page.evaluate(() => {
      const article = document.querySelector('[data-test=help]')
      const swiss = [...article.querySelectorAll('ol')].find((ol) => ol.children.length === 5)
      return {
        lang: article.lang,
        h1: article.querySelector('h1')?.textContent,
        current: document.querySelector('[data-test=help-nav] a[aria-current=page]')?.textContent,
        currentHref: document.querySelector('[data-test=help-nav] a[aria-current=page]')?.getAttribute('href'),
        navLinks: [...document.querySelectorAll('[data-test=help-nav] a')].map((a) => a.getAttribute('href')),
        noteHidden: document.querySelector('[data-test=help-note]').hidden,
        text: article.textContent,
        sections: article.querySelectorAll('h2').length,
        tables: article.querySelectorAll('table').length,
        placementRows: [...article.querySelectorAll('table')].map((t) => t.querySelectorAll('tbody tr').length),
        tieBreaks: swiss ? [...swiss.children].map((li) => li.querySelector('strong')?.textContent) : null,
        pageWidth: document.documentElement.scrollWidth,
        vw: document.documentElement.clientWidth,
        wideTables: [...article.querySelectorAll('.table-wrap')].filter((w) => w.scrollWidth > w.clientWidth + 1).length,
        codeLeft: article.querySelectorAll('pre').length,
      }
    })
    assert.equal(got.lang, lang, 'the translation, not the English page')
    assert.equal(got.noteHidden, true, 'no "not translated" note')
    assert.equal(got.h1, want.title)
    assert.equal(got.current, want.title)
    assert.equal(got.currentHref, '#/help/tournaments')
    assert.deepEqual(got.navLinks, ['#/help/tournaments', '#/tournaments', '#/rules'])
    assert.match(got.text, want.streak)
    assert.match(got.text, want.berger)
    assert.deepEqual(got.tieBreaks, want.tieBreaks)
    // Taking part, arena, Swiss, round robin, Skyjo tables, bots.
    assert.equal(got.sections, 6)
    // The arena's scores, the table sizes and the points by placement (tables of 3 to 8).
    assert.equal(got.tables, 3)
    assert.deepEqual(got.placementRows, [4, 6, 6])
    assert.equal(got.codeLeft, 0)
    assert.ok(got.pageWidth <= got.vw, `the page is ${got.pageWidth}px wide on a ${got.vw}px phone`)
    assert.equal(got.wideTables, 0, 'a table wider than the phone')
    // The tie-breaks, and the points by placement, on a phone.
    await page.locator('[data-test=help] ol').last().scrollIntoViewIfNeeded()
    await page.screenshot({path: path.join(DIR, `tournamenthelp-tiebreaks-${lang}-390x844.png`)})
    await page.locator('[data-test=help] table').last().scrollIntoViewIfNeeded()
    await page.screenshot({path: path.join(DIR, `tournamenthelp-placement-${lang}-390x844.png`)})
    assertNoErrors(page)
    await page.context().close()
  })
}

test('#/help/tournaments: screenshots at 1280×800 and 390×844, English in light and dark', async () => {
  const shots = [
    ['en', DESKTOP, 'light'], ['en', DESKTOP, 'dark'], ['en', PHONE, 'light'], ['en', PHONE, 'dark'],
    ['ko', DESKTOP, 'light'], ['ko', PHONE, 'light'], ['mn', DESKTOP, 'light'], ['mn', PHONE, 'light'],
  ]
  for (const [lang, vp, scheme] of shots) {
    const page = await openHelp(lang, vp, scheme)
    const sideways = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth)
    assert.ok(sideways <= 0, `${lang} ${vp.width}px ${scheme}: ${sideways}px of sideways scroll`)
    await page.screenshot({path: path.join(DIR, `tournamenthelp-${lang}-${vp.width}x${vp.height}-${scheme}.png`)})
    assertNoErrors(page)
    await page.context().close()
  }
})

test('#/help/<unknown> says the page is not found, and the language switch redraws the help page', async () => {
  const page = await openHelp('en', DESKTOP)
  await page.goto(BASE + '/#/help/nothing')
  await page.waitForSelector('main h1')
  assert.equal(await page.textContent('main h1'), 'Page not found')
  await page.goto(BASE + '/#/help/tournaments')
  await page.waitForSelector('[data-test=help][data-ready]')
  await page.selectOption('[data-test=lang]', 'ko')
  await page.waitForSelector('[data-test=help][data-ready][lang=ko]')
  assert.equal(await page.textContent('[data-test=help] h1'), WANT.ko.title)
  assertNoErrors(page)
  await page.context().close()
})
