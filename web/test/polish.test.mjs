// Smaller things a player notices in the game pages (issue 27, item 7; the
// site's pages are in sitepolish.test.mjs): the tab's title tells of an
// offer or a takeback request; a typed move's error stands by its input;
// a board waiting on its player stops drawing;
// the analysis board does not name a side twice nor call it "your turn";
// counts take the language's plural forms.

import {test, before, after} from 'node:test'
import assert from 'node:assert/strict'
import {launch, newPage, assertNoErrors, twoPlayers, guest, openGame, api, BASE} from './helpers.mjs'

let browser
before(async () => {
  browser = await launch()
})
after(async () => {
  await browser?.close()
})

test("the tab's title tells of a draw offer and a takeback request", async () => {
  const {alice, bob, id} = await twoPlayers(browser, {game: 'sploof', options: {first: 'white'}})
  // two moves, so that there is one to take back
  for (let i = 0; i < 2; i++) {
    for (const p of [alice, bob]) {
      const g = (await api(p, 'GET', `/games/${id}`)).body
      if (g.legal && g.legal.length) assert.equal((await api(p, 'POST', `/games/${id}/moves`, {ply: g.moves.length, move: g.legal[0]})).status, 200)
    }
  }
  await bob.waitForSelector('[data-test=offer-draw]')
  await bob.click('[data-test=offer-draw]')
  await alice.waitForSelector('[data-test=offer-draw] >> text=offers a draw')
  await alice.waitForFunction(() => /^● Draw offered · Sploof/.test(document.title))
  await alice.click('[data-test=decline]')
  await alice.waitForFunction(() => !/Draw offered/.test(document.title))
  const mover = (await api(alice, 'GET', `/games/${id}`)).body.legal?.length ? bob : alice
  const other = mover === alice ? bob : alice
  await mover.waitForSelector('[data-test=takeback]')
  await mover.click('[data-test=takeback]')
  await other.waitForSelector('[data-test=offer-takeback]')
  await other.waitForFunction(() => /^● Takeback asked · Sploof/.test(document.title))
  for (const p of [alice, bob]) {
    assertNoErrors(p)
    await p.context().close()
  }
})

test("a typed move's error stands right under its input", async () => {
  const page = await newPage(browser, {viewport: {width: 1280, height: 800}})
  await guest(page)
  await openGame(page, {game: 'sploof', options: {first: 'white'}, seats: [{kind: 'me'}, {kind: 'bot', level: 'random'}]})
  await page.fill('[data-test=move-text]', 'zz9')
  await page.press('[data-test=move-text]', 'Enter')
  await page.waitForSelector('[data-test=typed-error]:visible')
  assert.match(await page.textContent('[data-test=typed-error]'), /zz9/)
  const gap = await page.evaluate(() => {
    const i = document.querySelector('[data-test=move-text]').getBoundingClientRect()
    const e = document.querySelector('[data-test=typed-error]').getBoundingClientRect()
    return e.top - i.bottom
  })
  assert.ok(gap >= 0 && gap < 60, 'the error is right under the input: ' + gap)
  assert.equal(await page.evaluate(() => document.querySelector('.game-main .error')?.textContent ?? ''), '', 'no copy of it under the board')
  await page.fill('[data-test=move-text]', 'z')
  assert.ok(await page.isHidden('[data-test=typed-error]'), 'typing again clears it')
  assertNoErrors(page)
  await page.context().close()
})

