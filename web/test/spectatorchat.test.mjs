// The spectators' chat (issue 27, point 11): spectators of a live game talk
// among themselves beside the board; a line is text, named after who said
// it; the players' pages never show it, and a spectator's page never shows
// the players' chat. Screenshots of a spectator's page at 1280×800 and
// 390×844.

import {test, before, after} from 'node:test'
import assert from 'node:assert/strict'
import path from 'node:path'
import {launch, newPage, assertNoErrors, guest, userName, playByApi, twoPlayers, settled, BASE, SHOTS} from './helpers.mjs'

let browser
before(async () => {
  browser = await launch()
})
after(async () => {
  await browser?.close()
})

async function watch(id, viewport) {
  const page = await newPage(browser, {viewport})
  await guest(page)
  await page.goto(BASE + '/#/game/' + id)
  await page.waitForSelector('[data-test=spectator-chat] [data-test=chat-input]')
  return page
}

test('spectators chat among themselves; the players never see it', async () => {
  const {alice, bob, id} = await twoPlayers(browser, {game: 'sgolte', clock: {kind: 'realtime', initialMs: 600000, incrementMs: 5000}})
  await playByApi(alice, id, 1)
  const carol = await watch(id, {width: 1280, height: 800})
  const dave = await watch(id, {width: 390, height: 844})
  const cn = await userName(carol)

  await carol.fill('[data-test=chat-input]', 'who wins? <b>bold</b>')
  await carol.press('[data-test=chat-input]', 'Enter')
  await dave.waitForSelector('[data-test=spectator-chat] >> text=who wins? <b>bold</b>')
  assert.equal(await dave.$('[data-test=chat-log] b'), null, 'a line is text, never markup')
  assert.equal(await dave.textContent('[data-test=chat-log] .chat-who'), cn, 'a line names who said it')
  await dave.fill('[data-test=chat-input]', 'black, surely')
  await dave.click('[data-test=chat-send]')
  await carol.waitForSelector('[data-test=chat-log] >> text=black, surely')

  // The players talk too; neither chat crosses over.
  await alice.fill('[data-test=chat-input]', 'good luck')
  await alice.press('[data-test=chat-input]', 'Enter')
  await bob.waitForSelector('[data-test=chat-log] >> text=good luck')
  // (a move after both chats reaches everyone: what came before it has arrived)
  await playByApi(bob, id, 2)
  for (const p of [alice, bob, carol, dave]) await p.waitForFunction(() => document.querySelectorAll('[data-test=moves] li').length >= 2)
  for (const p of [alice, bob]) {
    assert.equal(await p.$('[data-test=spectator-chat]'), null)
    assert.doesNotMatch(await p.textContent('main'), /who wins|black, surely/)
  }
  for (const p of [carol, dave]) assert.doesNotMatch(await p.textContent('main'), /good luck/)

  for (const [p, size] of [[carol, '1280x800'], [dave, '390x844']]) {
    await p.evaluate(() => scrollTo(0, 0))
    await settled(p)
    await p.screenshot({path: path.join(SHOTS, `polish-spectator-chat-${size}.png`)})
    assert.ok(await p.$eval('[data-test=spectator-chat]', (el) => el.getBoundingClientRect().right <= innerWidth), 'the chat fits the width')
  }
  for (const p of [alice, bob, carol, dave]) {
    assertNoErrors(p)
    await p.context().close()
  }
})
