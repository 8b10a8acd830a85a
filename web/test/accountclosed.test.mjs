// A closed account's tab (issue 24/26 gap): when a moderator closes the
// account, the server closes its sockets (code 1008, a reason beginning
// "closed"); the page stops reconnecting the user channel — before, it
// tried every 8 s and was refused (401) each time — signs out and says
// why, in the reader's language.
//
// The moderator role is granted with `tabula admin grant` on the database
// of the server web/test/run started, as moderation.test.mjs does.

import {test, before, after} from 'node:test'
import assert from 'node:assert/strict'
import {execFileSync} from 'node:child_process'
import path from 'node:path'
import {launch, newPage, assertNoErrors, allowErrors, api, registered, resize, settled, serverProcess, BASE, OUT} from './helpers.mjs'

let browser
before(async () => {
  browser = await launch()
})
after(async () => {
  await browser?.close()
})

test('a closed account: the page stops reconnecting its channel, signs out and says why', async () => {
  const victim = await newPage(browser)
  const sockets = []
  victim.on('websocket', (ws) => {
    if (new URL(ws.url()).pathname === '/api/ws') sockets.push(ws)
  })
  const vn = await registered(victim, 'cl')
  await victim.goto(BASE + '/#/')
  await victim.waitForFunction(() => document.querySelector('[data-test=nav-profile]'))
  // the user channel is open (the challenge banner and the bell subscribe)
  const deadline = Date.now() + 15000
  while (!sockets.length) {
    assert.ok(Date.now() < deadline, 'no user channel opened')
    await victim.waitForEvent('websocket', {timeout: 15000}).catch(() => {})
  }

  const mod = await newPage(browser)
  const mn = await registered(mod, 'mod')
  const {bin, db} = serverProcess()
  execFileSync(bin, ['admin', '--db', db, '--as', 'browser-test', 'grant', mn, '--reason', 'accountclosed.test.mjs'])
  const res = await api(mod, 'POST', '/moderation/close', {user: vn, reason: 'accountclosed.test.mjs'})
  assert.equal(res.status, 204, JSON.stringify(res.body))

  const notice = victim.locator('[data-test=account-closed]')
  await notice.waitFor()
  assert.equal(await notice.textContent(), 'Your account was closed by a moderator, so you are signed out. You can still look around as a visitor.')
  // signed out: the menu has no profile of theirs
  await victim.waitForFunction(() => !document.querySelector('[data-test=nav-profile]'))
  const seen = sockets.length
  // The old page reconnected 0.3 s after the close, then every 8 s: no
  // new socket to /api/ws may come now.
  const again = await victim.waitForEvent('websocket', {predicate: (ws) => new URL(ws.url()).pathname === '/api/ws', timeout: 2000}).catch(() => null)
  assert.equal(again, null, 'the page opened the user channel again')
  assert.equal(sockets.length, seen)

  for (const [width, height] of [[1280, 800], [390, 844]]) {
    await resize(victim, {width, height})
    await settled(victim)
    await victim.screenshot({path: path.join(OUT, `account-closed-${width}x${height}.png`)})
  }
  await victim.evaluate(() => import('/js/i18n.js').then((m) => m.setLang('ko')))
  await victim.waitForFunction(() => /폐쇄/.test(document.querySelector('[data-test=account-closed]')?.textContent || ''))
  await victim.evaluate(() => import('/js/i18n.js').then((m) => m.setLang('en')))
  // The logout and any request in flight are refused (401) for a closed account.
  allowErrors(victim, /401|Unauthorized/)
  assertNoErrors(victim)
  assertNoErrors(mod)
})
