// Following a live game (issue 17): the move list can be stepped through
// while the game goes on, and a move that arrives meanwhile is announced
// without moving the board; clocks warn when time runs low; sounds (off
// until turned on, made with WebAudio) for moves and the end; "your turn"
// in the tab's title; opt-in browser notifications for invitations and
// for turns in correspondence games.

import {test, before, after} from 'node:test'
import assert from 'node:assert/strict'
import {launch, newPage, assertNoErrors, guest, api, createGame, openGame, clickHit, settled, BASE, userName} from './helpers.mjs'

let browser
before(async () => {
  browser = await launch()
})
after(async () => {
  await browser?.close()
})

// the position the board shows, as text
const shown = (page) => page.$eval('.board-text-body', (e) => e.textContent)

// Every WebAudio tone the page starts, by frequency.
function listenToTones(page) {
  return page.addInitScript(() => {
    window.__tones = []
    const AC = window.AudioContext
    const orig = AC.prototype.createOscillator
    AC.prototype.createOscillator = function () {
      const osc = orig.call(this)
      const start = osc.start.bind(osc)
      osc.start = (...a) => {
        window.__tones.push(osc.frequency.value)
        return start(...a)
      }
      return osc
    }
  })
}

test('reviewing earlier moves while two people play, then back to the live position', async () => {
  const alice = await newPage(browser)
  const bob = await newPage(browser)
  await guest(alice)
  await guest(bob)
  const g = await createGame(alice, {game: 'sploof', options: {first: 'white'}, seats: [{kind: 'me'}, {kind: 'open'}]})
  assert.equal((await api(bob, 'POST', `/games/${g.id}/join`, {})).status, 200)
  await alice.goto(BASE + '/#/game/' + g.id)
  // four moves through the API, alternately
  for (let ply = 0; ply < 4; ply++) {
    const p = ply % 2 ? bob : alice
    const legal = (await api(p, 'GET', '/games/' + g.id)).body.legal
    assert.equal((await api(p, 'POST', `/games/${g.id}/moves`, {ply, move: legal.find((m) => !m.startsWith('*')) || legal[0]})).status, 200)
  }
  await alice.waitForFunction(() => document.querySelectorAll('[data-test=moves] li').length === 4)
  const live = await shown(alice)

  // click the first move: the board shows the position after it
  await alice.click('[data-test=moves] li:nth-child(1) button')
  await alice.waitForSelector('[data-test=review]:not([hidden])')
  assert.doesNotMatch(await alice.textContent('[data-test=review]'), /null|undefined/)
  await alice.waitForFunction((l) => document.querySelector('.board-text-body').textContent !== l, live)
  const after1 = await shown(alice)
  assert.match(await alice.textContent('[data-test=ply]'), /move 1 of 4/)
  // the arrow keys step: right to move 2, left back to move 1
  await alice.keyboard.press('ArrowRight')
  await alice.waitForFunction(() => /move 2 of 4/.test(document.querySelector('[data-test=ply]').textContent))
  await alice.waitForFunction((a) => document.querySelector('.board-text-body').textContent !== a, after1)
  await alice.keyboard.press('ArrowLeft')
  await alice.waitForFunction((a) => document.querySelector('.board-text-body').textContent === a, after1)
  // it is alice's turn, but while she looks back the board takes no move
  assert.equal(await alice.$$eval('.board-svg [data-hit].hit', (els) => els.length), 0)

  // two moves arrive meanwhile (alice's own from another device, through the
  // API, and bob's): the board stays where alice is looking, the bar says so
  // — and its "Back to live" stays the very button she may be pressing
  const liveButton = await alice.$('[data-test=live]')
  const legal = (await api(alice, 'GET', '/games/' + g.id)).body.legal
  assert.equal((await api(alice, 'POST', `/games/${g.id}/moves`, {ply: 4, move: legal[0]})).status, 200)
  const legalB = (await api(bob, 'GET', '/games/' + g.id)).body.legal
  assert.equal((await api(bob, 'POST', `/games/${g.id}/moves`, {ply: 5, move: legalB[0]})).status, 200)
  await alice.waitForFunction(() => document.querySelectorAll('[data-test=moves] li').length === 6)
  await alice.waitForSelector('[data-test=new-moves]')
  assert.match(await alice.textContent('[data-test=new-moves]'), /2/)
  assert.equal(await shown(alice), after1, 'the reviewed position stays on the board')
  assert.match(await alice.textContent('[data-test=ply]'), /move 1 of 6/)
  assert.ok(await liveButton.evaluate((el) => el.isConnected), '"Back to live" is the same button after two moves arrived')

  // back to the live position: the board is playable again
  await liveButton.click()
  await alice.waitForSelector('[data-test=review]', {state: 'hidden'})
  await alice.waitForSelector('.board-svg [data-hit].hit')
  assert.match(await alice.textContent('[data-test=ply]'), /move 6 of 6/)
  assert.match(await alice.textContent('[data-test=prompt]'), /Your turn/)
  assertNoErrors(alice)
  assertNoErrors(bob)
  await alice.context().close()
  await bob.context().close()
})