test('a board waiting on its player stops drawing: the removable balls beckon three times, then stand', async () => {
  const page = await newPage(browser, {viewport: {width: 1280, height: 800}})
  await guest(page)
  await openGame(page, {game: 'sploof', options: {first: 'white'}, seats: [{kind: 'me'}, {kind: 'bot', level: 'random'}]})
  await page.waitForSelector('svg.sploof .removable')
  const beckoning = await page.evaluate(() => document.getAnimations().filter((a) => a.animationName === 'beckon').length)
  assert.ok(beckoning > 0, 'the removable balls beckon at first')
  // An animation that never ends keeps the browser drawing the board sixty
  // times a second while the player thinks (an eighth of a core, measured).
  await page.waitForFunction(() => document.getAnimations().every((a) => a.playState !== 'running'), null, {timeout: 10000})
    .catch(async () => assert.fail('still running: ' + await page.evaluate(() =>
      document.getAnimations().filter((a) => a.playState === 'running').map((a) => a.animationName + ' ' + a.effect?.getComputedTiming().endTime).join(', '))))
  const marks = await page.$$eval('svg.sploof .removable', (ms) => ms.map((m) => getComputedStyle(m).opacity))
  assert.ok(marks.length > 0 && marks.every((o) => o === '1'), 'the marks stay, at full strength: ' + marks)
  assertNoErrors(page)
  await page.context().close()
})

test('the analysis board and its editor name each side once and never say "your turn"', async () => {
  const page = await newPage(browser, {viewport: {width: 1280, height: 800}})
  await guest(page)
  await page.goto(BASE + '/#/analysis/sploof')
  await page.waitForSelector('[data-test=stock-white]')
  await page.waitForFunction(() => /to move/.test(document.querySelector('[data-test=prompt]')?.textContent || ''))
  const prompt = await page.textContent('[data-test=prompt]')
  assert.doesNotMatch(prompt, /Your turn/, prompt)
  for (const c of ['white', 'black']) {
    const line = await page.textContent(`[data-test=stock-${c}]`)
    assert.doesNotMatch(line, /\((White|Black|Seat \d)\)/, line)
  }
  // the position editor's preview likewise
  await page.click('[data-test=editor-open]')
  await page.waitForSelector('.editor-board [data-test=stock-white]')
  for (const c of ['white', 'black']) {
    const line = await page.textContent(`.editor-board [data-test=stock-${c}]`)
    assert.doesNotMatch(line, /\((White|Black|Seat \d)\)/, 'the editor: ' + line)
  }
  await page.goto(BASE + '/#/analysis/skjuub')
  await page.waitForSelector('[data-test=pool-1]')
  await page.waitForFunction(() => /to move/.test(document.querySelector('[data-test=prompt]')?.textContent || ''))
  assert.doesNotMatch(await page.textContent('[data-test=prompt]'), /Your turn/)
  assert.doesNotMatch(await page.textContent('[data-test=pool-1]'), /\((Player|Seat) \d\)/)
  assertNoErrors(page)
  await page.context().close()
})

test('counts take the plural forms of the language', async () => {
  const page = await newPage(browser)
  await page.goto(BASE + '/')
  const got = await page.evaluate(async () => {
    const i18n = await import('/js/i18n.js')
    const out = {en: [i18n.t('chat.left', {n: 1}), i18n.t('chat.left', {n: 2}), i18n.t('puzzle.sgolte.hintFlips', {n: 1}), i18n.t('puzzle.sgolte.hintFlips', {n: 3}),
      i18n.t('analysis.wins', {side: 'White', plies: 1}), i18n.t('analysis.wins', {side: 'White', plies: 5})]}
    i18n.setLang('ko')
    out.ko = [i18n.t('chat.left', {n: 1}), i18n.t('chat.left', {n: 2})]
    i18n.setLang('en')
    const dicts = await Promise.all(['en', 'ko', 'mn'].map((l) => import(`/js/lang/${l}.js`).then((m) => Object.values(m.default))))
    out.byHand = dicts.flat().filter((s) => /\w\(s\)/.test(s))
    return out
  })
  assert.deepEqual(got.en, ['1 character left', '2 characters left', 'The winning move flips 1 stone.', 'The winning move flips 3 stones.',
    'White wins in 1 ply', 'White wins in 5 plies'])
  assert.deepEqual(got.ko, ['1자 남음', '2자 남음'])
  assert.deepEqual(got.byHand, [], 'plurals built by hand')
  assertNoErrors(page)
  await page.context().close()
})
