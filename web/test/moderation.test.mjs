// Moderation in the browser (issue 24 item 9; docs/api.md, "Moderation"):
// a player reports the other's chat line from the chat; a moderator sees
// the report with the line on #/moderation and mutes the player, whose
// next line is refused with the reason; the moderator's undo lets them
// chat again; a player is reported from their profile. Screenshots of the
// report dialog and the moderation page at 1280x800 and 390x844 go to
// web/test/out/ (moderation-*.png).
//
// The moderator role is granted only on the command line. This test runs
// `tabula admin grant` against the server web/test/run started: it finds
// that server's process by the port of TABULA_URL (the listening socket's
// inode in /proc/net/tcp, then the process holding it), and runs the same
// binary with the same --db. Linux only, as web/test/run is.

import {test, before, after} from 'node:test'
import assert from 'node:assert/strict'
import path from 'node:path'
import {execFileSync} from 'node:child_process'
import {launch, newPage, assertNoErrors, twoPlayers, registered, resize, settled, serverProcess, BASE, OUT} from './helpers.mjs'

let browser
before(async () => {
  browser = await launch()
})
after(async () => {
  await browser?.close()
})

test('a chat line reported, seen by a moderator, its player muted and unmuted', async () => {
  const {alice, bob, bn, id} = await twoPlayers(browser, {game: 'sgolte'}, {width: 1280, height: 800})
  await bob.fill('[data-test=chat-input]', 'you play like a <b>potato</b>')
  await bob.press('[data-test=chat-input]', 'Enter')
  await alice.waitForSelector('[data-test=chat-log] >> text=potato')

  // Alice reports the line from the chat — its ⚑ the same button after
  // another line arrived.
  const flag = await alice.$('[data-test=chat-log] li[data-seat="1"] [data-test=chat-report]')
  await bob.fill('[data-test=chat-input]', 'gl hf')
  await bob.press('[data-test=chat-input]', 'Enter')
  await alice.waitForSelector('[data-test=chat-log] >> text=gl hf')
  assert.ok(await flag.evaluate((el) => el.isConnected), 'the first line\'s ⚑ is the same button after a second line')
  await flag.click()
  await alice.waitForSelector('[data-test=report-dialog][open]')
  assert.match(await alice.textContent('[data-test=report-quoted]'), /you play like a <b>potato<\/b>/)
  await alice.click('[data-test=report-send]')
  await alice.waitForSelector('[data-test=report-error] >> text=Choose a reason first.')
  await alice.selectOption('[data-test=report-reason]', 'abuse')
  await alice.fill('[data-test=report-text]', 'Rude after my first move.')
  await settled(alice)
  await alice.screenshot({path: path.join(OUT, 'moderation-report-1280x800.png')})
  await resize(alice, {width: 390, height: 844})
  await alice.screenshot({path: path.join(OUT, 'moderation-report-390x844.png')})
  await alice.click('[data-test=report-send]')
  await alice.waitForSelector('[data-test=report-done]')
  await alice.click('[data-test=report-done] button')
  // The dialog goes after the click's handler has run, not at once.
  await alice.waitForSelector('[data-test=report-dialog]', {state: 'detached'})

  // A moderator, granted on the command line, sees it and mutes bob.
  const mod = await newPage(browser, {viewport: {width: 1280, height: 800}})
  const mn = await registered(mod, 'mod')
  const {bin, db} = serverProcess()
  execFileSync(bin, ['admin', '--db', db, '--as', 'browser-test', 'grant', mn, '--reason', 'moderation.test.mjs'])
  await mod.goto(BASE + '/#/moderation')
  await mod.reload() // the menu asks for the role when it is drawn
  await mod.waitForSelector('[data-test=nav-moderation]')
  const card = mod.locator('[data-test=mod-report]', {has: mod.locator(`[data-test=mod-user]:text-is("${bn}")`)})
  await card.locator('[data-test=mod-line]').getByText('potato').waitFor()
  await settled(mod)
  await mod.screenshot({path: path.join(OUT, 'moderation-page-1280x800.png'), fullPage: true})
  await resize(mod, {width: 390, height: 844})
  await mod.screenshot({path: path.join(OUT, 'moderation-page-390x844.png'), fullPage: true})
  assert.equal(await mod.evaluate(() => document.documentElement.scrollWidth <= innerWidth), true, 'no sideways scroll at 390 px')
  await card.locator('[data-test=mod-reason]').fill('insults in chat')
  await card.locator('[data-test=mod-mute]').click()
  await mod.waitForSelector(`[data-test=mod-log-row] >> text=${bn}`)

  // Bob's next line is refused, with why; the undo lets him talk again.
  await bob.fill('[data-test=chat-input]', 'still here')
  await bob.press('[data-test=chat-input]', 'Enter')
  await bob.waitForSelector('[data-test=chat-error] >> text=A moderator has muted you')
  await mod.fill('[data-test=mod-undo-user]', bn)
  await mod.fill('[data-test=mod-undo-reason]', 'apologised')
  await mod.click('[data-test=mod-unmute]')
  await mod.waitForSelector('[data-test=mod-undo-result] >> text=can chat again')
  await bob.fill('[data-test=chat-input]', 'sorry')
  await bob.press('[data-test=chat-input]', 'Enter')
  await alice.waitForSelector('[data-test=chat-log] >> text=sorry')

  // A player is reported from their profile too.
  await alice.goto(BASE + '/#/user/' + bn)
  await alice.click('[data-test=report-user]')
  await alice.selectOption('[data-test=report-reason]', 'name')
  await alice.click('[data-test=report-send]')
  await alice.waitForSelector('[data-test=report-done]')
  await mod.reload() // the moderation page is open: read its reports again
  await mod.waitForSelector('[data-test=mod-report] >> text=Offensive name')

  for (const p of [alice, bob, mod]) {
    assertNoErrors(p)
    await p.context().close()
  }
  void id
})
