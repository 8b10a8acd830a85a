// Profiles (issue 24 item 1): after three rated games a player's profile
// shows, per game, won/drawn/lost and the win rate, the current and best
// rating with "provisional" explained, a rating graph with a point per
// rated game, the streaks and time played, and the recent games with their
// rating changes linking to the replay; another registered user can block
// and unblock from it; a new player's profile says kindly that nothing is
// there yet. Screenshots at 1280×800 and 390×844, light and dark.

import {test, before, after} from 'node:test'
import assert from 'node:assert/strict'
import path from 'node:path'
import {launch, newPage, assertNoErrors, guest, BASE, SHOTS, OUT, apiPaced, registered} from './helpers.mjs'

let browser
before(async () => {
  browser = await launch()
})
after(async () => {
  await browser?.close()
})

/** move plays a legal move for whichever of pages is to move (Sploof's first player is drawn at random). */
async function move(pages, id) {
  for (const page of pages) {
    const g = (await apiPaced(page, 'GET', '/games/' + id)).body
    if (!g.legal?.length) continue
    const res = await apiPaced(page, 'POST', `/games/${id}/moves`, {ply: g.moves.length, move: g.legal[0]})
    assert.equal(res.status, 200, JSON.stringify(res.body))
    return
  }
  assert.fail('nobody may move in ' + id)
}

/** ratedGame: a creates a rated game of game inviting bn, each moves once, loser resigns. */
async function ratedGame(a, b, bn, game, loser) {
  const res = await apiPaced(a, 'POST', '/games', {game, seats: [{kind: 'me'}, {kind: 'invite', user: bn}], rated: true})
  assert.equal(res.status, 201, JSON.stringify(res.body))
  const id = res.body.game.id
  assert.equal((await apiPaced(b, 'POST', `/games/${id}/join`, {})).status, 200)
  await move([a, b], id)
  await move([a, b], id)
  assert.equal((await apiPaced(loser, 'POST', `/games/${id}/resign`, {})).status, 200)
  return id
}

const sign = (d) => (d > 0 ? '+' + d : d < 0 ? '\u2212' + -d : '±0')

