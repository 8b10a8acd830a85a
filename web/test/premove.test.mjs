// Premoves (issue 27, point 9): while the opponent is to move, a player
// enters one move; it is marked on the board and played the moment their
// turn comes if it is legal then, dropped with a notice if not, and
// cancelled by Escape or a right click.

import {test, before, after} from 'node:test'
import assert from 'node:assert/strict'
import path from 'node:path'
import {launch, assertNoErrors, api, clickHit, hitPoint, twoPlayers, resize, settled, OUT} from './helpers.mjs'

let browser
before(async () => {
  browser = await launch()
})
after(async () => {
  await browser?.close()
})

const moveTexts = (page) => page.$$eval('[data-test=moves] li code', (els) => els.map((e) => e.textContent))
const waitMoves = (page, n) => page.waitForFunction((n) => document.querySelectorAll('[data-test=moves] li code').length >= n, n)

test('sgolte: a premove is played at once on its turn, an illegal one is dropped, Escape and a right click cancel', async () => {
  // Black (alice) to move; bob plays White and premoves during her turns.
  const {alice, bob, id} = await twoPlayers(browser, {game: 'sgolte',
    position: {game: 'sgolte', size: 5, black: ['d3', 'd5'], white: ['e2', 'e3', 'e4', 'e5', 'e6', 'f3'], toMove: 'black', pie: 'done'}})
  const move = (page, ply, mv) => api(page, 'POST', `/games/${id}/moves`, {ply, move: mv})

  // Bob waits: the board offers premoves and says so.
  await bob.waitForFunction(() => /premove/i.test(document.querySelector('[data-test=prompt]')?.textContent || ''))
  assert.equal(await bob.$$eval('.board-svg [data-hit].hit', (els) => els.length), 0, 'candidates are not the moves legal now')
  assert.ok(await bob.$('.board-svg [data-hit="a1"].pre-hit'))
  await clickHit(bob, 'a1')
  await bob.waitForSelector('[data-test=premove-mark]')
  assert.match(await bob.textContent('[data-test=premove]'), /a1/)
  assert.deepEqual(await moveTexts(bob), [], 'a premove is not sent before its turn')

  // Alice moves: bob's premove follows at once, without a click of his.
  assert.equal((await move(alice, 0, 'b1')).status, 200)
  await waitMoves(bob, 2)
  assert.deepEqual(await moveTexts(bob), ['b1', 'a1'])
  await waitMoves(alice, 2)

  // A premove that her move makes illegal (she takes the cell) is dropped with a notice; it is then his turn.
  await bob.waitForFunction(() => /premove/i.test(document.querySelector('[data-test=prompt]')?.textContent || ''))
  await clickHit(bob, 'a3')
  await bob.waitForSelector('[data-test=premove-mark]')
  await bob.emulateMedia({colorScheme: 'dark'})
  await settled(bob)
  await bob.screenshot({path: path.join(OUT, 'premove-sgolte-dark-1280.png')})
  assert.equal((await move(alice, 2, 'a3')).status, 200)
  await bob.waitForSelector('[data-test=premove-dropped]')
  assert.match(await bob.textContent('[data-test=premove-dropped]'), /a3/)
  await waitMoves(bob, 3)
  assert.deepEqual(await moveTexts(bob), ['b1', 'a1', 'a3'])
  await bob.waitForSelector('.board-svg [data-hit="i1"].hit') // his own turn now: the legal cells
  await bob.waitForFunction(() => !document.querySelector('[data-test=premove-mark]'))

  // Escape and a right click cancel a premove: nothing is played when the turn comes.
  assert.equal((await move(bob, 3, 'i1')).status, 200)
  await waitMoves(bob, 4)
  await bob.waitForFunction(() => /premove/i.test(document.querySelector('[data-test=prompt]')?.textContent || ''))
  await clickHit(bob, 'i3')
  await bob.waitForSelector('[data-test=premove-mark]')
  await bob.keyboard.press('Escape')
  await bob.waitForFunction(() => !document.querySelector('[data-test=premove-mark]'))
  await clickHit(bob, 'i4')
  await bob.waitForSelector('[data-test=premove-mark]')
  await bob.click('.board-svg', {button: 'right'})
  await bob.waitForFunction(() => !document.querySelector('[data-test=premove-mark]'))
  assert.equal((await move(alice, 4, 'i5')).status, 200)
  await waitMoves(bob, 5)
  await bob.waitForSelector('.board-svg [data-hit="i3"].hit')
  assert.deepEqual(await moveTexts(bob), ['b1', 'a1', 'a3', 'i1', 'i5'], 'a cancelled premove is not played')
  assertNoErrors(alice)
  assertNoErrors(bob)
})

