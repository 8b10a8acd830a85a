// The rating change of a rated game (issue 24 item 1): when a rated game
// ends, both players — and a spectator — see each seat's change ("+12",
// "−8") beside its name in the game room, and the players their own
// "Your rating: before → after" in the result, at once from the end
// message (the page is not reloaded); the profile's list of games shows
// the same changes; the "?" of the new players' provisional ratings is
// explained in words under the seats.

import {test, before, after} from 'node:test'
import assert from 'node:assert/strict'
import path from 'node:path'
import {launch, newPage, assertNoErrors, guest, BASE, OUT, apiPaced, registered} from './helpers.mjs'

let browser
before(async () => {
  browser = await launch()
})
after(async () => {
  await browser?.close()
})

const sign = (d) => (d > 0 ? '+' + d : d < 0 ? '\u2212' + -d : '±0')

/** move plays a legal move for whichever of pages is to move. */
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

/** seatChanges reads the game room's seats: each one's name, rating and rating change as shown. */
function seatChanges(page) {
  return page.$$eval('[data-test=seats] li', (lis) => lis.map((li) => ({
    user: li.querySelector('.who a')?.textContent,
    rating: li.querySelector('[data-test=rating]')?.textContent,
    change: li.querySelector('[data-test=rating-change]')?.textContent})))
}