test("a profile after three rated games shows the record, the rating graph and the recent games' rating changes; block and unblock", async () => {
  const a = await newPage(browser)
  const b = await newPage(browser)
  const an = await registered(a, 'pf')
  const bn = await registered(b, 'pf')
  // a's new profile, before any game, says so kindly
  await b.goto(BASE + '/#/user/' + an)
  assert.match(await b.textContent('[data-test=profile-empty]'), new RegExp('^' + an + ' has not finished a game yet'))
  await b.waitForSelector('[data-test=block-toggle]')

  const ids = []
  for (const loser of [b, a, b]) ids.push(await ratedGame(a, b, bn, 'sgolte', loser))
  const stats = (await apiPaced(b, 'GET', `/users/${an}/stats`)).body
  const g = stats.games.find((x) => x.game === 'sgolte')
  assert.deepEqual([g.won, g.drawn, g.lost, g.rating.history.length, g.rating.provisional], [2, 0, 1, 3, true])

  await b.goto(BASE + '/#/leaderboard/sgolte') // a different page first: the profile is drawn afresh
  await b.goto(BASE + '/#/user/' + an)
  const card = '[data-test=profile-game-sgolte]'
  await b.waitForSelector(card)
  assert.equal(await b.textContent(card + ' [data-test=profile-record]'), 'Won 2 · drawn 0 · lost 1 · win rate 67%')
  assert.equal(await b.$('[data-test=profile-total]'), null, 'one game: no sum of it')
  assert.match(await b.textContent(card + ' [data-test=profile-rating]'),
    new RegExp(`^Rating ${Math.round(g.rating.rating)} ±${Math.round(g.rating.deviation)} · best ${Math.round(g.rating.best)} provisional$`))
  assert.match(await b.textContent(card + ' [data-test=profile-provisional]'), new RegExp(`uncertainty ±${Math.round(g.rating.deviation)} is above ±110`))
  assert.match(await b.textContent(card + ' [data-test=profile-streak]'), /^Winning streak: 1 now, best 1 · time played /)
  // Polled on a timer, not on animation frames, and saying what it saw: a
  // clean-clone .ci/run waited out its 45 s here once, unexplained (two
  // draws of the page? its frames not coming?).
  await b.waitForFunction(() => document.querySelectorAll('[data-test=rating-point]').length === 3, null, {polling: 100})
    .catch(async (e) => assert.fail(`${e.message}: ${await b.$$eval('[data-test=rating-point]', (ps) => ps.length)} rating points in ${await b.$$eval('[data-test=profile-game-sgolte]', (cs) => cs.length)} Sgolte cards`))
  // the points climb and fall with the results: up, down, up
  const ys = await b.$$eval('[data-test=rating-point]', (cs) => cs.map((c) => Number(c.getAttribute('cy'))))
  assert.ok(ys[1] > ys[0] && ys[2] < ys[1], 'the graph follows win, loss, win: ' + ys)
  assert.equal(await b.$$eval('.rating-graph text.axis-name', (ts) => ts.map((x) => x.textContent).join()), 'rated games')

  // recent games: newest first, each with its result, its rating change and a link to the game
  const rows = await b.$$eval('[data-test=recent-game]', (lis) => lis.map((li) => ({
    outcome: li.dataset.outcome, change: li.querySelector('[data-test=rating-change]')?.textContent, href: li.querySelector('a.button').getAttribute('href')})))
  assert.deepEqual(rows, stats.recent.map((r) => ({outcome: r.outcome, change: sign(Math.round(r.ratingChange.delta)), href: '#/replay/' + r.id})))
  assert.deepEqual(rows.map((r) => r.outcome), ['win', 'loss', 'win'])
  assert.deepEqual(rows.map((r) => r.href), ids.reverse().map((id) => '#/replay/' + id))
  assert.match(rows[0].change, /^\+\d+$/)
  assert.match(rows[1].change, /^\u2212\d+$/)
  // the opponent's name leads to their profile
  assert.equal(await b.textContent('[data-test=recent-game] [data-test=opponents]'), 'against ' + bn)
  assert.equal(await b.getAttribute('[data-test=recent-game] [data-test=opponents] a', 'href'), '#/user/' + bn)

  // block, then unblock, from the profile
  assert.equal(await b.textContent('[data-test=block-toggle]'), 'Block')
  await b.click('[data-test=block-toggle]')
  await b.waitForFunction(() => document.querySelector('[data-test=block-toggle]').textContent === 'Unblock')
  assert.deepEqual((await apiPaced(b, 'GET', '/blocks')).body.blocks.map((x) => x.user), [an])
  await b.reload()
  await b.waitForFunction(() => document.querySelector('[data-test=block-toggle]')?.getAttribute('aria-pressed') === 'true')
  await b.click('[data-test=block-toggle]')
  await b.waitForFunction(() => document.querySelector('[data-test=block-toggle]').textContent === 'Block')
  assert.deepEqual((await apiPaced(b, 'GET', '/blocks')).body.blocks, [])

  // a second game: its own card (one point on its graph), and a line summing both
  await ratedGame(a, b, bn, 'sploof', b)
  await b.goto(BASE + '/#/leaderboard/sgolte')
  await b.goto(BASE + '/#/user/' + an)
  await b.waitForSelector('[data-test=profile-game-sploof] [data-test=rating-point]')
  assert.match(await b.textContent('[data-test=profile-total]'), /^Games: Won 3 · drawn 0 · lost 1 · win rate 75% · time played /)
  assert.equal(await b.textContent('[data-test=profile-game-sploof] [data-test=profile-record]'), 'Won 1 · drawn 0 · lost 0 · win rate 100%')
  assert.equal(await b.$$eval('[data-test=profile-game-sgolte] [data-test=rating-point]', (cs) => cs.length), 3)

  // no block button on one's own profile, nor for a guest
  await a.goto(BASE + '/#/user/' + an)
  await a.waitForSelector('[data-test=recent-game]')
  assert.equal(await a.$('[data-test=block-toggle]'), null)
  const gp = await newPage(browser)
  await guest(gp)
  await gp.goto(BASE + '/#/user/' + an)
  await gp.waitForSelector('[data-test=recent-game]')
  assert.equal(await gp.$('[data-test=block-toggle]'), null)
  assertNoErrors(gp)
  await gp.context().close()

  // the graph is there even where the page is never laid out again: drawn
  // when made, not only when a ResizeObserver first reports its size (a
  // clean-clone run under load waited 45 s for the points here)
  const still = await newPage(browser)
  await still.addInitScript(() => { window.ResizeObserver = class { observe() {} unobserve() {} disconnect() {} } })
  await still.goto(BASE + '/#/user/' + an)
  await still.waitForSelector('[data-test=recent-game]')
  assert.equal(await still.$$eval('[data-test=profile-game-sgolte] [data-test=rating-point]', (cs) => cs.length), 3)
  await still.context().close()

  // Mongolian, on a phone: translated, and nothing sideways
  const mn = await newPage(browser, {viewport: {width: 390, height: 844}})
  await mn.goto(BASE + '/#/user/' + an)
  await mn.waitForSelector('[data-test=rating-point]')
  await mn.evaluate(() => import('/js/i18n.js').then((m) => m.setLang('mn')))
  await mn.waitForFunction(() => document.documentElement.lang === 'mn' && document.querySelectorAll('[data-test=rating-point]').length === 4)
  assert.equal(await mn.textContent('[data-test=profile-game-sgolte] [data-test=profile-record]'), 'Хожсон 2 · тэнцсэн 0 · хожигдсон 1 · хожлын хувь 67%')
  assert.equal(await mn.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth), 0)
  await mn.screenshot({path: path.join(OUT, 'profile-mn-390x844.png'), fullPage: true})
  assertNoErrors(mn)
  await mn.context().close()

  for (const [w, hgt] of [[1280, 800], [390, 844]]) {
    for (const scheme of ['light', 'dark']) {
      const page = await newPage(browser, {viewport: {width: w, height: hgt}})
      await page.emulateMedia({colorScheme: scheme})
      await page.goto(BASE + '/#/user/' + an)
      await page.waitForFunction(() => document.querySelectorAll('[data-test=rating-point]').length === 4)
      const sideways = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth)
      assert.equal(sideways, 0, `no sideways scroll at ${w}px`)
      await page.screenshot({path: path.join(SHOTS, `profile-${w}x${hgt}-${scheme}.png`), fullPage: true})
      assertNoErrors(page)
      await page.context().close()
    }
  }
  for (const p of [a, b]) {
    assertNoErrors(p)
    await p.context().close()
  }
})
