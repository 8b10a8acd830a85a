// An arena's bounded answer on its page: the answer carries the first 100
// standings lines (arena.standingsTotal counts them all) and only the
// recent finished boards, so the page shows the other lines a page at a
// time and asks for a picked player's games.
//
// Paged standings: an upcoming arena (an hour ahead: no game runs) joined
// by 101 players registered through the API, then by the signed-in user
// (102nd: on page 2). A pager under the table says "page 1 of 2"; Next (by
// keyboard) shows page 2 as GET .../standings?page=2 gives it, ranks and
// all; Previous goes back to page 1; My place goes to the user's page, their
// line marked. While page 2 is shown, joins (stream events) have it asked
// again, at most every 2 s. Screenshots at 1280×800 and 390×844 with no
// sideways scroll; the pager in Korean for a guest (no My place).
//
// A picked player's games: a click on a line asks GET .../games?player=NAME
// (a quiet "loading" until it answers) and lists exactly what it answers —
// here 35 finished games, more than the answer's recent 30 — with the
// points of their line; the stream's pushes do not ask again while their
// games are unchanged; a failed asking says so in a line, once.
//
// The finished games say "… and n earlier" from arena.finishedGames. And a
// player whose line is past the first 100 still gets Your game (from the
// boards being played, all in the answer) and Resume when paused (their
// line from the games endpoint). These two answers are the server's,
// changed in the browser to a busy arena's.

import {test, before, after} from 'node:test'
import assert from 'node:assert/strict'
import path from 'node:path'
import {launch, newPage, assertNoErrors, allowErrors, BASE, OUT, apiPaced, registered, waitUntil, joiners} from './helpers.mjs'

let browser
before(async () => {
  browser = await launch()
})
after(async () => {
  await browser?.close()
})

/** upcomingArena has the page's user create an arena that starts in an hour, and returns its id. */
async function upcomingArena(page, name) {
  const res = await apiPaced(page, 'POST', '/tournaments', {name, format: 'arena', game: 'sgolte', minutes: 60,
    clock: {kind: 'realtime', initialMs: 180000, incrementMs: 2000}, start: new Date(Date.now() + 3600e3).toISOString()})
  assert.equal(res.status, 201, JSON.stringify(res.body))
  return res.body.tournament.id
}

const rows = (page) => page.$$eval('[data-test=tn-standings] tbody tr', (trs) => trs.map((tr) => [tr.querySelector('[data-test=tn-rank]').textContent, tr.dataset.user]))

