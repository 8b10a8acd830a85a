// Challenges (issue 24 item 4): A challenges B from B's profile while B is
// on another page; B sees the toast and the badge, declines with a reason,
// and A's dialog says so; A challenges again, B accepts, both land in the
// game and each plays a move on their own page. A challenge from the
// players page (the search and the online list) opens the same dialog.
// With CHALLENGE_SHOTS=DIR, screenshots of the dialog and the toast at
// 1280×800 and 390×844 go there.

import {test, before, after} from 'node:test'
import assert from 'node:assert/strict'
import path from 'node:path'
import {launch, newPage, assertNoErrors, BASE, api, apiPaced, registered, resize, settled, boardState, clickHit, clickMoveButton, waitUntil} from './helpers.mjs'

let browser
before(async () => {
  browser = await launch()
})
after(async () => {
  await browser?.close()
})

/**
 * myMove waits until it is this page's player's turn and makes one move by
 * clicking (a board target, else a move button) until the move list grows.
 */
async function myMove(page) {
  const ready = '.board-svg [data-hit].hit, [data-test=actions] button[data-move]'
  await page.waitForSelector(ready, {timeout: 20000})
  const before = (await boardState(page)).moves
  for (let i = 0; i < 10; i++) {
    const st = await boardState(page)
    if (st.moves > before) return
    if (st.hits.length) await clickHit(page, st.hits[Math.floor(st.hits.length / 2)])
    else await clickMoveButton(page, st.buttons[0])
    await page.waitForFunction(([n, ready]) => document.querySelectorAll('[data-test=moves] li').length > n || document.querySelector(ready), [before, ready])
  }
  assert.ok((await boardState(page)).moves > before, 'no move made')
}

/** turnOrder is [whoever moves first, the other]: the page that has something to click. */
async function turnOrder(a, b) {
  const ready = '.board-svg [data-hit].hit, [data-test=actions] button[data-move]'
  return Promise.race([a.waitForSelector(ready, {timeout: 20000}).then(() => [a, b]), b.waitForSelector(ready, {timeout: 20000}).then(() => [b, a])])
}

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
    await a.selectOption('[data-test=challenge-game]', 'sgolte')
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
  // The accepted challenge is played: a move each, each on their own page.
  const [first, second] = await turnOrder(a, b)
  await myMove(first)
  await second.waitForFunction(() => document.querySelectorAll('[data-test=moves] li').length === 1)
  await myMove(second)
  await first.waitForFunction(() => document.querySelectorAll('[data-test=moves] li').length === 2)
  await myMove(first)
  assert.equal((await boardState(second)).over, false)
  assertNoErrors(a)
  assertNoErrors(b)
})

