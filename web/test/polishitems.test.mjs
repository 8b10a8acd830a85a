// Issue 27's points that had no browser test of their own, and what its
// screenshots showed (screens27.test.mjs):
// - point 5: a guest's game against a bot without a clock leaves the
//   lobby's "Games being played" once nobody has had its page open for
//   the site's --unattended-after, stays live, and comes back when the
//   guest opens it again (on a server of this test's own, started with
//   --unattended-after 2s: the site's 5 minutes are too long to wait);
// - point 7: when the player who left is not the one to move, the room
//   says when a claim becomes possible, not only that they left;
// - the top menu is one row at 1280 px for a guest, whose long name
//   ("guest-… (guest)") pushed Profile to a second row in English and
//   Mongolian, every page 36 px down.

import {test, before, after} from 'node:test'
import assert from 'node:assert/strict'
import {spawn} from 'node:child_process'
import {mkdtempSync, rmSync} from 'node:fs'
import {tmpdir} from 'node:os'
import path from 'node:path'
import {launch, newPage, assertNoErrors, guest, api, createGame, playByApi, userName, waitUntil, serverProcess, BASE} from './helpers.mjs'

let browser
before(async () => {
  browser = await launch()
})
after(async () => {
  await browser?.close()
})

/**
 * slowPage is newPage with a minute, not 15 s, for each wait: on a
 * machine shared by many browsers a page's first load alone took longer.
 */
async function slowPage(opts) {
  const page = await newPage(browser, opts)
  page.setDefaultTimeout(60000)
  return page
}

/** ownServer starts the suite's tabula binary on a database of its own with extra flags; it returns {url, stop}. */
async function ownServer(...flags) {
  const dir = mkdtempSync(path.join(tmpdir(), 'tabula-polish-'))
  const proc = spawn(serverProcess().bin, ['serve', '--addr', '127.0.0.1:0', '--db', path.join(dir, 't.db'), '--signup-rate', '0',
    '--metrics-addr', '', '--log-level', 'warn', ...flags], {stdio: ['ignore', 'pipe', 'inherit']})
  const exited = new Promise((resolve) => proc.on('exit', resolve))
  let out = ''
  const url = await new Promise((resolve, reject) => {
    proc.stdout.on('data', (d) => {
      out += d
      const m = /listening on (\S+)/.exec(out)
      if (m) resolve(m[1])
    })
    proc.on('exit', (code) => reject(new Error('tabula serve exited: ' + code)))
  })
  return {url, async stop() {
    proc.kill('SIGTERM')
    await exited
    rmSync(dir, {recursive: true, force: true})
  }}
}

/** pageAt opens a page in a new context on the server at url (newPage allows BASE only), recording errors. */
async function pageAt(url, storageState) {
  const context = await browser.newContext({viewport: {width: 1280, height: 800}, storageState})
  const page = await context.newPage()
  page.setDefaultTimeout(60000)
  page.errors = []
  page.on('console', (m) => {
    if (m.type() === 'error') page.errors.push('console: ' + m.text())
  })
  page.on('pageerror', (e) => page.errors.push('pageerror: ' + e.message))
  await context.route('**/*', (route) => {
    const u = route.request().url()
    if (u.startsWith(url + '/') || u.startsWith('data:') || u.startsWith('blob:')) return route.continue()
    page.errors.push('request beyond the Tabula server: ' + u)
    return route.abort()
  })
  return page
}

test('point 5: a game its guest left leaves "Games being played", stays live, and comes back when they return', async () => {
  const site = await ownServer('--unattended-after', '2s')
  try {
    const g = await pageAt(site.url)
    await g.goto(site.url + '/#/account')
    await g.evaluate(() => import('/js/session.js').then((s) => s.ensure()))
    const id = await g.evaluate(async () => {
      const res = await fetch('/api/games', {method: 'POST', headers: {'Content-Type': 'application/json'},
        body: JSON.stringify({game: 'sgolte', seats: [{kind: 'me'}, {kind: 'bot', level: 'random'}]})})
      return (await res.json()).game.id
    })
    await g.goto(site.url + '/#/game/' + id)
    await g.waitForSelector('.board-svg [data-hit]')
    const state = {cookies: await g.context().cookies(), origins: []}

    const w = await pageAt(site.url)
    await w.goto(site.url + '/#/lobby')
    const link = `[data-test=live-games] a[href="#/game/${id}"]`
    await w.waitForSelector(link)
    // Longer than --unattended-after with the page open: still listed.
    await new Promise((resolve) => setTimeout(resolve, 2500))
    await w.reload()
    await w.waitForSelector('[data-test=live-games] ul, [data-test=live-games] p')
    assert.ok(await w.$(link), 'a game whose guest has its page open is listed')

    assertNoErrors(g)
    await g.context().close() // the browser closes
    await w.waitForSelector(link, {state: 'detached', timeout: 30000}) // the lobby's list refreshes every 5 s
    const status = await w.evaluate(async (id) => (await (await fetch('/api/games/' + id)).json()).game.status, id)
    assert.equal(status, 'live', 'left out of the list, not ended')

    const back = await pageAt(site.url, state)
    await back.goto(site.url + '/#/game/' + id)
    await back.waitForSelector('.board-svg [data-hit]')
    await w.waitForSelector(link, {timeout: 30000})
    assertNoErrors(back)
    assertNoErrors(w)
    await back.context().close()
    await w.context().close()
  } finally {
    await site.stop()
  }
})

