// The bot ladder's page (issue 26 item 5): two bot accounts join the
// Sgolte ladder through the API, the server pairs each with one of its
// levels at once, and the page (#/ladder/sgolte, from the top menu) shows
// the bots and the levels by rating — a level's fixed rating beside what
// its games measure —, their games and W/D/L, the head-to-head record and
// the latest games, updating by itself. Screenshots at 1280×800 and
// 390×844. The bots leave and resign at the end: the ladder plays on its
// own, and the shared server has other tests to run.

import {test, before, after} from 'node:test'
import assert from 'node:assert/strict'
import path from 'node:path'
import {launch, newPage, assertNoErrors, allowErrors, registered, api, waitUntil, nextRead, BASE, SHOTS} from './helpers.mjs'

let browser
before(async () => {
  browser = await launch()
})
after(async () => {
  await browser?.close()
})

const noSideways = (page) => page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)

// liveGame is the one live game of the page's user, once there is one.
async function liveGame(page, name) {
  return waitUntil(async () => {
    const r = await api(page, 'GET', '/games?user=' + name + '&status=live')
    return r.body?.games?.length === 1 ? r.body.games[0] : null
  }, {what: name + ' paired by the ladder', timeout: 20000})
}

test('the ladder pairs bots with the levels and its page shows ratings, W/D/L and head to head', async () => {
  const one = await newPage(browser, {viewport: {width: 1280, height: 800}})
  const two = await newPage(browser, {viewport: {width: 390, height: 844}})
  const names = []
  for (const page of [one, two]) {
    names.push(await registered(page, 'lad'))
    assert.equal((await api(page, 'POST', '/me/bot', {})).status, 200)
  }
  // A person cannot join: the page's error text for it exists.
  const person = await newPage(browser)
  await registered(person, 'lap')
  assert.equal((await api(person, 'POST', '/ladder/sgolte/join', {})).body.error.code, 'not_bot')
  allowErrors(person, /403/)

  // The first bot is paired with a level and resigns; the second is paired
  // and plays on.
  assert.equal((await api(one, 'POST', '/ladder/sgolte/join', {})).status, 200)
  const first = await liveGame(one, names[0])
  assert.ok(first.seats.some((s) => s.kind === 'bot'), 'the first ladder game is against a level')
  assert.equal((await api(one, 'POST', '/games/' + first.id + '/resign', {})).status, 200)
  assert.equal((await api(two, 'POST', '/ladder/sgolte/join', {maxGames: 1})).status, 200)
  const second = await liveGame(two, names[1])

  // The page, from the leaderboard (the top menu has no room for it at 1280 wide).
  await one.clock.install() // the page's 5 s are moved on by the test below
  await one.goto(BASE + '/#/leaderboard/sgolte')
  await one.click('[data-test=lb-ladder]')
  await one.waitForURL(/#\/ladder\/sgolte$/)
  await one.waitForSelector(`[data-test=ladder-table] tr[data-entrant="level:medium"]`)
  // It updates by itself: the first bot's loss and the second's game in progress.
  const row = (id) => `[data-test=ladder-table] tr[data-entrant="${id}"]`
  await waitUntil(async () => {
    const txt = await one.textContent('[data-test=ladder-table]')
    return txt.includes(names[0]) && txt.includes(names[1]) && /0–0–1/.test(await one.textContent(`[data-test=ladder-table] tr:has(a[href="#/user/${names[0]}"])`))
  }, {what: 'the first bot\'s loss on the page', timeout: 20000})
  const mediumRow = await one.textContent(row('level:medium'))
  assert.match(mediumRow, /2196/, 'the level is held at its calibrated rating, as the lobby shows it')
  assert.match(mediumRow, /fixed/)
  assert.ok(await one.isVisible(`tr:has(a[href="#/user/${names[0]}"]) [data-test=bot-badge]`), 'BOT beside a bot')
  await one.waitForSelector('[data-test=ladder-measured]')
  await one.waitForSelector('[data-test=ladder-h2h]')
  await one.waitForSelector(`[data-test=ladder-games] a[href="#/game/${first.id}"]`)
  await one.waitForSelector(`[data-test=ladder-games] a[href="#/game/${second.id}"]`)
  assert.ok(await noSideways(one))
  await one.screenshot({path: path.join(SHOTS, 'ladder-1280x800.png')})

  // It asks again every 5 s, and drew the page anew each time: a link
  // pressed as it came was released on its replacement. Renewed in place,
  // the links of a game listed are the same elements two reads later.
  const gameLink = await one.$(`[data-test=ladder-games] a[href="#/game/${first.id}"]`)
  const botLink = await one.$(`[data-test=ladder-games] li:has(a[href="#/game/${first.id}"]) a[href="#/user/${names[0]}"]`)
  for (let i = 0; i < 2; i++) await nextRead(one, (r) => new URL(r.url()).pathname === '/api/ladder/sgolte', 5000)
  assert.ok(await gameLink.evaluate((el) => el.isConnected), 'the game\'s link is the same element after two more reads')
  assert.ok(await botLink.evaluate((el) => el.isConnected), 'the bot\'s link is the same element after two more reads')
  await gameLink.click()
  await one.waitForURL(new RegExp('#/game/' + first.id + '$'))

  // A phone, in Korean too: nothing sideways.
  await two.goto(BASE + '/#/ladder/sgolte')
  await two.waitForSelector(`[data-test=ladder-games] a[href="#/game/${second.id}"]`)
  assert.ok(await noSideways(two), 'the ladder page scrolls sideways at 390 px')
  await two.screenshot({path: path.join(SHOTS, 'ladder-390x844.png'), fullPage: true})
  const ko = await newPage(browser, {locale: 'ko-KR', viewport: {width: 390, height: 844}})
  await ko.goto(BASE + '/#/ladder/sgolte')
  await ko.waitForSelector('[data-test=ladder-table]')
  assert.match(await ko.textContent('h1'), /봇 래더/)

  // Off the ladder, and the game in progress resigned.
  assert.equal((await api(one, 'POST', '/ladder/sgolte/leave', {})).status, 204)
  assert.equal((await api(two, 'POST', '/ladder/sgolte/leave', {})).status, 204)
  for (const [page, name] of [[one, names[0]], [two, names[1]]]) {
    for (const g of (await api(page, 'GET', '/games?user=' + name + '&status=live')).body.games) {
      assert.equal((await api(page, 'POST', '/games/' + g.id + '/resign', {})).status, 200)
    }
  }
  for (const page of [one, two, ko, person]) assertNoErrors(page)
  for (const page of [one, two, ko, person]) await page.context().close()
})
