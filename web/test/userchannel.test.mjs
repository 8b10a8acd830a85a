// One user channel per tab (userchannel.js): the challenge banner, the
// inbox bell and the opt-in system notifications share one socket to
// /api/ws — on loading Home signed in, and after moving between pages —
// and each of them still hears its news on it: an invitation lights the
// bell and shows a system notification, a challenge shows its toast.
// Signing out closes the socket; signing in opens one for the new account.

import {test, before, after} from 'node:test'
import assert from 'node:assert/strict'
import {launch, newPage, assertNoErrors, BASE, apiPaced, registered} from './helpers.mjs'

let browser
before(async () => {
  browser = await launch()
})
after(async () => {
  await browser?.close()
})

const isUserChannel = (url) => new URL(url).pathname === '/api/ws'

test('one socket to /api/ws per tab, shared by the bell, the challenges and the notifications', async () => {
  const alice = await newPage(browser, {viewport: {width: 1280, height: 800}})
  const bob = await newPage(browser)
  alice.setDefaultTimeout(30000)
  bob.setDefaultTimeout(30000)
  // The page counts the sockets it makes (at once, exactly), and a stand-in
  // for the browser's notifications records what it is asked to show.
  await alice.addInitScript(() => {
    window.__userSockets = []
    const WS = window.WebSocket
    window.WebSocket = class extends WS {
      constructor(url, ...rest) {
        super(url, ...rest)
        if (new URL(url, location.href).pathname === '/api/ws') window.__userSockets.push(this)
      }
    }
    window.__notes = []
    window.Notification = class {
      static permission = 'granted'
      static requestPermission() {
        return Promise.resolve('granted')
      }
      constructor(title, opts) {
        window.__notes.push({title, body: opts?.body, tag: opts?.tag})
      }
      close() {}
    }
  })
  const an = await registered(alice, 'uc')
  const bn = await registered(bob, 'ub')
  await alice.evaluate(() => localStorage.setItem('tabula.notify', 'on'))

  // Counted from here: Home, loaded signed in with notifications on.
  const seen = []
  alice.on('websocket', (ws) => {
    if (isUserChannel(ws.url())) seen.push(ws)
  })
  const opened = () => alice.evaluate(() => window.__userSockets.length)
  const live = () => alice.evaluate(() => window.__userSockets.filter((w) => w.readyState <= 1).length)
  await alice.goto(BASE + '/#/')
  await alice.reload()
  await alice.waitForSelector('[data-test=inbox-bell]')
  await alice.waitForFunction(() => window.__userSockets.some((w) => w.readyState === 1))
  await alice.waitForFunction(() => document.querySelector('[data-test=nav-home]'))

  // Each listener hears its news on that socket.
  const inv = await apiPaced(bob, 'POST', '/games', {game: 'sploof', seats: [{kind: 'me'}, {kind: 'invite', user: an}]})
  assert.equal(inv.status, 201, JSON.stringify(inv.body))
  await alice.waitForFunction(() => document.querySelector('[data-test=inbox-count]')?.textContent === '1')
  await alice.waitForFunction((tag) => window.__notes.some((n) => n.tag === tag), 'tabula-' + inv.body.game.id)
  const ch = await apiPaced(bob, 'POST', '/challenges', {game: 'sploof', players: [an], seat: 0, rated: false, clock: {kind: 'none'}})
  assert.equal(ch.status, 201, JSON.stringify(ch.body))
  await alice.waitForSelector(`[data-test=challenge-toast][data-id="${ch.body.id}"]`)
  assert.equal(await opened(), 1, 'one socket to /api/ws on Home')

  // Moving between pages keeps that one socket.
  for (const [hash, sel] of [['#/lobby', 'nav-lobby'], ['#/players', 'nav-players'], ['#/inbox', 'inbox-bell'], ['#/leaderboard', 'nav-leaderboard'], ['#/user/' + bn, 'nav-profile'], ['#/', 'nav-home']]) {
    await alice.evaluate((h) => { location.hash = h }, hash)
    await alice.waitForFunction((h) => location.hash === h && document.querySelector('main')?.children.length > 0, hash)
    await alice.waitForSelector(`[data-test=${sel}]`)
  }
  assert.equal(await opened(), 1, 'still one socket to /api/ws after moving between pages')
  assert.equal(await live(), 1)
  // The browser's own record agrees (its events come a little later).
  await waitUntil(() => seen.length >= 1)
  assert.equal(seen.length, 1, 'sockets to /api/ws: ' + seen.map((w) => w.url()).join(', '))
  assert.equal(seen[0].isClosed(), false)

  // Notifications turned off hear nothing; turned on again, they are told
  // what waits — the shared socket connects again for the server to repeat it.
  // (The test listens on the same socket, to know when the invitation came.)
  await alice.evaluate(() => import('/js/userchannel.js').then((u) => {
    window.__invites = []
    u.subscribe({onMessage: (m) => m.type === 'invite' && window.__invites.push(m.game?.id)})
  }))
  await alice.evaluate(() => import('/js/notify.js').then((n) => n.disable()))
  const inv2 = await apiPaced(bob, 'POST', '/games', {game: 'sploof', seats: [{kind: 'me'}, {kind: 'invite', user: an}]})
  assert.equal(inv2.status, 201, JSON.stringify(inv2.body))
  await alice.waitForFunction((id) => window.__invites.includes(id), inv2.body.game.id)
  const tag2 = 'tabula-' + inv2.body.game.id
  assert.equal(await alice.evaluate((tag) => window.__notes.some((n) => n.tag === tag), tag2), false, 'no notification while they are off')
  await alice.evaluate(() => import('/js/notify.js').then((n) => n.enable()))
  await alice.waitForFunction((tag) => window.__notes.some((n) => n.tag === tag), tag2)
  assert.equal(await live(), 1, 'one live socket after notifications are turned on again')
  const told = await alice.evaluate((tag) => window.__notes.filter((n) => n.tag === tag).length, 'tabula-' + inv.body.game.id)
  assert.equal(told, 1, 'the first invitation is told once, not again when it is repeated')

  // Signing out closes it; signing in again opens one, for that account.
  await alice.evaluate(() => import('/js/session.js').then((s) => s.logout()))
  await alice.waitForFunction(() => window.__userSockets.every((w) => w.readyState >= 2))
  await alice.waitForSelector('[data-test=inbox-bell]', {state: 'detached'})
  await alice.evaluate(() => import('/js/session.js').then((s) => s.ensure()))
  await alice.waitForFunction(() => window.__userSockets.filter((w) => w.readyState === 1).length === 1)
  assert.equal(await live(), 1, 'one live socket after signing in again')
  assert.equal(await opened(), 3)

  assertNoErrors(alice)
  assertNoErrors(bob)
  await alice.context().close()
  await bob.context().close()
})

async function waitUntil(fn, ms = 10000) {
  const end = Date.now() + ms
  while (!fn()) {
    if (Date.now() > end) throw new Error('timed out: ' + fn)
    await new Promise((r) => setTimeout(r, 20))
  }
}
