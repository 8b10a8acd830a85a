// The server's own bots in a Skyjo table tournament (issue 25): ann creates
// an unrated table tournament that admits bots, of two rounds at tables of
// up to four; she and bob join, and on its page ann — its creator alone —
// adds two of the server's random bots (they show with their level, their
// number and BOT, no profile link), takes one out and adds it again. bob's
// page has no such form, and the server refuses him (403). At the start the
// four sit at one table whose game has a bot seat for each bot; the people
// play random moves through the API and the server plays its bots, round
// after round, until the tournament finishes: the standings and the podium
// show everyone, points written as "1.5" where halves. The page is kept up
// to date by the server's pushes: it shows the seated table, the results
// and the end without having asked (no GET of the tournament between).
// Each player's results by round (placement points · Skyjo points) link to
// the round's game, on a phone too without sideways scroll.
// Screenshots at 1280×800 and 390×844 (tournament-bots-*.png).

import {test, before, after} from 'node:test'
import assert from 'node:assert/strict'
import path from 'node:path'
import {launch, newPage, assertNoErrors, allowErrors, BASE, SHOTS, apiPaced, registered, waitUntil, playByApi} from './helpers.mjs'

let browser
before(async () => {
  browser = await launch()
})
after(async () => {
  await browser?.close()
})

async function sideways(page) {
  return page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth)
}

