// The game room's chat and presence on the game page (issue 17; docs/api.md,
// "The game room"): the players' chat, which a spectator never sees, with
// its rate limit and mute, at both sizes (screenshots of a live game with
// the chat and a pending offer go to web/test/out/, docs/screenshots/ with
// UPDATE_SCREENSHOTS=1); and claiming the win from a player who left.
// The offers, takebacks, abort and rematch are gameroom.test.mjs's.

import {test, before, after} from 'node:test'
import assert from 'node:assert/strict'
import path from 'node:path'
import {launch, newPage, assertNoErrors, api, playByApi, twoPlayers, inViewport, settled, resize, BASE, OUT, SHOTS} from './helpers.mjs'

let browser
before(async () => {
  browser = await launch()
})
after(async () => {
  await browser?.close()
})

const waitMoves = (page, n) => page.waitForFunction((k) => document.querySelectorAll('[data-test=moves] li').length === k, n)

async function close(...pages) {
  for (const p of pages) {
    assertNoErrors(p)
    await p.context().close()
  }
}

test('chat between two players; a spectator never sees it; too many lines are refused', async () => {
  // One game, seen at both sizes: the three pages are resized, not made
  // again (two more sign-ups, page loads and games cost as much as the rest).
  const desk = {width: 1280, height: 800}
  const phone = {width: 390, height: 844}
  const {alice, bob, an, bn, id} = await twoPlayers(browser, {game: 'sgolte', clock: {kind: 'realtime', initialMs: 600000, incrementMs: 5000}}, desk)
  const carol = await newPage(browser, {viewport: desk})
  await carol.goto(BASE + '/#/game/' + id)
  await carol.waitForSelector('.board-svg [data-hit]')
  await playByApi(alice, id, 1)
  await playByApi(bob, id, 2)
  await playByApi(alice, id, 3)

  const lines = {desk: ['gl hf <b>bold</b>', 'you too'], phone: ['<i>on a phone</i>', 'me too']}
  for (const vp of [desk, phone]) {
    for (const p of [alice, bob, carol]) await resize(p, vp)
    const [hi, reply] = vp === desk ? lines.desk : lines.phone
    await alice.fill('[data-test=chat-input]', hi)
    await alice.press('[data-test=chat-input]', 'Enter')
    await bob.waitForSelector(`[data-test=chat-log] >> text=${hi}`)
    assert.equal(await bob.$('[data-test=chat-log] b, [data-test=chat-log] i'), null, 'a line is text, never markup')
    assert.match(await bob.textContent('[data-test=chat-log]'), new RegExp(an))
    await bob.fill('[data-test=chat-input]', reply)
    await bob.click('[data-test=chat-send]')
    await alice.waitForSelector(`[data-test=chat-log] >> text=${reply}`)
    assert.match(await alice.textContent('[data-test=chat-log]'), new RegExp(bn))
    assert.equal(await alice.getAttribute('[data-test=chat-input]', 'maxlength'), '200')

    // an offer stands, for the pictures (on the phone a new one: a move
    // ends the first, and one may offer once per move; bob to move again)
    if (vp === phone) {
      await playByApi(bob, id, 4)
      await playByApi(alice, id, 5)
      await waitMoves(bob, 5)
      await bob.waitForSelector('[data-test=offer-draw] [data-test=accept]', {state: 'detached'})
    }
    await alice.click('[data-test=offer-draw]')
    await bob.waitForSelector('[data-test=offer-draw] [data-test=accept]')
    await carol.waitForSelector('[data-test=offer-draw]')
    for (const p of [alice, bob]) {
      await p.evaluate(() => scrollTo(0, 0)) // the pictures from the top (sending scrolled the phone)
      await settled(p)
    }
    const size = `${vp.width}x${vp.height}`
    await alice.screenshot({path: path.join(OUT, `game-room-${size}.png`)})
    await bob.screenshot({path: path.join(SHOTS, `game-room-offer-${size}.png`)})
    assert.ok(await inViewport(bob, '[data-test=resign]'), 'Resign stays on the screen')
    assert.ok(await inViewport(bob, '[data-test=offer-draw] [data-test=accept]'), 'the offer is on the screen')
    if (vp === desk) {
      assert.equal(await bob.evaluate(() => scrollY), 0)
      for (const sel of ['.board', '[data-test=seats]', '[data-test=chat-input]', '[data-test=chat-log]']) {
        assert.ok(await inViewport(bob, sel), `${sel} is in the window at 1280×800`)
      }
    }

    // the spectator has no chat at all
    assert.equal(await carol.$('[data-test=chat]'), null)
    const seen = await carol.textContent('main')
    assert.doesNotMatch(seen, /gl hf|you too|on a phone|me too/)
  }

  // (on the phone) five lines at once, then one every two seconds: eight sent in a burst, the first refused one comes back
  await alice.evaluate(() => {
    const input = document.querySelector('[data-test=chat-input]')
    for (let i = 1; i <= 8; i++) {
      input.value = 'line ' + i
      input.form.requestSubmit()
    }
  })
  await alice.waitForSelector('[data-test=chat-error] >> text=Too many lines at once: wait a moment before the next.')
  // (which line is the first refused depends on how long ago the lines before were said)
  const back = await alice.inputValue('[data-test=chat-input]')
  assert.match(back, /^line [2-8]$/, 'the refused line is back in the input')
  const k = Number(back.slice(5))
  await bob.waitForSelector(`[data-test=chat-log] >> text=line ${k - 1}`)
  // Bob's own line comes back to him after every line the room took
  // before it (the room's events are numbered and delivered in order):
  // once he sees it, a refused line that had been said would be there.
  await bob.fill('[data-test=chat-input]', 'fence')
  await bob.click('[data-test=chat-send]')
  await bob.waitForSelector('[data-test=chat-log] >> text=fence')
  const said = await bob.$$eval('[data-test=chat-log] .chat-text', (els) => els.map((e) => e.textContent))
  assert.ok(!said.includes(back), `the refused line was not said: ${said}`)
  // muting hides the other player's lines
  await bob.check('[data-test=chat-mute]')
  assert.equal(await bob.$('[data-test=chat-log] >> text=gl hf'), null)
  assert.equal(await bob.$('[data-test=chat-log] >> text=on a phone'), null)
  assert.ok(await bob.isVisible('[data-test=chat-log] >> text=you too'), 'one\'s own lines stay')
  await bob.uncheck('[data-test=chat-mute]')
  assert.doesNotMatch(await carol.textContent('main'), /line 1|gl hf/)
  await close(alice, bob, carol)
})

