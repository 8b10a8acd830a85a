// Two browser contexts (two guests) play each other live: one creates a
// game in the lobby, the other joins it from the lobby's list, both play
// by clicking, and both see the result.

import {test, before, after} from 'node:test'
import assert from 'node:assert/strict'
import {launch, newPage, assertNoErrors, playUntilOver, BASE} from './helpers.mjs'

let browser
before(async () => {
  browser = await launch()
})
after(async () => {
  await browser?.close()
})

test('two people play each other live', async () => {
  const alice = await newPage(browser)
  const bob = await newPage(browser)
  await alice.goto(BASE + '/#/lobby?game=sploof')
  await alice.waitForSelector('[data-test=create]')
  assert.equal(await alice.inputValue('[data-test=create-game]'), 'sploof')
  await alice.selectOption('#opt-first', 'white')
  await alice.click('[data-test=create]')
  await alice.waitForURL(/#\/game\//)
  const id = alice.url().split('/').pop()
  await alice.waitForSelector('[data-test=waiting]')

  await bob.goto(BASE + '/#/lobby')
  await bob.waitForSelector(`[data-test=join-${id}]`)
  await bob.click(`[data-test=join-${id}]`)
  await bob.waitForURL(new RegExp('#/game/' + id))
  await alice.waitForSelector('[data-test=waiting]', {state: 'detached'})

  // a third person watches from the lobby's list of live games
  const carol = await newPage(browser)
  await carol.goto(BASE + '/#/lobby')
  await carol.click(`[data-id="${id}"] >> text=Watch`)
  await carol.waitForSelector('.board-svg [data-hit]')
  assert.equal(await carol.isVisible('[data-test=resign]'), false)
  assert.equal(await carol.isVisible('[data-test=move-text]'), false)

  const [a, b] = await Promise.all([playUntilOver(alice), playUntilOver(bob)])
  const results = [a.result, b.result].join(' | ')
  assert.ok(/You won/.test(a.result) !== /You won/.test(b.result) || /Draw/.test(results), results)
  // both boards show the same moves
  const moves = (p) => p.$$eval('[data-test=moves] li code', (els) => els.map((e) => e.textContent))
  assert.deepEqual(await moves(alice), await moves(bob))
  await carol.waitForSelector('[data-test=result]:not([hidden])')
  assert.deepEqual(await moves(carol), await moves(alice))
  assert.match(await carol.textContent('[data-test=result]'), /Winner|Draw/)
  assertNoErrors(carol)
  await carol.context().close()
  assertNoErrors(alice)
  assertNoErrors(bob)
  await alice.context().close()
  await bob.context().close()
})

test('the lobby form follows the options: a three-player Skyjo with two bots', async () => {
  const page = await newPage(browser)
  await page.goto(BASE + '/#/lobby?game=skyjo')
  await page.waitForSelector('#opt-players')
  await page.fill('#opt-players', '3')
  await page.dispatchEvent('#opt-players', 'change')
  await page.waitForSelector('[data-test=seat-kind-2]')
  await page.selectOption('[data-test=seat-kind-1]', 'bot')
  await page.selectOption('[data-test=seat-level-1]', 'random')
  await page.selectOption('[data-test=seat-kind-2]', 'bot')
  await page.selectOption('[data-test=seat-level-2]', 'random')
  await page.click('[data-test=create]')
  await page.waitForURL(/#\/game\//)
  await page.waitForSelector('.board-svg [data-hit]')
  assert.equal(await page.locator('.skyjo-player').count(), 3)
  assert.match(await page.textContent('[data-test=seats]'), /Player 3/)
  assertNoErrors(page)
  await page.context().close()
})

test('a guest registers, keeps the games played, and has a profile', async () => {
  const page = await newPage(browser)
  await page.goto(BASE + '/')
  await page.selectOption('[data-test=bot-level]', 'random')
  await page.click('[data-test=play-bot-sgolte]')
  await page.waitForURL(/#\/game\//)
  const id = page.url().split('/').pop()
  await page.click('[data-test=nav-account]')
  const name = 'web' + Date.now().toString(36)
  await page.fill('#register-name', name)
  await page.fill('#register-pass', 'correct horse battery')
  await page.click('form:has(#register-name) button[type=submit]')
  await page.waitForSelector(`[data-test=nav-account] >> text=${name}`)
  await page.click('[data-test=nav-profile]')
  await page.waitForSelector('[data-test=ratings] >> text=No rated games yet.')
  await page.waitForSelector(`a[href="#/game/${id}"]`)
  assertNoErrors(page)
  await page.context().close()
})