test('sounds are off until turned on; then a move, a capture and the end are heard; the tab title says whose turn', async () => {
  const page = await newPage(browser)
  await listenToTones(page)
  await guest(page)
  await openGame(page, {game: 'sploof', options: {first: 'white'}, seats: [{kind: 'me'}, {kind: 'bot', level: 'random'}]})
  await page.waitForFunction(() => document.title.includes('Your turn'))
  const place = await page.$eval('.board-svg .target[data-hit].hit', (e) => e.getAttribute('data-hit'))
  await clickHit(page, place)
  await page.waitForFunction(() => document.querySelectorAll('[data-test=moves] li').length >= 2)
  await settled(page) // the bot's move drawn and glided in: its sound, if any, has played
  assert.deepEqual(await page.evaluate(() => window.__tones), [], 'silent by default')
  assert.equal(await page.getAttribute('[data-test=sound]', 'aria-pressed'), 'false')

  await page.click('[data-test=sound]')
  assert.equal(await page.getAttribute('[data-test=sound]', 'aria-pressed'), 'true')
  await page.waitForFunction(() => document.title.includes('Your turn'))
  // taking out a red is a capture: two falling notes
  const red = await page.$eval('.board-svg .ball.red[data-hit].hit', (e) => e.getAttribute('data-hit'))
  await clickHit(page, red)
  await page.waitForFunction(() => window.__tones.length >= 2)
  assert.deepEqual((await page.evaluate(() => window.__tones)).slice(0, 2), [520, 350])
  // the bot's reply: a move or a capture
  await page.waitForFunction(() => window.__tones.length >= 3 && document.title.includes('Your turn'))
  // remembered: a new page of the same visitor starts with sound on
  await page.reload()
  await page.waitForSelector('[data-test=sound][aria-pressed=true]')
  // the end: resigning plays the end's chord (three rising notes)
  await page.evaluate(() => { window.__tones = [] })
  page.once('dialog', (d) => d.accept())
  await page.click('[data-test=resign]')
  await page.waitForSelector('[data-test=result]:not([hidden])')
  await page.waitForFunction(() => window.__tones.length >= 3)
  assert.deepEqual((await page.evaluate(() => window.__tones)).slice(-3), [523, 659, 784])
  assert.doesNotMatch(await page.title(), /Your turn/)
  assertNoErrors(page)
  await page.context().close()
})

