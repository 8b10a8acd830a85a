// The game room of issue 17: its bugs, each as the player met it (the pie
// swap's colours, the Skyjo piles and bot names, a missing game or player,
// the replay on a phone, the move list's first row and the result box),
// and what a finished game against a bot offers: play again, the record.

import {test, before, after} from 'node:test'
import assert from 'node:assert/strict'
import path from 'node:path'
import {launch, newPage, assertNoErrors, guest, api, clickHit, clickMoveButton, createGame, openGame, playByApi,
  allowErrors, inViewport, BASE, userName, settled, resize, waitUntil, OUT} from './helpers.mjs'

let browser
before(async () => {
  browser = await launch()
})
after(async () => {
  await browser?.close()
})

const rows = (page) => page.$$eval('[data-test=moves] li', (els) => els.map((e) => e.textContent.replace(/\s+/g, ' ').trim()))
const seatRows = (page) => page.$$eval('[data-test=seats] li', (els) => els.map((e) => e.textContent.replace(/\s+/g, ' ').trim()))

test('sgolte pie swap: seats, board and move list name the colours each player really has', async () => {
  const alice = await newPage(browser)
  const bob = await newPage(browser)
  await guest(alice)
  await guest(bob)
  const [an, bn] = [await userName(alice), await userName(bob)]
  const g = await createGame(alice, {game: 'sgolte', seats: [{kind: 'me'}, {kind: 'open'}]})
  assert.equal((await api(bob, 'POST', `/games/${g.id}/join`, {})).status, 200)
  for (const p of [alice, bob]) {
    await p.goto(BASE + '/#/game/' + g.id)
    await p.waitForSelector('.board-svg [data-hit]')
  }
  await alice.waitForSelector('.board-svg [data-hit="e5"].hit')
  await clickHit(alice, 'e5')
  await bob.waitForSelector('[data-test=actions] button[data-move=swap]')
  await clickMoveButton(bob, 'swap')
  await alice.waitForSelector('.board-svg [data-hit="a1"].hit')
  await clickHit(alice, 'a1')
  for (const p of [alice, bob]) await p.waitForFunction(() => document.querySelectorAll('[data-test=moves] li').length === 3)

  const check = async (p, when) => {
    const r = await rows(p)
    assert.match(r[0], /Black.*e5/, `${when}: move 1 ${r}`)
    assert.match(r[1], /White.*swap/, `${when}: move 2 (White swaps) ${r}`)
    assert.match(r[2], /White.*a1/, `${when}: move 3 is a white stone ${r}`)
    const seats = await seatRows(p)
    assert.ok(seats[0].includes(an) && /White/.test(seats[0]) && !/Black/.test(seats[0]), `${when}: ${seats}`)
    assert.ok(seats[1].includes(bn) && /Black/.test(seats[1]) && !/White/.test(seats[1]), `${when}: ${seats}`)
    await p.waitForFunction((n) => document.querySelector('[data-test=groups-white]')?.textContent.includes(n), an)
    assert.ok((await p.textContent('[data-test=groups-black]')).includes(bn), when)
  }
  await check(alice, 'live, alice')
  await check(bob, 'live, bob')
  await bob.waitForFunction(() => /Your turn \(Black\)/.test(document.querySelector('[data-test=prompt]').textContent))
  for (const p of [alice, bob]) {
    await p.reload()
    await p.waitForFunction(() => document.querySelectorAll('[data-test=moves] li').length === 3)
  }
  await check(alice, 'after reload, alice')
  await check(bob, 'after reload, bob')
  // the replay names them the same way
  await playByApi(alice, g.id, 3) // nothing to play: just the record
  await alice.goto(BASE + '/#/replay/' + g.id)
  await alice.waitForFunction(() => document.querySelectorAll('[data-test=replay-moves] li').length === 4)
  const rep = await alice.$$eval('[data-test=replay-moves] li', (els) => els.map((e) => e.textContent.replace(/\s+/g, ' ')))
  assert.match(rep[2], /White.*swap/, 'replay: ' + rep)
  assert.match(rep[3], /White.*a1/, 'replay: ' + rep)
  assertNoErrors(alice)
  assertNoErrors(bob)
  await alice.context().close()
  await bob.context().close()
})