test('a challenge from the players page: the search and the online list, not oneself', async () => {
  const a = await newPage(browser, {viewport: {width: 1280, height: 800}})
  const b = await newPage(browser, {viewport: {width: 1280, height: 800}})
  const an = await registered(a, 'cp')
  const bn = await registered(b, 'cq')
  await b.goto(BASE + '/#/leaderboard')
  // B online first: the page reads the list every 15 s only.
  await waitUntil(async () => (await api(a, 'GET', '/online/players')).body?.players.some((p) => p.name === bn), {what: bn + ' online'})
  await a.goto(BASE + '/#/players')
  // The online list: B (idle) has a Challenge button; A's own row has none.
  await a.waitForSelector(`[data-test=players-online] li[data-user="${bn}"] [data-test=players-challenge]`)
  assert.equal(await a.locator(`[data-test=players-online] li[data-user="${an}"] [data-test=players-challenge]`).count(), 0)
  // The search's result opens the same dialog, for B.
  await a.fill('[data-test=players-search]', bn)
  await a.waitForSelector(`[data-test=players-results] li[data-user="${bn}"] [data-test=players-challenge]`)
  await shoot(a, 'players-challenge')
  await a.click(`[data-test=players-results] li[data-user="${bn}"] [data-test=players-challenge]`)
  await a.waitForSelector('[data-test=challenge-dialog]')
  assert.equal(await a.textContent('#challenge-title'), 'Challenge ' + bn)
  // The challenge and its decline each go with a key of their own
  // (docs/api.md, Idempotency-Key).
  const keyOf = (page, path) => page.waitForRequest((r) => r.method() === 'POST' && new URL(r.url()).pathname.match(path))
    .then((r) => r.headers()['idempotency-key'])
  const sent = keyOf(a, /^\/api\/challenges$/)
  await a.click('[data-test=challenge-send]')
  await a.waitForSelector('[data-test=challenge-waiting]')
  await b.waitForSelector('[data-test=challenge-toast]')
  await b.selectOption('[data-test=challenge-reason]', 'later')
  const declined = keyOf(b, /^\/api\/challenges\/[^/]+\/decline$/)
  await b.click('[data-test=challenge-decline]')
  const keys = [await sent, await declined]
  assert.ok(keys.every((k) => /^[0-9a-f]{24}$/.test(k || '')) && keys[0] !== keys[1], `keys ${keys}`)
  await a.waitForFunction(() => /declined: Not now, maybe later/.test(document.querySelector('[data-test=challenge-status]')?.textContent))
  await a.keyboard.press('Escape')
  // A guest (challenging needs an account): the list offers no challenge.
  const g = await newPage(browser)
  await g.goto(BASE + '/#/players')
  await g.waitForSelector(`[data-test=players-online] li[data-user="${bn}"]`)
  assert.equal(await g.locator('[data-test=players-challenge]').count(), 0)
  assertNoErrors(a)
  assertNoErrors(b)
  assertNoErrors(g)
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

test('a Skyjo challenge with bots in the seats left: one friend, two bots, started on the accept', async () => {
  const a = await newPage(browser, {viewport: {width: 1280, height: 800}})
  const b = await newPage(browser, {viewport: {width: 1280, height: 800}})
  await registered(a, 'cs')
  const bn = await registered(b, 'ct')
  await a.goto(BASE + '/#/user/' + bn)
  await a.click('[data-test=challenge-user]')
  await a.waitForSelector('[data-test=challenge-dialog]')
  // A two-seat game offers no bots; Skyjo does, as many as the seats left.
  assert.equal(await a.isVisible('[data-test=challenge-bots]'), false)
  await a.selectOption('[data-test=challenge-game]', 'skyjo')
  assert.equal(await a.locator('[data-test=challenge-bots] option').count(), 7) // 0…6 beside the two of us
  await a.selectOption('[data-test=challenge-bots]', '2')
  await a.selectOption('[data-test=challenge-bot-level]', 'easy')
  assert.equal(await a.locator('[data-test=challenge-seat] option').count(), 5) // random, seats 1–4
  assert.equal(await a.isDisabled('[data-test=challenge-rated]'), true) // a game with bots is never rated
  await a.selectOption('[data-test=challenge-seat]', '0')
  await shoot(a, 'challenge-dialog-bots')
  await a.click('[data-test=challenge-send]')
  await a.waitForSelector('[data-test=challenge-waiting]')
  await b.waitForSelector('[data-test=challenge-toast]')
  await b.click('[data-test=challenge-accept]')
  await b.waitForURL(/#\/game\//)
  await a.waitForURL(/#\/game\//)
  const id = new URL(a.url()).hash.split('/')[2]
  const g = await api(a, 'GET', '/games/' + id)
  assert.deepEqual(g.body.game.seats.map((se) => se.kind), ['human', 'human', 'bot', 'bot'])
  assert.equal(g.body.game.status, 'live')
  assertNoErrors(a)
  assertNoErrors(b)
})

test('a fourth challenge waiting is refused with the reason, in the dialog', async () => {
  const a = await newPage(browser, {viewport: {width: 1280, height: 800}})
  await registered(a, 'cf')
  const others = []
  for (let i = 0; i < 4; i++) {
    const p = await newPage(browser)
    others.push(await registered(p, 'cg'))
    await p.close()
  }
  for (const n of others.slice(0, 3)) {
    assert.equal((await api(a, 'POST', '/challenges', {game: 'sgolte', players: [n]})).status, 201)
  }
  await a.goto(BASE + '/#/user/' + others[3])
  await a.click('[data-test=challenge-user]')
  await a.waitForSelector('[data-test=challenge-dialog]')
  await a.click('[data-test=challenge-send]')
  await a.waitForFunction(() => /challenges waiting for an answer as allowed/.test(document.querySelector('[data-test=challenge-error]')?.textContent))
  a.errors = a.errors.filter((e) => !/status of 429/.test(e))
  assertNoErrors(a)
})

test("news of one challenge leaves another's toast alone: the same Accept, the reason chosen", async () => {
  const b = await newPage(browser, {viewport: {width: 1280, height: 800}})
  const bn = await registered(b, 'cr')
  const a = await newPage(browser)
  await registered(a, 'cs')
  const c = await newPage(browser)
  await registered(c, 'ct')
  await b.goto(BASE + '/#/leaderboard')
  const first = (await apiPaced(a, 'POST', '/challenges', {game: 'sgolte', players: [bn]})).body
  const toast = `[data-test=challenge-toast][data-id="${first.id}"]`
  await b.waitForSelector(toast)
  await b.selectOption(`${toast} [data-test=challenge-reason]`, 'later')
  const accept = await b.$(`${toast} [data-test=challenge-accept]`)
  // A second challenge arrives, then is cancelled: the dock changes twice.
  const second = (await apiPaced(c, 'POST', '/challenges', {game: 'sploof', players: [bn]})).body
  await b.waitForFunction(() => document.querySelector('[data-test=challenge-count]')?.textContent === '2')
  assert.equal((await apiPaced(c, 'POST', `/challenges/${second.id}/cancel`, {})).status, 204)
  await b.waitForFunction(() => document.querySelector('[data-test=challenge-count]')?.textContent === '1')
  assert.ok(await accept.evaluate((el) => el.isConnected), 'the first toast\'s Accept is the same button')
  assert.equal(await b.$eval(`${toast} [data-test=challenge-reason]`, (el) => el.value), 'later', 'the reason chosen stays chosen')
  await accept.click()
  await b.waitForURL(new RegExp('#/game/' + first.id))
  assertNoErrors(a)
  assertNoErrors(b)
  assertNoErrors(c)
})
