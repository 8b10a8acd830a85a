// Turns of several steps played through the board: a Sgolte placement
// whose flips are chosen stone by stone, the pie swap, a Skjuub slide that
// sacrifices and earns a bonus action; refused clicks are explained; a
// move can be made with the keyboard alone.

import {test, before, after} from 'node:test'
import assert from 'node:assert/strict'
import {launch, newPage, assertNoErrors, guest, api, clickHit, clickMoveButton, boardState, createGame, BASE} from './helpers.mjs'

let browser
before(async () => {
  browser = await launch()
})
after(async () => {
  await browser?.close()
})

async function openGame(page, req) {
  const res = await api(page, 'POST', '/games', req)
  assert.equal(res.status, 201, JSON.stringify(res.body))
  await page.goto(BASE + '/#/game/' + res.body.game.id)
  await page.waitForSelector('.board-svg [data-hit]')
  return res.body.game.id
}

const moveTexts = (page) => page.$$eval('[data-test=moves] li code', (els) => els.map((e) => e.textContent))

test('sgolte: the flips of a merging placement are chosen stone by stone', async () => {
  const page = await newPage(browser)
  await guest(page)
  // The spec's test vector 6: d4 joins d3 and d5; d4(e4), d4(e3,e4) and d4(e5) are legal.
  // White is a second guest who never moves: a bot's reply could split the group the test counts.
  const g = await createGame(page, {game: 'sgolte', seats: [{kind: 'me'}, {kind: 'open'}],
    position: {game: 'sgolte', size: 5, black: ['d3', 'd5'], white: ['e2', 'e3', 'e4', 'e5', 'e6', 'f3'], toMove: 'black', pie: 'done'}})
  const white = await newPage(browser)
  await guest(white)
  assert.equal((await api(white, 'POST', `/games/${g.id}/join`, {})).status, 200)
  await page.goto(BASE + '/#/game/' + g.id)
  await page.waitForSelector('.board-svg [data-hit].hit')

  await clickHit(page, 'e4') // an occupied cell: refused with a reason
  assert.match((await boardState(page)).prompt, /e4 is already taken/)

  await clickHit(page, 'd4')
  let st = await boardState(page)
  assert.match(st.prompt, /split an enemy group/)
  assert.deepEqual(st.hits.filter((h) => /^e/.test(h)).sort(), ['e3', 'e4', 'e5'])
  assert.deepEqual(st.buttons.sort(), ['d4(e3,e4)', 'd4(e4)', 'd4(e5)'])

  await clickHit(page, 'e4')
  st = await boardState(page)
  assert.match(st.prompt, /Stop here, or flip another stone/)
  assert.deepEqual(st.hits.filter((h) => /^e/.test(h)), ['e3'])

  await clickHit(page, 'e3') // the only way on: played at once
  await page.waitForFunction(() => [...document.querySelectorAll('[data-test=moves] li code')].length >= 1)
  assert.equal((await moveTexts(page))[0], 'd4(e3,e4)')
  // The move list and the group panel render separately: wait for the panel
  // rather than reading it the moment the move is listed.
  await page.waitForFunction(() => /groups: 5/.test(document.querySelector('[data-test=groups-black]')?.textContent ?? ''),
    null, {timeout: 5000}).catch(() => {})
  assert.match(await page.textContent('[data-test=groups-black]'), /groups: 5/)
  assertNoErrors(page)
  await page.context().close()
  await white.context().close()
})

test('sgolte: the second player may swap colours (pie rule), and Tab and Enter play a move', async () => {
  const page = await newPage(browser)
  await guest(page)
  await openGame(page, {game: 'sgolte', seats: [{kind: 'bot', level: 'random'}, {kind: 'me'}]})
  await page.waitForSelector('[data-test=actions] button[data-move=swap]')
  await clickMoveButton(page, 'swap')
  await page.waitForFunction(() => [...document.querySelectorAll('[data-test=moves] li code')].map((e) => e.textContent).includes('swap'))
  await page.waitForSelector('.note >> text=The players swapped colours.')

  // keyboard only: Tab to the first highlighted cell, Enter places a stone there
  await page.waitForSelector('.board-svg [data-hit].hit')
  const before = (await moveTexts(page)).length
  await page.focus('.board-svg [data-hit].hit')
  const key = await page.evaluate(() => document.activeElement.getAttribute('data-hit'))
  await page.keyboard.press('Enter')
  await page.waitForFunction((n) => document.querySelectorAll('[data-test=moves] li').length > n, before)
  assert.ok((await moveTexts(page)).includes(key), `the focused cell ${key} was played`)
  assertNoErrors(page)
  await page.context().close()
})

