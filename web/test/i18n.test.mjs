// Languages: the page follows the browser's language, can be switched,
// remembers the choice, has every string in Korean and Mongolian, and
// shows the rules in the chosen language where a translation exists.

import {test, before, after} from 'node:test'
import assert from 'node:assert/strict'
import path from 'node:path'
import {launch, newPage, assertNoErrors, BASE, OUT} from './helpers.mjs'

let browser
before(async () => {
  browser = await launch()
})
after(async () => {
  await browser?.close()
})

test('every interface string exists in English, Korean and Mongolian', async () => {
  const page = await newPage(browser)
  await page.goto(BASE + '/')
  const report = await page.evaluate(async () => {
    const [en, ko, mn] = await Promise.all(['en', 'ko', 'mn'].map((l) => import(`/js/lang/${l}.js`).then((m) => m.default)))
    const missing = (d) => Object.keys(en).filter((k) => typeof d[k] !== 'string' || !d[k].trim())
    const extra = (d) => Object.keys(d).filter((k) => !(k in en))
    // placeholders must survive translation
    const ph = (s) => (s.match(/\{\w+\}/g) || []).sort().join()
    const badPh = (d) => Object.keys(en).filter((k) => k in d && ph(en[k]) !== ph(d[k]))
    return {ko: [missing(ko), extra(ko), badPh(ko)], mn: [missing(mn), extra(mn), badPh(mn)]}
  })
  assert.deepEqual(report, {ko: [[], [], []], mn: [[], [], []]})
  assertNoErrors(page)
  await page.context().close()
})

test('the language follows the browser, switches to Mongolian, and is remembered', async () => {
  const page = await newPage(browser, {locale: 'ko-KR'})
  await page.goto(BASE + '/')
  await page.waitForSelector('.game-card')
  assert.equal(await page.textContent('h1'), '네 가지 게임, 하나의 테이블')
  assert.equal(await page.getAttribute('html', 'lang'), 'ko')
  assert.match(await page.textContent('[data-test=play-bot-skyjo]'), /지금 봇과 대국/)
  await page.screenshot({path: path.join(OUT, 'home-ko.png')})

  await page.selectOption('[data-test=lang]', 'mn')
  await page.waitForFunction(() => document.querySelector('h1').textContent === 'Дөрвөн тоглоом, нэг ширээ')
  assert.match(await page.textContent('[data-test=nav-lobby]'), /Лобби/)
  await page.reload()
  await page.waitForSelector('.game-card')
  assert.equal(await page.textContent('h1'), 'Дөрвөн тоглоом, нэг ширээ')
  assert.equal(await page.getAttribute('html', 'lang'), 'mn')
  await page.screenshot({path: path.join(OUT, 'home-mn.png')})

  // rules: the translation where there is one, else English with a note
  const index = await page.evaluate(() => fetch('/rules/index.json').then((r) => r.json()))
  for (const game of ['sgolte', 'skyjo']) {
    await page.goto(BASE + '/#/rules/' + game)
    await page.waitForSelector('[data-test=rules] h2')
    const translated = (index.mn || []).includes(game)
    assert.equal(await page.getAttribute('[data-test=rules]', 'lang'), translated ? 'mn' : 'en', game)
    assert.equal(await page.isVisible('text=Энэ дүрэм хараахан орчуулагдаагүй'), !translated, game)
  }
  await page.selectOption('[data-test=lang]', 'en')
  await page.waitForFunction(() => document.querySelector('[data-test=rules]')?.getAttribute('lang') === 'en')
  assert.match(await page.textContent('[data-test=rules] h1'), /Skyjo/)
  assertNoErrors(page)
  await page.context().close()
})

test('a game page in Korean', async () => {
  const page = await newPage(browser, {locale: 'ko'})
  await page.goto(BASE + '/')
  await page.selectOption('[data-test=bot-level]', 'random')
  await page.click('[data-test=play-bot-sploof]')
  await page.waitForSelector('.board-svg [data-hit]')
  await page.waitForFunction(() => /차례/.test(document.querySelector('[data-test=prompt]').textContent))
  assert.match(await page.textContent('.game-players h2'), /플레이어/)
  assertNoErrors(page)
  await page.context().close()
})

test('the lobby names every option and value in words, in every language, with its rule', async () => {
  const page = await newPage(browser, {locale: 'ko'})
  await page.goto(BASE + '/')
  // every option and value of the catalog has words in the three dictionaries
  const missing = await page.evaluate(async () => {
    const catalog = await fetch('/api/catalog').then((r) => r.json())
    const dicts = await Promise.all(['en', 'ko', 'mn'].map((l) => import(`/js/lang/${l}.js`).then((m) => [l, m.default])))
    const out = []
    for (const g of catalog.games) {
      for (const o of g.options) {
        const keys = [`opt.${g.name}.${o.name}`, `opt.${g.name}.${o.name}.name`, ...(o.values || []).map((v) => `opt.${g.name}.${o.name}.v.${v}`)]
        for (const [l, d] of dicts) for (const k of keys) if (!d[k]) out.push(l + ':' + k)
      }
    }
    return out
  })
  assert.deepEqual(missing, [])
  // and the form shows them: Sgolte's options in Korean, no raw ids
  await page.goto(BASE + '/#/lobby?game=sgolte')
  await page.waitForSelector('#opt-minflip')
  assert.equal(await page.textContent('label[for=opt-minflip]'), '최소 뒤집기')
  assert.deepEqual(await page.$$eval('#opt-minflip option', (els) => els.map((e) => e.textContent)), ['맞닿은 모든 그룹 기준', '고른 그룹 안에서'])
  assert.deepEqual(await page.$$eval('#opt-minflip option', (els) => els.map((e) => e.value)), ['global', 'group'])
  // the rule is the tooltip, and the ⓘ button shows it on a touch screen
  assert.match(await page.getAttribute('#opt-minflip', 'title'), /가르기/)
  assert.equal(await page.isVisible('[data-test=rule-minflip]'), false)
  await page.click('[data-test=info-minflip]')
  assert.match(await page.textContent('[data-test=rule-minflip]'), /가르기/)
  const labels = await page.$$eval('.create label', (els) => els.map((e) => e.textContent))
  for (const raw of ['minflip', 'continue', 'pie', 'size']) assert.ok(!labels.includes(raw), `${raw} is shown raw`)
  await page.screenshot({path: path.join(OUT, 'lobby-ko.png'), fullPage: true})
  assertNoErrors(page)
  await page.context().close()
})