test('a player who leaves while to move: the other claims the win after the grace', async () => {
  const {alice, bob, bn, id} = await twoPlayers(browser, {game: 'sgolte', clock: {kind: 'realtime', initialMs: 600000, incrementMs: 0}})
  await playByApi(alice, id, 1)
  await waitMoves(bob, 1)
  // Alice's page notes when the countdown and the Claim button first show,
  // whatever the test's own pace (web/test/run's grace is a few seconds).
  await alice.evaluate(() => {
    const seen = window.__claimSeen = {}
    new MutationObserver(() => {
      const box = document.querySelector('[data-test=claim-box]')
      if (!box) return
      if (!seen.countdown && /You may claim victory in \d+:\d\d/.test(box.textContent)) seen.countdown = performance.now()
      if (!seen.button && box.querySelector('[data-test=claim]')) seen.button = performance.now()
    }).observe(document.body, {subtree: true, childList: true, characterData: true})
  })
  await bob.goto(BASE + '/#/') // bob leaves the game's page, to move
  await alice.waitForSelector(`[data-test=away] >> text=${bn} has left the game.`)
  await alice.waitForSelector('[data-test=seats] li[data-seat="1"] [data-test=seat-away] >> text=away')
  await alice.waitForFunction(() => window.__claimSeen.countdown)
  await alice.waitForSelector('[data-test=claim]', {timeout: 45000})
  const seen = await alice.evaluate(() => window.__claimSeen)
  assert.ok(seen.countdown < seen.button, 'not before the grace: the countdown came first, then the button')
  await alice.click('[data-test=claim]')
  await alice.waitForSelector('[data-test=result]:not([hidden])')
  assert.match(await alice.textContent('[data-test=result]'), /You won!.*a player left/)
  const r = (await api(alice, 'GET', '/games/' + id)).body.game.result
  assert.deepEqual([r.reason, r.winners], ['abandoned', [0]])
  await close(alice, bob)
})