test('a rated game: at its end both players and a spectator see the rating changes in the room without reloading, and the profile lists them', async () => {
  const a = await newPage(browser)
  const b = await newPage(browser)
  const an = await registered(a, 'rc')
  const bn = await registered(b, 'rc')
  const res = await apiPaced(a, 'POST', '/games', {game: 'sgolte', seats: [{kind: 'me'}, {kind: 'invite', user: bn}], rated: true})
  assert.equal(res.status, 201, JSON.stringify(res.body))
  const id = res.body.game.id
  assert.equal((await apiPaced(b, 'POST', `/games/${id}/join`, {})).status, 200)
  await move([a, b], id)
  await move([a, b], id)

  const watcher = await newPage(browser)
  await guest(watcher)
  for (const p of [a, b, watcher]) {
    await p.goto(BASE + '/#/game/' + id)
    await p.waitForSelector('[data-test=seats] li .who a')
    // a mark the page keeps only if it is not reloaded
    await p.evaluate(() => { window.__sameLoad = true })
  }
  // while the game is on: no change yet (and no rating: their first rated game)
  const during = await seatChanges(a)
  assert.deepEqual(during.map((s) => [s.user, s.rating, s.change]), [[an, undefined, undefined], [bn, undefined, undefined]])
  assert.equal(await a.$('[data-test=provisional-note]'), null)
  assert.equal(await a.textContent('[data-test=rated-note]'), 'A rated game: its result changes the players\' ratings.')

  b.once('dialog', (d) => d.accept())
  await b.click('[data-test=resign]')
  for (const p of [a, b, watcher]) {
    await p.waitForSelector('[data-test=result]:not([hidden])')
    await p.waitForFunction(() => document.querySelectorAll('[data-test=seats] [data-test=rating-change]').length === 2)
    assert.equal(await p.evaluate(() => window.__sameLoad), true, 'the page was not reloaded')
  }
  const g = (await apiPaced(a, 'GET', '/games/' + id)).body.game
  const want = g.seats.map((se) => sign(Math.round(se.ratingChange.delta)))
  assert.match(want[0], /^\+\d+$/, 'the winner gains')
  assert.match(want[1], /^\u2212\d+$/, 'the loser loses')
  for (const p of [a, b, watcher]) {
    const seats = await seatChanges(p)
    assert.deepEqual(seats.map((s) => s.change), want)
    // the rating beside the name is the one after the game, provisional ("?") after one game, and said so in words
    assert.deepEqual(seats.map((s) => s.rating), g.seats.map((se) => se.rating + '?'))
    assert.equal(await p.textContent('[data-test=provisional-note]'), 'A ? after a rating: provisional — too few rated games yet for it to be sure.')
    assert.equal(await p.isVisible('[data-test=provisional-note]'), true)
  }
  const c0 = g.seats[0].ratingChange
  const c1 = g.seats[1].ratingChange
  assert.equal(await a.textContent('[data-test=my-rating-change]'), `Your rating: ${Math.round(c0.before)} → ${Math.round(c0.after)} ${want[0]}`)
  assert.equal(await b.textContent('[data-test=my-rating-change]'), `Your rating: ${Math.round(c1.before)} → ${Math.round(c1.after)} ${want[1]}`)
  assert.equal(await watcher.$('[data-test=my-rating-change]'), null, 'a spectator has no rating of their own here')
  assert.equal(await a.getAttribute('[data-test=seats] li[data-seat="1"] [data-test=rating-change]', 'title'),
    `Rating ${Math.round(c1.before)} → ${Math.round(c1.after)}`)
  await a.screenshot({path: path.join(OUT, 'ratingchange-room-1280x900.png')})

  // Korean and Mongolian: the result's line translated
  await a.evaluate(() => import('/js/i18n.js').then((m) => m.setLang('ko')))
  await a.waitForFunction(() => document.documentElement.lang === 'ko' && /^내 레이팅/.test(document.querySelector('[data-test=my-rating-change]')?.textContent || ''))
  await a.evaluate(() => import('/js/i18n.js').then((m) => m.setLang('mn')))
  await a.waitForFunction(() => document.documentElement.lang === 'mn' && /^Таны үнэлгээ/.test(document.querySelector('[data-test=my-rating-change]')?.textContent || ''))
  await a.evaluate(() => import('/js/i18n.js').then((m) => m.setLang('en')))

  // the list of a player's games: the same changes beside both names
  await b.goto(BASE + '/#/user/' + an)
  const row = `[data-test=profile-games] .game-row:has(a[href="#/replay/${id}"])`
  await b.waitForSelector(row)
  assert.deepEqual(await b.$$eval(`${row} .player [data-test=rating-change]`, (xs) => xs.map((x) => x.textContent)), want)
  assert.match(await b.textContent('[data-test=profile-games] [data-test=provisional-note]'), /^A \? after a rating: provisional/)

  // the leaderboard says why a's provisional rating is not listed, and that inactivity does not drop anyone
  await a.goto(BASE + '/#/leaderboard/sgolte')
  await a.waitForSelector('[data-test=lb-you]')
  assert.match(await a.textContent('[data-test=lb-you]'), new RegExp(`^Your rating ${g.seats[0].rating} is provisional`))
  assert.match(await a.textContent('[data-test=lb-rule-more]'), /^There is no activity rule/)

  // on a phone (in the dark) the room's seats still fit: nothing sideways
  const phone = await newPage(browser, {viewport: {width: 390, height: 844}})
  await phone.emulateMedia({colorScheme: 'dark'})
  await guest(phone)
  await phone.goto(BASE + '/#/game/' + id)
  await phone.waitForFunction(() => document.querySelectorAll('[data-test=seats] [data-test=rating-change]').length === 2)
  assert.equal(await phone.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth), 0)
  // the name gives way, never the change: each change lies wholly inside its seat's box
  const clipped = await phone.$$eval('[data-test=seats] li', (lis) => lis.filter((li) => {
    const who = li.querySelector('.who').getBoundingClientRect()
    const c = li.querySelector('[data-test=rating-change]').getBoundingClientRect()
    return c.width === 0 || c.right > who.right + 0.5
  }).length)
  assert.equal(clipped, 0, 'a rating change is cut off on the phone')
  assert.equal(await phone.$$eval('[data-test=seats] li .who a', (as) => as.filter((a) => a.scrollWidth > a.clientWidth).length), 0,
    'a short name is cut off on the phone')
  assert.doesNotMatch(await phone.textContent('[data-test=result]'), /null/)
  await phone.screenshot({path: path.join(OUT, 'ratingchange-room-390x844-dark.png')})

  for (const p of [a, b, watcher, phone]) {
    assertNoErrors(p)
    await p.context().close()
  }
})