test("someone else's profile never says 'You won'", async () => {
  const player = await newPage(browser)
  await guest(player)
  const name = await userName(player)
  const g = await createGame(player, {game: 'sploof', options: {first: 'white'}, seats: [{kind: 'me'}, {kind: 'bot', level: 'random'}]})
  await playByApi(player, g.id)
  const res = (await api(player, 'GET', '/games/' + g.id)).body.game.result
  assert.ok(res, 'the game is over')
  await player.goto(BASE + '/#/user/' + name)
  await player.waitForSelector(`[data-test=profile-games] a[href="#/replay/${g.id}"]`) // the games list, not the recent games above it
  const own = await player.textContent('main')
  assert.match(own, /You won|You lost|Draw/, 'the player sees the result from their seat')

  for (const signedIn of [false, true]) {
    const other = await newPage(browser)
    if (signedIn) await guest(other)
    await other.goto(BASE + '/#/user/' + name)
    await other.waitForSelector(`[data-test=profile-games] a[href="#/replay/${g.id}"]`) // the games list, not the recent games above it
    const text = await other.textContent('main')
    assert.doesNotMatch(text, /You won|You lost|You share/, `signed ${signedIn ? 'in' : 'out'}: ${text}`)
    if (res.status === 'won') assert.match(text, new RegExp(res.winners.includes(0) ? `${name} won` : `${name} lost`))
    assertNoErrors(other)
    await other.context().close()
  }
  assertNoErrors(player)
  await player.context().close()
})

test('skyjo: pile labels stay apart and inside; several bots have names of their own', async () => {
  const page = await newPage(browser)
  await guest(page)
  const id = await openGame(page, {game: 'skyjo', options: {players: '4'},
    seats: [{kind: 'me'}, {kind: 'bot', level: 'easy'}, {kind: 'bot', level: 'easy'}, {kind: 'bot', level: 'random'}]})
  const names = await page.$$eval('.skyjo-player .skyjo-name strong', (els) => els.map((e) => e.textContent))
  assert.equal(names.length, 4)
  assert.equal(new Set(names).size, 4, 'four different names: ' + names)
  const seats = await seatRows(page)
  assert.equal(new Set(seats).size, 4, 'four different seat rows: ' + seats)

  // play until we hold a drawn card: the held card's label appears beside the discard's
  // (for up to 60 s, however long the three bots think: a count of tries ran
  // out on a loaded machine before our turn came)
  await waitUntil(async () => {
    const g = (await api(page, 'GET', '/games/' + id)).body
    if (g.legal && g.legal.includes('draw')) {
      await api(page, 'POST', `/games/${id}/moves`, {ply: g.moves.length, move: 'draw'})
      return true
    }
    if (g.legal && g.legal.length) await api(page, 'POST', `/games/${id}/moves`, {ply: g.moves.length, move: g.legal[0]})
    return false
  }, {timeout: 60000, what: 'our turn to draw'})
  await page.waitForSelector('.skyjo-piles .held')
  for (const width of [1280, 390]) {
    await resize(page, {width, height: 844})
    const boxes = await page.$$eval('.skyjo-piles .pile-label', (els) => {
      const svg = els[0].ownerSVGElement.getBoundingClientRect()
      return {svg: {l: svg.left, r: svg.right, t: svg.top, b: svg.bottom}, labels: els.map((e) => {
        const r = e.getBoundingClientRect()
        return {text: e.textContent, l: r.left, r: r.right, t: r.top, b: r.bottom}
      })}
    })
    assert.ok(boxes.labels.length >= 3, JSON.stringify(boxes.labels))
    for (const a of boxes.labels) {
      assert.ok(a.l >= boxes.svg.l - 0.5 && a.r <= boxes.svg.r + 0.5 && a.b <= boxes.svg.b + 0.5, `${width}px: "${a.text}" is cut at the edge`)
      for (const b of boxes.labels) {
        if (a === b) continue
        const overlap = a.l < b.r && b.l < a.r && a.t < b.b && b.t < a.b
        assert.ok(!overlap, `${width}px: "${a.text}" overlaps "${b.text}"`)
      }
    }
  }
  assertNoErrors(page)
  await page.context().close()
})