test('point 7: a player who left while not to move — the room says when a claim becomes possible', async () => {
  const alice = await slowPage()
  const bob = await slowPage()
  await guest(alice)
  await guest(bob)
  const {id} = await createGame(alice, {game: 'sgolte', clock: {kind: 'realtime', initialMs: 600000, incrementMs: 5000}, seats: [{kind: 'me'}, {kind: 'open'}]})
  assert.equal((await api(bob, 'POST', `/games/${id}/join`, {})).status, 200)
  for (const p of [alice, bob]) {
    await p.goto(BASE + '/#/game/' + id)
    await p.waitForSelector('.board-svg [data-hit]')
  }
  const [an, bn] = [await userName(alice), await userName(bob)]
  const toMove = (await api(alice, 'GET', '/games/' + id)).body.game.toMove
  const [stays, leaves, leaverName] = toMove === 0 ? [alice, bob, bn] : [bob, alice, an]
  assertNoErrors(leaves)
  await leaves.context().close()
  await stays.waitForSelector(`[data-test=away] >> text=${leaverName} has left the game.`)
  // the test server's --claim-grace is 3 s
  const later = await stays.waitForSelector('[data-test=away] [data-test=claim-later]')
  assert.equal(await later.textContent(), 'If they are still away when their turn comes, you may claim victory 0:03 into it.')
  assert.equal(await stays.$('[data-test=claim-box]'), null, 'no countdown before their turn')
  // Their turn comes: the countdown (then the button) takes the sentence's place.
  await playByApi(stays, id, 1)
  await stays.waitForSelector('[data-test=claim-box]')
  assert.equal(await stays.$('[data-test=claim-later]'), null)
  assertNoErrors(stays)
  await stays.context().close()
})

test('the top menu is one row at 1280×800 for a guest, in English, Korean and Mongolian', async () => {
  // One page (each load is dear on a busy machine): the language picked, then Home loaded again.
  const page = await slowPage({viewport: {width: 1280, height: 800}})
  await guest(page)
  for (const locale of ['en', 'ko', 'mn']) {
    await page.setViewportSize({width: 1280, height: 800})
    await page.evaluate((l) => localStorage.setItem('tabula.lang', l), locale)
    await page.goto(BASE + '/')
    await page.reload()
    await page.waitForSelector('.game-card')
    assert.equal(await page.evaluate(() => document.documentElement.lang), locale)
    const rows = await page.$$eval('header [data-test^=nav-]', (els) => els.filter((e) => e.offsetParent).map((e) => {
      const r = e.getBoundingClientRect()
      return Math.round((r.top + r.bottom) / 2)
    }))
    assert.ok(rows.length >= 10, 'the links, the account and the tools: ' + rows.length)
    assert.ok(Math.max(...rows) - Math.min(...rows) < 12, `${locale}: the bar wraps at 1280 px, centres at ${rows.join(', ')}`)
    assert.match(await page.textContent('header [data-test=nav-account]'), /^guest-/)
    assert.ok(await page.evaluate(() => document.documentElement.scrollWidth <= innerWidth), 'nothing sideways')
    // Narrower, the links may wrap, the name stays whole and nothing goes sideways.
    await page.setViewportSize({width: 1000, height: 800})
    await waitUntil(() => page.evaluate(() => innerWidth === 1000), {what: 'the narrower window'})
    const cut = await page.$eval('header [data-test=nav-account]', (e) => e.scrollWidth > e.clientWidth)
    assert.equal(cut, false, `${locale}: the name is whole at 1000 px`)
    assert.ok(await page.evaluate(() => document.documentElement.scrollWidth <= innerWidth), 'nothing sideways at 1000 px')
  }
  assertNoErrors(page)
  await page.context().close()
})

test("a phone's seats: a bot's name ends in an ellipsis inside its box, not cut mid-letter under the clock", async () => {
  const page = await slowPage({viewport: {width: 390, height: 844}})
  await guest(page)
  const {id} = await createGame(page, {game: 'sgolte', clock: {kind: 'realtime', initialMs: 600000, incrementMs: 5000},
    seats: [{kind: 'me'}, {kind: 'bot', level: 'random'}]})
  await page.goto(BASE + '/#/game/' + id)
  await page.waitForSelector('[data-test=seats] .clock')
  const seats = await page.$$eval('[data-test=seats] .who', (whos) => whos.map((who) => {
    const name = who.querySelector(':scope > a, :scope > .seat-name')
    if (!name) return {bare: who.textContent}
    const r = name.getBoundingClientRect()
    const box = who.getBoundingClientRect()
    const s = getComputedStyle(name)
    return {text: name.textContent, inside: r.right <= box.right + 0.5, cut: name.scrollWidth > name.clientWidth, ellipsis: s.textOverflow === 'ellipsis' && s.overflow === 'hidden'}
  }))
  assert.equal(seats.length, 2)
  for (const s of seats) {
    assert.ok(!('bare' in s), 'a name as bare text in the flex row (no ellipsis possible): ' + s.bare)
    assert.ok(s.inside && s.ellipsis, JSON.stringify(s))
  }
  assert.ok(seats.some((s) => s.text === 'Bot (random)'), JSON.stringify(seats))
  assertNoErrors(page)
  await page.context().close()
})

test("Skyjo's line of facts takes the plural form of its target: 'game ends at 1 point'", async () => {
  const page = await slowPage({viewport: {width: 1280, height: 800}})
  await guest(page)
  const {id} = await createGame(page, {game: 'skyjo', options: {players: '2', target: '1'}, seats: [{kind: 'me'}, {kind: 'bot', level: 'random'}]})
  await page.goto(BASE + '/#/game/' + id)
  await page.waitForSelector('.board-svg [data-hit]')
  const text = await page.innerText('main')
  assert.match(text, /game ends at 1 point\b/)
  assert.doesNotMatch(text, /1 points/)
  assertNoErrors(page)
  await page.context().close()
})