test('an arena of more than 100 players: standings a page at a time, My place, the later page kept fresh', async () => {
  const pm = await newPage(browser)
  const me = await registered(pm, 'pg')
  const id = await upcomingArena(pm, 'Pages ' + me)
  const others = await joiners(id, 101, 'p')
  assert.equal((await apiPaced(pm, 'POST', `/tournaments/${id}/join`, {})).status, 200) // the 102nd: on page 2
  const detail = (await apiPaced(pm, 'GET', '/tournaments/' + id)).body
  assert.equal(detail.arena.standings.length, 100)
  assert.equal(detail.arena.standingsTotal, 102)

  await pm.goto(BASE + '/#/tournament/' + id)
  await pm.waitForSelector('[data-test=tn-pager]')
  // When each later page was asked for, and which, by the page's own clock:
  // taken here as Playwright's request events reached this process, two asks
  // 2 s apart once arrived 1.8 s apart (a clean-clone run, both cores busy).
  // (Set in the page once it shows the arena, as a hash change loads no new
  // document.)
  await pm.evaluate(() => {
    window.standingsAsked = []
    const fetch = window.fetch
    window.fetch = function (input, ...rest) {
      const m = String(input?.url ?? input).match(/\/standings\?(page|player)=([^&]+)$/)
      if (m) window.standingsAsked.push({at: Date.now(), [m[1]]: decodeURIComponent(m[2])})
      return fetch.call(this, input, ...rest)
    }
  })
  const standingsAsked = () => pm.evaluate(() => window.standingsAsked)
  assert.equal(await pm.textContent('[data-test=tn-page-of]'), 'page 1 of 2')
  assert.ok(await pm.isDisabled('[data-test=tn-page-prev]'))
  assert.deepEqual(await rows(pm), detail.arena.standings.map((s) => [String(s.rank), s.name]))

  // Next, by keyboard: page 2 as the server gives it — the server's ranks (all level at 0 points: 1).
  await pm.focus('[data-test=tn-page-next]')
  await pm.keyboard.press('Enter')
  await pm.waitForSelector('[data-test=tn-page-of][data-page="2"]')
  const p2 = (await apiPaced(pm, 'GET', `/tournaments/${id}/standings?page=2`)).body
  assert.deepEqual({page: p2.page, pages: p2.pages, total: p2.total}, {page: 2, pages: 2, total: 102})
  assert.deepEqual(await rows(pm), p2.standings.map((s) => [String(s.rank), s.name]))
  assert.equal(p2.standings.length, 2)
  assert.ok(others.includes(p2.standings[0].name))
  assert.equal(p2.standings[1].name, me)
  assert.equal(await pm.textContent('[data-test=tn-page-of]'), 'page 2 of 2')
  assert.ok(await pm.isDisabled('[data-test=tn-page-next]'))
  assert.ok(await pm.$('tr.tn-me[data-user="' + me + '"]'), 'my line is marked')

  // Previous (by keyboard) goes back to page 1, the stream's; My place comes back to page 2.
  await pm.focus('[data-test=tn-page-prev]')
  await pm.keyboard.press('Enter')
  await pm.waitForSelector('[data-test=tn-page-of][data-page="1"]')
  assert.equal((await rows(pm)).length, 100)
  await pm.click('[data-test=tn-my-place]')
  await pm.waitForSelector('[data-test=tn-page-of][data-page="2"]')
  assert.ok((await standingsAsked()).some((x) => x.player === me), 'My place asks for the page holding me')
  assert.ok(await pm.$('tr.tn-me[data-user="' + me + '"]'))

  // Joins while page 2 is shown: it is asked for again (at most every 2 s) and shows them.
  // The pager's buttons stay the same elements through the pushes and the
  // askings again (the page is renewed in place, not drawn anew: a click
  // pressed as a push comes is released on the same button).
  const pagerButtons = {prev: await pm.$('[data-test=tn-page-prev]'), next: await pm.$('[data-test=tn-page-next]'), mine: await pm.$('[data-test=tn-my-place]')}
  const since = await pm.evaluate(() => Date.now())
  const late = await joiners(id, 4, 'q')
  await pm.waitForFunction((n) => document.querySelectorAll('[data-test=tn-standings] tbody tr').length === n, 6, {timeout: 30000})
  for (const [what, el] of Object.entries(pagerButtons)) assert.ok(await el.evaluate((e) => e.isConnected), `the pager's ${what} is the same element after four joins`)
  const again = (await standingsAsked()).filter((x) => x.at >= since && x.page === '2').map((x) => x.at) // (before the test's own asking below)
  assert.ok(again.length >= 1)
  for (let i = 1; i < again.length; i++) assert.ok(again[i] - again[i - 1] >= 1900, `page 2 asked ${again[i] - again[i - 1]} ms after the last`)
  const shown = await rows(pm)
  assert.deepEqual(shown.slice(0, 2).map((r) => r[1]), p2.standings.map((s) => s.name))
  assert.deepEqual(shown.slice(2).map((r) => r[1]).sort(), [...late].sort())
  assert.deepEqual(shown, (await apiPaced(pm, 'GET', `/tournaments/${id}/standings?page=2`)).body.standings.map((s) => [String(s.rank), s.name]))

  // The list of players beside the standings shows 40 of the 106 until
  // asked for all (and back).
  const listed = () => pm.$$eval('[data-test=tn-players] li', (lis) => lis.length)
  assert.equal(await listed(), 40)
  assert.equal(await pm.textContent('[data-test=tn-more-players]'), 'Show all 106')
  await pm.click('[data-test=tn-more-players]')
  await pm.waitForFunction(() => document.querySelectorAll('[data-test=tn-players] li').length === 106)
  assert.equal(await pm.getAttribute('[data-test=tn-more-players]', 'aria-expanded'), 'true')
  await pm.click('[data-test=tn-more-players]')
  await pm.waitForFunction(() => document.querySelectorAll('[data-test=tn-players] li').length === 40)

  await pm.setViewportSize({width: 1280, height: 800})
  await pm.screenshot({path: path.join(OUT, 'arenapages-1280x800.png'), fullPage: true})
  await pm.setViewportSize({width: 390, height: 844})
  await pm.waitForFunction(() => innerWidth === 390)
  await pm.screenshot({path: path.join(OUT, 'arenapages-390x844.png'), fullPage: true})
  assert.equal(await pm.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth), 0, 'sideways scroll at 390 px')
  assert.ok(await pagerButtons.prev.evaluate((e) => e.isConnected), 'Previous is the same element after Show all and back')
  await pagerButtons.prev.click() // the one kept: it goes to page 1
  await pm.waitForSelector('[data-test=tn-page-of][data-page="1"]')
  await pm.locator('[data-test=tn-pager]').scrollIntoViewIfNeeded()
  await pm.screenshot({path: path.join(OUT, 'arenapages-page1-390x844.png')})
  await pm.emulateMedia({colorScheme: 'dark'})
  await pm.waitForFunction(() => matchMedia('(prefers-color-scheme: dark)').matches)
  await pm.screenshot({path: path.join(OUT, 'arenapages-page1-390x844-dark.png')})
  await pm.setViewportSize({width: 1280, height: 800})
  await pm.screenshot({path: path.join(OUT, 'arenapages-1280x800-dark.png'), fullPage: true})
  await pm.emulateMedia({colorScheme: 'light'})
  assertNoErrors(pm)

  // In Korean, on a phone, for a guest (no My place): the pager's words, page 2 by a tap.
  const pk = await newPage(browser, {locale: 'ko-KR', viewport: {width: 390, height: 844}})
  await pk.goto(BASE + '/#/tournament/' + id)
  await pk.waitForSelector('[data-test=tn-pager]')
  assert.equal(await pk.textContent('[data-test=tn-page-of]'), '2쪽 중 1쪽')
  assert.equal(await pk.$('[data-test=tn-my-place]'), null)
  await pk.click('[data-test=tn-page-next]')
  await pk.waitForSelector('[data-test=tn-page-of][data-page="2"]')
  assert.equal(await pk.textContent('[data-test=tn-page-next]'), '다음 ›')
  await pk.locator('[data-test=tn-pager]').scrollIntoViewIfNeeded()
  await pk.screenshot({path: path.join(OUT, 'arenapages-ko-390x844.png')})
  assert.equal(await pk.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth), 0, 'sideways scroll at 390 px')
  assertNoErrors(pk)
})