test('a missing game says so once and stops; a missing player likewise', async () => {
  const page = await newPage(browser)
  const sockets = []
  page.on('websocket', (ws) => sockets.push(ws.url()))
  // The page's timers run on a clock the test moves on: a retry would
  // have come within the 30 s moved, and the page's own count of sockets
  // opened says it at once.
  await page.addInitScript(() => {
    window.__sockets = 0
    const WS = window.WebSocket
    window.WebSocket = class extends WS {
      constructor(...args) {
        super(...args)
        window.__sockets++
      }
    }
  })
  let lookups = 0
  page.on('request', (r) => { if (new URL(r.url()).pathname === '/api/games/nope') lookups++ })
  await page.clock.install()
  await page.goto(BASE + '/#/game/nope')
  // It asks again for a few seconds (a game the server makes is listed a
  // moment before it is stored), saying so, then says it is missing.
  await page.waitForSelector('[data-test=conn]:has-text("Looking for the game")')
  for (const scheme of ['light', 'dark']) {
    await page.emulateMedia({colorScheme: scheme})
    for (const size of [{width: 1280, height: 800}, {width: 390, height: 844}]) {
      await resize(page, size)
      await page.screenshot({path: path.join(OUT, `game-looking-${scheme}-${size.width}x${size.height}.png`)})
    }
  }
  await waitUntil(async () => {
    await page.clock.runFor(500)
    return (await page.$('text=Not found')) !== null
  }, {what: 'the missing game said'})
  await page.clock.runFor(30000)
  assert.equal(await page.evaluate(() => window.__sockets), 0, 'no socket opened')
  const main = await page.textContent('main')
  assert.equal(main.split('Not found').length - 1, 1, 'one message: ' + main)
  assert.doesNotMatch(main, /reconnecting|Connecting|Looking/, main)
  assert.deepEqual(sockets, [], 'no game channel for a game that does not exist')
  assert.equal(lookups, 5, 'the look-up and four more, then no more')
  allowErrors(page, /status of 404/) // the look-ups of the game
  assertNoErrors(page)

  await page.goto(BASE + '/#/user/nobody-here')
  await page.waitForSelector('text=Not found') // the profile's last step: a missing player asks for nothing more
  const prof = await page.textContent('main')
  assert.doesNotMatch(prof, /No games yet|No rated games/, prof)
  assert.equal(prof.split('Not found').length - 1, 1, prof)
  allowErrors(page, /status of 404/)
  assertNoErrors(page)
  await page.context().close()
})

test('a game stored a moment after its link is followed opens (a tournament wave lists its games first)', async () => {
  const page = await newPage(browser)
  await guest(page)
  const g = await createGame(page, {game: 'sgolte', seats: [{kind: 'me'}, {kind: 'bot', level: 'random'}]})
  // The first two look-ups find no game, as when a wave's link is followed
  // before its game is stored.
  let refused = 0
  await page.route('**/api/games/' + g.id, (route) => {
    if (route.request().method() === 'GET' && refused < 2) {
      refused++
      return route.fulfill({status: 404, contentType: 'application/json', body: JSON.stringify({error: {code: 'not_found', message: 'no such game'}})})
    }
    return route.continue()
  })
  await page.goto(BASE + '/#/game/' + g.id)
  await page.waitForSelector('.board-svg [data-hit]')
  assert.equal(refused, 2)
  const main = await page.textContent('main')
  assert.doesNotMatch(main, /No such game|Not found|Looking for the game/, main)
  allowErrors(page, /status of 404/)
  assertNoErrors(page)
  await page.context().close()
})

test('replay on a phone: stepping keeps the controls on the screen', async () => {
  const page = await newPage(browser, {viewport: {width: 390, height: 844}})
  await guest(page)
  const g = await createGame(page, {game: 'sgolte', seats: [{kind: 'me'}, {kind: 'bot', level: 'random'}]})
  const n = await playByApi(page, g.id)
  assert.ok(n > 22, `a game of ${n} moves`)
  await page.goto(BASE + '/#/replay/' + g.id)
  await page.waitForSelector('[data-test=replay-moves] li')
  await page.waitForFunction(() => /move 0 of/.test(document.querySelector('[data-test=replay-ply]').textContent))
  const y0 = await page.evaluate(() => scrollY)
  for (let i = 1; i <= 20; i++) {
    await page.tap('[data-test=next]').catch(() => page.click('[data-test=next]'))
    await page.waitForFunction((k) => document.querySelector('[data-test=replay-ply]').textContent.includes(`move ${k} of`), i)
    assert.ok(await inViewport(page, '[data-test=next]'), `after ${i} taps the Next button is still on the screen`)
  }
  assert.equal(await page.evaluate(() => scrollY), y0, 'the page did not scroll')
  assertNoErrors(page)
  await page.context().close()
})

