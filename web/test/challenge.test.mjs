// Challenges (issue 24 item 4): A challenges B from B's profile while B is
// on another page; B sees the toast and the badge, declines with a reason,
// and A's dialog says so; A challenges again, B accepts, and both land in
// the game. With CHALLENGE_SHOTS=DIR, screenshots of the dialog and the
// toast at 1280×800 and 390×844 go there.

import {test, before, after} from 'node:test'
import assert from 'node:assert/strict'
import path from 'node:path'
import {launch, newPage, assertNoErrors, BASE, registered, resize, settled} from './helpers.mjs'

let browser
before(async () => {
  browser = await launch()
})
after(async () => {
  await browser?.close()
})

const shots = process.env.CHALLENGE_SHOTS
async function shoot(page, name) {
  if (!shots) return
  for (const [w, h] of [[1280, 800], [390, 844]]) {
    await resize(page, {width: w, height: h})
    await settled(page)
    const sideways = await page.evaluate(() => document.documentElement.scrollWidth > innerWidth)
    assert.equal(sideways, false, `${name} scrolls sideways at ${w}px`)
    await page.screenshot({path: path.join(shots, `${name}-${w}x${h}.png`)})
  }
  await resize(page, {width: 1280, height: 800})
}

test('a challenge from a profile: seen on another page, declined with a reason, then accepted', async () => {
  const a = await newPage(browser, {viewport: {width: 1280, height: 800}})
  const b = await newPage(browser, {viewport: {width: 1280, height: 800}})
  await registered(a, 'ch')
  const bn = await registered(b, 'cd')
  await b.goto(BASE + '/#/leaderboard')

  const challenge = async () => {
    await a.goto(BASE + '/#/user/' + bn)
    await a.click('[data-test=challenge-user]')
    await a.waitForSelector('[data-test=challenge-dialog] [data-test=challenge-game]')
    await a.selectOption('[data-test=challenge-seat]', '0')
    await a.click('[data-test=challenge-send]')
    await a.waitForSelector('[data-test=challenge-waiting]')
    assert.match(await a.textContent('[data-test=challenge-expires]'), /Expires in 10 minutes/)
    await b.waitForSelector('[data-test=challenge-toast]')
    assert.equal(await b.textContent('[data-test=challenge-count]'), '1')
  }

  await challenge()
  await shoot(a, 'challenge-dialog-waiting')
  await shoot(b, 'challenge-toast')
  await b.selectOption('[data-test=challenge-reason]', 'too_fast')
  await b.click('[data-test=challenge-decline]')
  await a.waitForFunction(() => /declined: The clock is too fast/.test(document.querySelector('[data-test=challenge-status]')?.textContent))
  await b.waitForSelector('[data-test=challenge-toast]', {state: 'detached'})
  await a.keyboard.press('Escape')

  await challenge()
  await b.click('[data-test=challenge-accept]')
  await b.waitForURL(/#\/game\//)
  await a.waitForURL(/#\/game\//)
  assert.equal(new URL(a.url()).hash, new URL(b.url()).hash)
  await a.waitForSelector('.board-svg [data-hit]')
  await b.waitForSelector('.board-svg [data-hit]')
  assertNoErrors(a)
  assertNoErrors(b)
})

test('the dialog before sending, and a name nobody has', async () => {
  const a = await newPage(browser, {viewport: {width: 1280, height: 800}})
  const b = await newPage(browser)
  await registered(a, 'cx')
  const bn = await registered(b, 'cy')
  await a.goto(BASE + '/#/user/' + bn)
  await a.click('[data-test=challenge-user]')
  await a.waitForSelector('[data-test=challenge-dialog]')
  await a.selectOption('[data-test=challenge-game]', 'skyjo')
  await a.fill('[data-test=challenge-more]', 'nobody-such')
  await shoot(a, 'challenge-dialog')
  await a.click('[data-test=challenge-send]')
  await a.waitForFunction(() => document.querySelector('[data-test=challenge-error]')?.textContent === 'No player has that name.')
  a.errors = a.errors.filter((e) => !/status of 404/.test(e))
  assertNoErrors(a)
})