test('a clock low on time turns red and sounds once', async () => {
  const page = await newPage(browser)
  await listenToTones(page)
  // Every look of my clock, as the page shows it: opening the game can take
  // seconds on a loaded machine, so what is asserted is what was shown,
  // however late the first look came.
  await page.addInitScript(() => {
    window.__myClock = []
    const seen = () => {
      const el = document.querySelector('[data-test=clock-0]')
      if (!el || !el.classList.contains('running')) return
      const look = {text: el.textContent, low: el.classList.contains('low')}
      const last = window.__myClock[window.__myClock.length - 1]
      if (!last || last.text !== look.text || last.low !== look.low) window.__myClock.push(look)
    }
    new MutationObserver(seen).observe(document, {subtree: true, childList: true, attributes: true, characterData: true})
  })
  await guest(page)
  await page.goto(BASE + '/')
  await page.evaluate(() => localStorage.setItem('tabula.sound', 'on'))
  await openGame(page, {game: 'sploof', options: {first: 'white'}, seats: [{kind: 'me'}, {kind: 'bot', level: 'random'}],
    clock: {kind: 'realtime', initialMs: 12000, incrementMs: 0}})
  await page.mouse.click(5, 5) // a gesture: the browser lets the page play sound
  // below a fifth of twelve seconds (2.4 s)
  await page.waitForSelector('[data-test=clock-0].low', {timeout: 16000})
  const looks = await page.evaluate(() => window.__myClock)
  const secs = (text) => text.split(':').reduce((a, b) => a * 60 + Number(b), 0)
  assert.ok(looks.some((l) => !l.low), 'my clock was shown not low first: ' + JSON.stringify(looks))
  for (const l of looks) {
    if (secs(l.text) >= 3) assert.equal(l.low, false, `${l.text} shown low`)
    if (secs(l.text) <= 1) assert.equal(l.low, true, `${l.text} not shown low`)
  }
  assert.ok(looks.findIndex((l) => l.low) > looks.findIndex((l) => !l.low), 'it turned low after it was not')
  await page.waitForFunction(() => window.__tones.filter((f) => f === 880).length >= 3, null, {timeout: 3000})
  assert.equal(await page.$eval('[data-test=clock-1]', (e) => e.classList.contains('low')), false, 'the waiting clock is not low')
  await page.waitForSelector('[data-test=result]:not([hidden])', {timeout: 10000})
  assert.match(await page.textContent('[data-test=result]'), /on time/)
  assert.equal((await page.evaluate(() => window.__tones)).filter((f) => f === 880).length, 3, 'the low-time sound plays once')
  // A low clock pulses, but not for a visitor who asked for less motion (the
  // game is over and its clocks stopped: a low clock of the seats' list is
  // made to ask the page's style sheet).
  await page.evaluate(() => {
    const c = document.createElement('span')
    c.className = 'clock low'
    c.id = 'lowclock'
    c.textContent = '0:01'
    document.querySelector('.seat-list').append(c)
  })
  const pulses = () => page.$eval('#lowclock', (e) => e.getAnimations().length)
  assert.equal(await pulses(), 1)
  await page.emulateMedia({reducedMotion: 'reduce'})
  assert.equal(await pulses(), 0, 'the low clock pulses under prefers-reduced-motion')
  assertNoErrors(page)
  await page.context().close()
})

test('notifications, once allowed: an invitation, and my turn in a correspondence game', async () => {
  const alice = await newPage(browser)
  await alice.context().grantPermissions(['notifications'])
  // the page's notifications, recorded rather than shown
  await alice.addInitScript(() => {
    window.__notes = []
    window.Notification = class {
      static permission = 'granted'
      static requestPermission() { return Promise.resolve('granted') }
      constructor(title, opts) { window.__notes.push({title, body: opts && opts.body}) }
      close() {}
    }
  })
  const bob = await newPage(browser)
  await guest(alice)
  await guest(bob)
  const an = await userName(alice)
  // off until alice turns them on (on her account page)
  await alice.goto(BASE + '/#/account')
  await alice.reload() // the account page as the signed-in guest sees it
  await alice.click('[data-test=notify-toggle]')
  await alice.waitForSelector('[data-test=notify-toggle][aria-pressed=true]')
  await alice.goto(BASE + '/#/')

  const g = await createGame(bob, {game: 'sgolte', seats: [{kind: 'me'}, {kind: 'invite', user: an}], clock: {kind: 'correspondence', days: 3}})
  await alice.waitForFunction(() => window.__notes.some((n) => /invit/i.test(n.title)), null, {timeout: 10000})
  assert.match((await alice.evaluate(() => window.__notes))[0].body, /Sgolte/)
  assert.equal((await api(alice, 'POST', `/games/${g.id}/join`, {})).status, 200)
  const legal = (await api(bob, 'GET', '/games/' + g.id)).body.legal
  assert.equal((await api(bob, 'POST', `/games/${g.id}/moves`, {ply: 0, move: legal[0]})).status, 200)
  await alice.waitForFunction(() => window.__notes.some((n) => /Your turn/.test(n.title)), null, {timeout: 10000})
  // told once: a reload (the channel repeats what waits) adds nothing
  const count = (await alice.evaluate(() => window.__notes.length))
  // After the reload the channel repeats the waiting turn; the page looks
  // up the game's clock (GET /api/games/ID) before it decides: once that
  // answer is in and a frame has passed, it has decided.
  const looked = alice.waitForResponse((r) => new URL(r.url()).pathname === '/api/games/' + g.id)
  await alice.reload()
  await looked
  await alice.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => resolve())))
  assert.equal(await alice.evaluate(() => window.__notes.length), 0, 'nothing told twice after a reload')
  assert.ok(count >= 2)
  assertNoErrors(alice)
  assertNoErrors(bob)
  await alice.context().close()
  await bob.context().close()
})