test('the move list shows whole rows; the result box has no focus-like border', async () => {
  const page = await newPage(browser, {viewport: {width: 1280, height: 800}})
  await guest(page)
  const id = await openGame(page, {game: 'sgolte', seats: [{kind: 'me'}, {kind: 'bot', level: 'random'}]})
  await playByApi(page, id, 40)
  await page.waitForFunction(() => document.querySelectorAll('[data-test=moves] li').length >= 40)
  await settled(page)
  const cut = await page.$eval('[data-test=moves]', (list) => {
    const box = list.getBoundingClientRect()
    const top = box.top + list.clientTop
    const bottom = top + list.clientHeight
    return [...list.querySelectorAll('li')].map((li) => li.getBoundingClientRect())
      .filter((r) => r.bottom > top + 0.5 && r.top < bottom - 0.5)
      .filter((r) => r.top < top - 0.5 || r.bottom > bottom + 0.5).length
  })
  assert.equal(cut, 0, 'rows cut off at the edge of the move list')
  await playByApi(page, id)
  await page.waitForSelector('[data-test=result]:not([hidden])')
  // as a spectator sees it (a winner's box is green, everyone else's was blue)
  const watcher = await newPage(browser, {viewport: {width: 1280, height: 800}})
  await watcher.goto(BASE + '/#/game/' + id)
  await watcher.waitForSelector('[data-test=result]:not([hidden])')
  const border = await watcher.$eval('[data-test=result]', (el) => {
    const cs = getComputedStyle(el)
    const accent = getComputedStyle(document.documentElement).getPropertyValue('--accent').trim()
    const probe = document.createElement('span')
    probe.style.color = accent
    document.body.append(probe)
    const blue = getComputedStyle(probe).color
    probe.remove()
    return ['Top', 'Right', 'Bottom', 'Left'].map((s) => ({w: parseFloat(cs['border' + s + 'Width']), c: cs['border' + s + 'Color'], blue}))
  })
  for (const b of border) assert.ok(!(b.w >= 1.5 && b.c === b.blue), 'a focus-like accent border: ' + JSON.stringify(border))
  assertNoErrors(watcher)
  await watcher.context().close()
  assertNoErrors(page)
  await page.context().close()
})

test('after a game against a bot: play again with the same bot and options, download the record', async () => {
  const page = await newPage(browser)
  await guest(page)
  const id = await openGame(page, {game: 'sgolte', options: {size: '6', pie: 'off'}, seats: [{kind: 'me'}, {kind: 'bot', level: 'greedy'}],
    clock: {kind: 'realtime', initialMs: 600000, incrementMs: 2000}})
  page.once('dialog', (d) => d.accept())
  await page.click('[data-test=resign]')
  await page.waitForSelector('[data-test=result]:not([hidden])')
  // the record, as the link downloads it
  const href = await page.getAttribute('[data-test=export]', 'href')
  assert.equal(href, `/api/games/${id}/record`)
  assert.match(await page.getAttribute('[data-test=export]', 'download'), /^tabula-sgolte-.+\.json$/)
  const rec = await page.evaluate((h) => fetch(h).then((r) => r.json()), href)
  assert.equal(rec.format, 'tabula-record/1')
  assert.equal(rec.id, id)
  // the same game again, against the same bot
  await page.click('[data-test=again]')
  await page.waitForFunction((old) => /#\/game\//.test(location.hash) && !location.hash.endsWith(old), id)
  const next = (await api(page, 'GET', '/games/' + page.url().split('/').pop())).body.game
  assert.notEqual(next.id, id)
  assert.equal(next.options.size, '6')
  assert.equal(next.options.pie, 'off')
  assert.deepEqual(next.clock, {kind: 'realtime', initialMs: 600000, incrementMs: 2000})
  assert.equal(next.seats[1].kind, 'bot')
  assert.equal(next.seats[1].level, 'greedy')
  assert.equal(next.seats[0].user, await userName(page))
  assertNoErrors(page)
  await page.context().close()
})