test('a Skyjo table tournament with the server\'s bots', async () => {
  const pa = await newPage(browser)
  const pb = await newPage(browser, {viewport: {width: 390, height: 844}})
  // A loaded machine (the browser files run four at a time) may take long over a first page.
  for (const p of [pa, pb]) p.setDefaultNavigationTimeout(60000)
  const [a, b] = [await registered(pa, 'sb'), await registered(pb, 'sb')]
  const start = new Date(Date.now() + 25000).toISOString()
  const created = await apiPaced(pa, 'POST', '/tournaments', {name: 'Bots at the table ' + a, format: 'tables', game: 'skyjo', rounds: 2,
    bots: true, options: {players: '4', target: '1'}, start})
  assert.equal(created.status, 201, JSON.stringify(created.body))
  const id = created.body.tournament.id
  for (const p of [pa, pb]) assert.equal((await apiPaced(p, 'POST', `/tournaments/${id}/join`, {})).status, 200)

  // Every GET of the tournament the creator's page makes, with what it said.
  const asked = []
  pa.on('response', async (res) => {
    if (new URL(res.url()).pathname === '/api/tournaments/' + id && res.request().method() === 'GET') {
      asked.push(await res.json().catch(() => null))
    }
  })
  await pa.goto(BASE + '/#/tournament/' + id)
  await pa.waitForSelector('[data-test=tn-add-bots]')
  await pb.goto(BASE + '/#/tournament/' + id)
  await pb.waitForSelector('[data-test=tn-players] li')
  assert.equal(await pb.$('[data-test=tn-add-bots]'), null, 'bob, not the creator, has the form')
  const refused = await apiPaced(pb, 'POST', `/tournaments/${id}/bots`, {level: 'random'})
  assert.equal(refused.status, 403, JSON.stringify(refused.body))
  allowErrors(pb, /status of 403/) // that refusal, on bob's console

  // ann adds two random bots, takes the first out and adds one more.
  await pa.selectOption('[data-test=tn-bot-level]', 'random')
  await pa.fill('[data-test=tn-bot-count]', '2')
  await pa.click('[data-test=tn-add-bot]')
  await pa.waitForFunction(() => document.querySelectorAll('[data-test=tn-players] [data-test=tn-server-bot]').length === 2)
  const botRow = await pa.$$eval('[data-test=tn-players] li', (lis) => lis.map((li) => ({
    text: li.textContent, link: !!li.querySelector('a'), badge: !!li.querySelector('[data-test=bot-badge]')})))
  assert.match(botRow[2].text, /^random #1BOT/)
  assert.equal(botRow[2].link, false)
  assert.equal(botRow[2].badge, true)
  await pa.click('[data-test=tn-players] li:nth-child(3) [data-test=tn-remove-bot]')
  await pa.waitForSelector('[data-test=tn-players] li.withdrawn')
  await pa.fill('[data-test=tn-bot-count]', '1')
  await pa.click('[data-test=tn-add-bot]')
  await pa.waitForFunction(() => document.querySelectorAll('[data-test=tn-players] li:not(.withdrawn) [data-test=tn-server-bot]').length === 2)
  // bob's page hears of the bots too.
  await pb.waitForFunction(() => document.querySelectorAll('[data-test=tn-players] li:not(.withdrawn) [data-test=tn-server-bot]').length === 2, null, {timeout: 40000})

  // The start: one table of four, two of its seats the server's bots.
  await pa.waitForSelector('[data-test=tn-round][data-round="1"] [data-test=tn-table]', {timeout: 60000})
  assert.ok(!asked.some((r) => r?.tables?.rounds?.length), 'the page learnt of the table by asking, not by a push')
  const seats = await pa.$$eval('[data-test=tn-round][data-round="1"] .tn-seats li', (lis) => lis.map((li) => li.dataset.user))
  assert.deepEqual([...seats].sort(), [a, b, 'random #2', 'random #3'].sort())
  const gameOf = async (round) => (await pa.getAttribute(`[data-test=tn-round][data-round="${round}"] a[data-test=tn-game]`, 'href')).split('/').pop()
  const g1 = await gameOf(1)
  const game = await waitUntil(async () => (await apiPaced(pa, 'GET', '/games/' + g1)).body?.game, {what: 'the table\'s game'})
  assert.deepEqual(game.seats.map((s) => s.kind === 'bot' ? s.level : s.user).sort(), [a, b, 'random', 'random'].sort())
  for (const [p, w, hh] of [[pa, 1280, 800], [pb, 390, 844]]) {
    await p.setViewportSize({width: w, height: hh})
    if (p === pb) await pb.waitForSelector('[data-test=tn-table]', {timeout: 40000})
    assert.ok(await sideways(p) <= 0, `sideways scroll at ${w}px`)
    await p.screenshot({path: path.join(SHOTS, `tournament-bots-${w}x${hh}.png`), fullPage: true})
  }

  // The people play their seats; the server plays its bots. Round 2 is
  // seated by the standings, and played the same way.
  await Promise.all([playByApi(pa, g1), playByApi(pb, g1)])
  await pa.waitForSelector('[data-test=tn-round][data-round="2"] [data-test=tn-table]', {timeout: 60000})
  const g2 = await gameOf(2)
  await waitUntil(async () => (await apiPaced(pa, 'GET', '/games/' + g2)).body?.game, {what: 'round 2\'s game'})
  await Promise.all([playByApi(pa, g2), playByApi(pb, g2)])
  await pa.waitForSelector('[data-test=tn-podium]', {timeout: 60000})
  assert.ok(!asked.some((r) => r?.tournament?.status === 'finished'), 'the page learnt of the end by asking, not by a push')

  const standings = await pa.$$eval('[data-test=tn-standings] tbody tr', (trs) => trs.map((tr) => ({
    user: tr.dataset.user, points: tr.querySelector('[data-test=tn-points]').textContent})))
  for (const n of [a, b, 'random #2', 'random #3']) assert.ok(standings.some((s) => s.user === n), n + ' in the standings: ' + JSON.stringify(standings))
  const total = standings.reduce((sum, s) => sum + Number(s.points), 0)
  assert.equal(total, 12, 'two tables of four hand out 6 points each: ' + JSON.stringify(standings))
  for (const s of standings) assert.match(s.points, /^\d+(\.\d+)?$/, 'points written with a dot, never ½')
  const podium = await pa.textContent('[data-test=tn-podium]')
  assert.doesNotMatch(podium, /½/)
  assert.match(podium, /random #\d|BOT|sb/)
  // Results by round: each player's two tables, linked to their games.
  const results = await pa.$$eval('[data-test=tn-table-results] tbody tr', (trs) => trs.map((tr) => ({user: tr.dataset.user,
    cells: [...tr.querySelectorAll('[data-test=tn-table-result]')].map((td) => [td.dataset.round, td.querySelector('a').getAttribute('href'), td.textContent])})))
  assert.deepEqual(results.map((r) => r.user), standings.map((s) => s.user), 'rows in the standings’ order')
  for (const r of results.filter((r) => r.user !== 'random #1')) {
    assert.deepEqual(r.cells.map(([n, href]) => [n, href]), [['1', '#/game/' + g1], ['2', '#/game/' + g2]], r.user)
    for (const [, , text] of r.cells) assert.match(text, /^\d+(\.\d+)? pts · -?\d+$/, r.user)
  }
  await pb.waitForSelector('[data-test=tn-table-results] [data-test=tn-table-result]', {timeout: 40000})
  assert.ok(await sideways(pb) <= 0, 'sideways scroll at 390px with the results by round')
  await pa.screenshot({path: path.join(SHOTS, 'tournament-bots-finished-1280x800.png'), fullPage: true})
  for (const p of [pa, pb]) assertNoErrors(p)
})