test('skjuub and sploof: a premove of two clicks (a square, then a direction) and a placement are played on their turn', async () => {
  const sk = await twoPlayers(browser, {game: 'skjuub'})
  await sk.bob.waitForFunction(() => /premove/i.test(document.querySelector('[data-test=prompt]')?.textContent || ''))
  await clickHit(sk.bob, 'c3')
  await sk.bob.click('[data-test=actions] button[data-move="c3E"]')
  await sk.bob.waitForSelector('[data-test=premove-mark]')
  assert.equal((await api(sk.alice, 'POST', `/games/${sk.id}/moves`, {ply: 0, move: 'a1N'})).status, 200)
  await waitMoves(sk.bob, 2)
  assert.deepEqual(await moveTexts(sk.bob), ['a1N', 'c3E'])

  // Sploof draws who is first: the one not to move premoves.
  const sp = await twoPlayers(browser, {game: 'sploof'})
  const first = (await api(sp.alice, 'GET', `/games/${sp.id}`)).body.game.toMove
  const [mover, waiter] = first === 0 ? [sp.alice, sp.bob] : [sp.bob, sp.alice]
  await waiter.waitForFunction(() => /premove/i.test(document.querySelector('[data-test=prompt]')?.textContent || ''))
  await clickHit(waiter, '1e3')
  await waiter.waitForSelector('[data-test=premove-mark]')
  // how a premove looks: its mark on the pyramid and the line under the board
  for (const size of [{width: 1280, height: 800}, {width: 390, height: 844}]) {
    await resize(waiter, size)
    await waiter.waitForSelector('[data-test=premove-mark]')
    await settled(waiter)
    await waiter.screenshot({path: path.join(OUT, `premove-sploof-${size.width}.png`)})
  }
  assert.equal((await api(mover, 'POST', `/games/${sp.id}/moves`, {ply: 0, move: '1c3'})).status, 200)
  await waitMoves(waiter, 2)
  assert.deepEqual(await moveTexts(waiter), ['1c3', '1e3'])
  for (const p of [sk.alice, sk.bob, sp.alice, sp.bob]) assertNoErrors(p)
})

test('sgolte: a click pressed as the opponent\'s move arrives is not lost', async () => {
  // The board is drawn anew when a move arrives, so the cell bob pressed
  // is another element when he lets go: the browser sends no click for a
  // press and a release on two elements. The board plays it all the same.
  const {alice, bob, id} = await twoPlayers(browser, {game: 'sgolte',
    position: {game: 'sgolte', size: 5, black: ['d3', 'd5'], white: ['e2', 'e3', 'e4', 'e5', 'e6', 'f3'], toMove: 'black', pie: 'done'}})
  await bob.waitForFunction(() => /premove/i.test(document.querySelector('[data-test=prompt]')?.textContent || ''))
  const pt = await hitPoint(bob, 'a1')
  const pressed = await bob.$('.board-svg [data-hit="a1"]')
  await bob.mouse.move(pt.x, pt.y)
  await bob.mouse.down()
  assert.equal((await api(alice, 'POST', `/games/${id}/moves`, {ply: 0, move: 'b1'})).status, 200)
  await waitMoves(bob, 1)
  await bob.waitForFunction((el) => !el.isConnected, pressed) // the board was drawn again under the press
  await bob.mouse.up()
  await waitMoves(bob, 2)
  assert.deepEqual(await moveTexts(bob), ['b1', 'a1'])
  assert.equal(await bob.$('[data-test=prompt].warn'), null, 'played once: no second click refused')

  // A press on one cell and a release on another plays neither.
  await bob.waitForFunction(() => /premove/i.test(document.querySelector('[data-test=prompt]')?.textContent || ''))
  const from = await hitPoint(bob, 'a3'), to = await hitPoint(bob, 'i3')
  await bob.mouse.move(from.x, from.y)
  await bob.mouse.down()
  assert.equal((await api(alice, 'POST', `/games/${id}/moves`, {ply: 2, move: 'i5'})).status, 200)
  await waitMoves(bob, 3)
  await bob.mouse.move(to.x, to.y)
  await bob.mouse.up()
  await bob.waitForSelector('.board-svg [data-hit="a3"].hit') // his turn, nothing played for him
  assert.deepEqual(await moveTexts(bob), ['b1', 'a1', 'i5'])
  assert.equal(await bob.$('[data-test=premove-mark]'), null)
  assertNoErrors(alice)
  assertNoErrors(bob)
})

test('no premove in a correspondence game: the waiting board offers nothing', async () => {
  const c = await twoPlayers(browser, {game: 'sgolte', clock: {kind: 'correspondence', days: 3},
    position: {game: 'sgolte', size: 5, black: ['d3'], white: ['e4'], toMove: 'black', pie: 'done'}})
  await c.bob.waitForFunction(() => /to move/.test(document.querySelector('[data-test=prompt]')?.textContent || ''))
  assert.doesNotMatch(await c.bob.textContent('[data-test=prompt]'), /premove/i)
  assert.equal(await c.bob.$$eval('.board-svg .pre-hit, .board-svg .hit', (els) => els.length), 0)
  await clickHit(c.bob, 'a1')
  assert.match(await c.bob.textContent('[data-test=prompt]'), /Wait for your turn/)
  assert.equal(await c.bob.$('[data-test=premove-mark]'), null)
  assertNoErrors(c.alice)
  assertNoErrors(c.bob)
})

test('sgolte: a premove whose flips must be chosen on its turn is explained, not guessed', async () => {
  // The spec's test vector 6 with the colours swapped: White's d4 joins d3 and d5, and may flip e4, e3+e4 or e5.
  const {alice, bob, id} = await twoPlayers(browser, {game: 'sgolte',
    position: {game: 'sgolte', size: 5, white: ['d3', 'd5'], black: ['e2', 'e3', 'e4', 'e5', 'e6', 'f3'], toMove: 'black', pie: 'done'}})
  await bob.waitForFunction(() => /premove/i.test(document.querySelector('[data-test=prompt]')?.textContent || ''))
  await clickHit(bob, 'd4')
  await bob.waitForSelector('[data-test=premove-mark]')
  assert.equal((await api(alice, 'POST', `/games/${id}/moves`, {ply: 0, move: 'a1'})).status, 200)
  await bob.waitForSelector('[data-test=premove-dropped]')
  assert.match(await bob.textContent('[data-test=premove-dropped]'), /d4.*needs a choice/)
  await bob.waitForSelector('.board-svg [data-hit="d4"].hit') // his turn: he chooses the flips himself
  assert.deepEqual(await moveTexts(bob), ['a1'])
  assertNoErrors(alice)
  assertNoErrors(bob)
})