test('skjuub: a sacrificing slide earns a bonus action, played step by step', async () => {
  const page = await newPage(browser)
  await guest(page)
  // The spec's test fact 7: a3 (N) slides to d3 and connects to d4 (N): d4 captured, d3 sacrificed.
  await openGame(page, {game: 'skjuub', seats: [{kind: 'me'}, {kind: 'bot', level: 'random'}],
    position: {game: 'skjuub', board: {a3: '1N', d4: '2N'}, pool: [10, 10], toMove: 1, phase: 'main', lastAction: ['', ''], turn: [1, 1]}})

  await clickHit(page, 'd4')
  assert.match((await boardState(page)).prompt, /opponent's/)

  await clickHit(page, 'a3')
  let st = await boardState(page)
  assert.match(st.prompt, /dots mark slides/)
  for (const sq of ['d3', 'f3', 'a6', 'a4']) assert.ok(st.hits.includes(sq), `${sq} is a destination`)
  await clickHit(page, 'd3')

  await page.waitForFunction(() => /Bonus action/.test(document.querySelector('[data-test=prompt]').textContent))
  st = await boardState(page)
  assert.ok(st.buttons.includes('pass'))
  await clickHit(page, 'f1') // an empty square: now choose the direction
  st = await boardState(page)
  assert.match(st.prompt, /Choose the overhang direction/)
  const dir = st.buttons.find((b) => /^f1[NESW]$/.test(b))
  assert.ok(dir, 'a direction to place on f1')
  await clickHit(page, dir)
  await page.waitForFunction(() => document.querySelectorAll('[data-test=moves] li').length >= 2)
  const ms = await moveTexts(page)
  assert.deepEqual(ms.slice(0, 2), ['a3-d3', dir])
  assert.match(await page.textContent('[data-test=pool-2]'), /active 0/)
  assertNoErrors(page)
  await page.context().close()
})

test('skyjo: draw, then discard the drawn card and flip, guided step by step', async () => {
  const page = await newPage(browser)
  await guest(page)
  await openGame(page, {game: 'skyjo', options: {players: '2'}, seats: [{kind: 'me'}, {kind: 'bot', level: 'random'}]})
  // two initial flips
  for (let i = 0; i < 2; i++) {
    await page.waitForFunction(() => /Turn two of your cards/.test(document.querySelector('[data-test=prompt]').textContent) &&
      document.querySelectorAll('.board-svg [data-hit].hit').length > 0)
    const st = await boardState(page)
    await clickHit(page, st.hits.find((h) => h.startsWith('p0:')))
    await page.waitForFunction((n) => document.querySelectorAll('[data-test=moves] li').length > n, i)
  }
  // wait until it is our turn to choose
  await page.waitForFunction(() => /draw from the deck/.test(document.querySelector('[data-test=prompt]').textContent), null, {timeout: 20000})
  await clickHit(page, 'p0:a1')
  assert.match((await boardState(page)).prompt, /First draw/)
  await clickHit(page, 'deck')
  await page.waitForFunction(() => /swap it with the drawn card/.test(document.querySelector('[data-test=prompt]').textContent))
  await page.click('[data-test=actions] button >> text=Discard it and flip a card')
  const st = await boardState(page)
  assert.match(st.prompt, /click a face-down card/)
  const down = st.hits.filter((h) => h.startsWith('p0:'))
  assert.ok(down.length > 0)
  await clickHit(page, down[0])
  const pos = down[0].slice(3)
  await page.waitForFunction((p) => [...document.querySelectorAll('[data-test=moves] li code')].some((e) => e.textContent === 'flip ' + p), pos)
  assertNoErrors(page)
  await page.context().close()
})