test('pushes renew the page in place: Withdraw, the add-bots form (its count typed, its level chosen) and a bot\'s ✕ stay the same elements, and work', async () => {
  // A busy arena pushes its page several times a second. Drawn anew each
  // time, every button was replaced: a click pressed on one as a push came
  // was released on its replacement and did nothing, and a count typed in
  // the add-bots form went back to 1. The creator of an unrated arena that
  // admits bots joins it; others join (each a push that changes the page).
  const pm = await newPage(browser)
  const me = await registered(pm, 'rn')
  const created = await apiPaced(pm, 'POST', '/tournaments', {name: 'Renewed ' + me, format: 'arena', game: 'sgolte', minutes: 60, bots: true,
    clock: {kind: 'realtime', initialMs: 180000, incrementMs: 2000}, start: new Date(Date.now() + 3600e3).toISOString()})
  assert.equal(created.status, 201, JSON.stringify(created.body))
  const id = created.body.tournament.id
  assert.equal((await apiPaced(pm, 'POST', `/tournaments/${id}/join`, {})).status, 200)
  await pm.goto(BASE + '/#/tournament/' + id)
  await pm.waitForSelector('[data-test=tn-add-bots]')
  const kept = {
    withdraw: await pm.waitForSelector('[data-test=tn-withdraw]'),
    help: await pm.$('[data-test=tn-help]'),
    level: await pm.$('[data-test=tn-bot-level]'),
    count: await pm.$('[data-test=tn-bot-count]'),
    add: await pm.$('[data-test=tn-add-bot]'),
  }
  await kept.level.selectOption('random')
  await kept.count.fill('3') // (focus in the field: a push comes as one types)
  const players = () => pm.$$eval('[data-test=tn-players] li', (lis) => lis.map((li) => li.dataset.user))
  for (const n of [2, 3]) {
    const [who] = await joiners(id, 1, 'r')
    await pm.waitForSelector(`[data-test=tn-players] li[data-user="${who}"]`)
    assert.equal((await players()).length, n)
  }
  for (const [what, el] of Object.entries(kept)) assert.ok(await el.evaluate((e) => e.isConnected), `${what} is the same element after two joins`)
  assert.equal(await kept.count.inputValue(), '3', 'the count typed is kept through the pushes')
  assert.equal(await kept.level.inputValue(), 'random', 'the level chosen is kept through the pushes')
  assert.equal(await pm.evaluate(() => document.activeElement?.dataset.test), 'tn-bot-count', 'the count field keeps the focus')

  // The kept Add adds the count typed of the level chosen.
  await kept.add.click()
  await pm.waitForFunction(() => document.querySelectorAll('[data-test=tn-players] [data-test=tn-server-bot][data-level=random]').length === 3)
  assert.equal(await pm.inputValue('[data-test=tn-bot-count]'), '3')

  // Withdraw (drawn anew, disabled, while Add was under way) and a bot's ✕
  // stay through a push (one more joins); the kept Withdraw withdraws.
  const withdraw = await pm.$('[data-test=tn-withdraw]')
  const bot = (await players()).find((n) => /^random #/.test(n))
  const remove = await pm.$(`[data-test=tn-players] li[data-user="${bot}"] [data-test=tn-remove-bot]`)
  const [late] = await joiners(id, 1, 'r')
  await pm.waitForSelector(`[data-test=tn-players] li[data-user="${late}"]`)
  assert.ok(await withdraw.evaluate((e) => e.isConnected), 'Withdraw is the same element after a join')
  assert.ok(await remove.evaluate((e) => e.isConnected), "a bot's ✕ is the same element after a join")
  await withdraw.click()
  await pm.waitForSelector('[data-test=tn-join]')
  await pm.waitForSelector(`[data-test=tn-players] li.withdrawn[data-user="${me}"]`)
  // The ✕ (drawn anew while Withdraw was under way) takes its bot out.
  await pm.click(`[data-test=tn-players] li[data-user="${bot}"] [data-test=tn-remove-bot]`)
  await pm.waitForSelector(`[data-test=tn-players] li.withdrawn[data-user="${bot}"]`)
  assertNoErrors(pm)
})

test("a picked arena player's games come from GET .../games?player=NAME, asked once while unchanged", async () => {
  const pm = await newPage(browser)
  const me = await registered(pm, 'pk')
  const id = await upcomingArena(pm, 'Picked ' + me)
  const [x, y] = await joiners(id, 2, 'k')

  // The server's answer for x, held back until released, then replaced by 35 finished games against y.
  let release
  const held = new Promise((r) => {
    release = r
  })
  const asked = [] // the players whose games were asked for
  const games = Array.from({length: 35}, (_, i) => ({number: i + 1, boards: [{board: 1, white: i % 2 ? y : x, black: i % 2 ? x : y,
    gameId: 'g' + (i + 1), result: i % 3 === 2 ? '1/2-1/2' : i % 2 ? '0-1' : '1-0'}]}))
  const sheet = games.map((r, i) => (i % 3 === 2 ? 1 : 2))
  await pm.route(/\/api\/tournaments\/[^/]+\/games\?player=/, async (route) => {
    const who = new URL(route.request().url()).searchParams.get('player')
    asked.push(who)
    if (who === y) return route.fulfill({status: 500, contentType: 'application/json', body: JSON.stringify({error: {code: 'internal', message: 'no'}})})
    const real = await (await route.fetch()).json()
    assert.equal(real.player, x)
    await held
    return route.fulfill({json: {player: x, rounds: games, line: {...real.line, points: 58, sheet, fire: sheet.map(() => false), games: 35, wins: 23, draws: 12}}})
  })
  await pm.goto(BASE + '/#/tournament/' + id)
  await pm.waitForSelector(`tr[data-user="${x}"]`)
  await pm.click(`tr[data-user="${x}"] [data-test=tn-show-games]`)
  await pm.waitForSelector(`[data-test=tn-player-games][data-user="${x}"] [data-test=tn-pg-loading]`)
  release()
  await pm.waitForSelector(`[data-test=tn-player-games][data-user="${x}"] [data-test=tn-pg-game]`)
  const listed = await pm.$$eval('[data-test=tn-pg-game]', (rs) => rs.map((r) => [r.dataset.opp, r.querySelector('[data-test=tn-pg-result]').getAttribute('href'),
    r.querySelector('[data-test=tn-pg-result]').textContent, r.querySelector('[data-test=tn-pg-points]')?.textContent]))
  assert.deepEqual(listed, games.map((r, i) => [y, '#/game/g' + (i + 1), i % 3 === 2 ? 'draw' : 'won', String(sheet[i])]))
  assert.deepEqual(asked, [x])

  // Pushes (two more join) redraw the page; x's games are not asked for again.
  const more = await joiners(id, 2, 'm')
  await pm.waitForSelector(`tr[data-user="${more[1]}"]`)
  assert.equal(await pm.$$eval('[data-test=tn-pg-game]', (rs) => rs.length), 35)
  assert.deepEqual(asked, [x])

  // y's games fail: a short line says so, asked once through the pushes.
  await pm.click(`tr[data-user="${y}"] [data-test=tn-show-games]`)
  await pm.waitForSelector(`[data-test=tn-player-games][data-user="${y}"] [data-test=tn-pg-failed]`)
  await joiners(id, 1, 'n')
  await waitUntil(async () => (await pm.$$('[data-test=tn-standings] tbody tr')).length === 5, {what: 'the fifth line'})
  await pm.waitForSelector(`[data-test=tn-player-games][data-user="${y}"] [data-test=tn-pg-failed]`)
  assert.deepEqual(asked, [x, y])
  allowErrors(pm, /status of 500/)
  assertNoErrors(pm)
})

test('the finished games say how many earlier ones the answer leaves out (arena.finishedGames)', async () => {
  const pm = await newPage(browser)
  const me = await registered(pm, 'fg')
  const id = await upcomingArena(pm, 'Finished ' + me)
  const [x, y] = await joiners(id, 2, 'f')
  // The answer as a busy arena's: one board being played, the last 30 finished of 57.
  const real = (await apiPaced(pm, 'GET', '/tournaments/' + id)).body
  const busy = {...real, rounds: [...Array.from({length: 30}, (_, i) => ({number: 28 + i, boards: [{board: 1, white: x, black: y, gameId: 'f' + (28 + i), result: '1-0'}]})),
    {number: 58, boards: [{board: 1, white: y, black: x, gameId: 'f58', result: ''}]}], arena: {...real.arena, finishedGames: 57}}
  await pm.route(new RegExp(`/api/tournaments/${id}$`), (route) => route.fulfill({json: busy}))
  await pm.route(new RegExp(`/api/tournaments/${id}/events$`), (route) => route.fulfill({status: 200, contentType: 'text/event-stream',
    body: 'event: tournament\ndata: ' + JSON.stringify(busy) + '\n\n'}))
  await pm.goto(BASE + '/#/tournament/' + id)
  await pm.waitForSelector('[data-test=tn-arena-earlier]')
  assert.equal(await pm.textContent('[data-test=tn-arena-earlier]'), '… and 27 earlier')
  assert.equal(await pm.$$eval('[data-test=tn-arena-finished] [data-test=tn-arena-game]', (li) => li.length), 30)
  assert.equal(await pm.getAttribute('[data-test=tn-arena-finished] [data-test=tn-arena-game]', 'data-game'), 'f57') // the latest first
  assert.deepEqual(await pm.$$eval('[data-test=tn-arena-ongoing] [data-test=tn-game]', (as) => as.map((a) => a.getAttribute('href'))), ['#/game/f58'])
  assertNoErrors(pm)
})

test("one's own game and pause beyond the first 100 lines: the game from the boards being played, the line from the games endpoint", async () => {
  const pm = await newPage(browser)
  const me = await registered(pm, 'ow')
  const id = await upcomingArena(pm, 'Own ' + me)
  const [x] = await joiners(id, 1, 'o')
  assert.equal((await apiPaced(pm, 'POST', `/tournaments/${id}/join`, {})).status, 200)
  // The answer as a running arena's where one's line is past the first 100 (left out here), one's game being played.
  const real = (await apiPaced(pm, 'GET', '/tournaments/' + id)).body
  const mineLine = real.arena.standings.find((s) => s.name === me)
  const running = {...real, tournament: {...real.tournament, status: 'running'}, rounds: [{number: 1, boards: [{board: 1, white: me, black: x, gameId: 'own1', result: ''}]}],
    arena: {...real.arena, end: new Date(Date.now() + 1800e3).toISOString(), standings: real.arena.standings.filter((s) => s.name !== me)}}
  await pm.route(new RegExp(`/api/tournaments/${id}$`), (route) => route.fulfill({json: running}))
  await pm.route(new RegExp(`/api/tournaments/${id}/events$`), (route) => route.fulfill({status: 200, contentType: 'text/event-stream',
    body: 'event: tournament\ndata: ' + JSON.stringify(running) + '\n\n'}))
  const asked = []
  await pm.route(/\/api\/tournaments\/[^/]+\/games\?player=/, (route) => {
    asked.push(new URL(route.request().url()).searchParams.get('player'))
    return route.fulfill({json: {player: me, rounds: running.rounds, line: {...mineLine, rank: 101, playing: 'own1', paused: true}}})
  })
  await pm.goto(BASE + '/#/tournament/' + id)
  await pm.waitForSelector('[data-test=tn-my-game]')
  assert.equal(await pm.getAttribute('[data-test=tn-my-game]', 'href'), '#/game/own1')
  await pm.waitForSelector('[data-test=tn-resume]') // paused, as one's line says
  assert.deepEqual([...new Set(asked)], [me])
  assertNoErrors(pm)
})
