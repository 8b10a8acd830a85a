// The lobby of issue 17: quick pairing (two players pressing the same game
// and clock meet in one live game; Cancel, closing the tab and "play a bot
// instead" abort the waiting game), the number of players online, ratings
// beside the players' names, a game from its creator's start (a kept deal
// is joined only on consent), errors in words, the options' names and
// values in every language; screenshots of the lobby at 1280×800 and 390×844.

import {test, before, after} from 'node:test'
import assert from 'node:assert/strict'
import path from 'node:path'
import {launch, newPage, assertNoErrors, guest, api, createGame, userName, keptDealGame, clickDeclining, waitUntil, nextRead, BASE, SHOTS} from './helpers.mjs'

let browser
before(async () => {
  browser = await launch()
})
after(async () => {
  await browser?.close()
})

const dictionary = (page, l) => page.evaluate((l) => import(`/js/lang/${l}.js`).then((m) => m.default), l)

async function lobby(page) {
  await page.goto(BASE + '/#/lobby')
  await page.waitForSelector('[data-test=pair-sgolte-none]')
}

/** waitStatus waits until the game's status is want. */
async function waitStatus(page, id, want) {
  await waitUntil(async () => (await api(page, 'GET', '/games/' + id)).body?.game?.status === want, {what: `game ${id} to be ${want}`})
}

/** registered makes the page's context a new registered user and returns the name. */
async function registered(page) {
  await page.goto(BASE + '/#/account')
  const name = 'r' + Math.random().toString(36).slice(2, 10)
  const res = await api(page, 'POST', '/users', {name, password: 'plum tree ' + Math.random().toString(36).slice(2)})
  assert.equal(res.status, 201, JSON.stringify(res.body))
  return name
}

/** move makes the first legal move of the page's user in game id. */
async function move(page, id) {
  const g = (await api(page, 'GET', '/games/' + id)).body
  assert.ok(g.legal?.length, 'no legal move: ' + JSON.stringify(g.game))
  const res = await api(page, 'POST', `/games/${id}/moves`, {ply: g.moves.length, move: g.legal[0]})
  assert.equal(res.status, 200, JSON.stringify(res.body))
}

/** ratedPlayer: a registered user who has finished a rated Sgolte game (won by the other's resignation). */
async function ratedPlayer() {
  const a = await newPage(browser)
  const b = await newPage(browser)
  const an = await registered(a)
  const bn = await registered(b)
  const g = await createGame(a, {game: 'sgolte', seats: [{kind: 'me'}, {kind: 'invite', user: bn}], rated: true})
  assert.equal((await api(b, 'POST', `/games/${g.id}/join`, {})).status, 200)
  await move(a, g.id)
  await move(b, g.id)
  assert.equal((await api(b, 'POST', `/games/${g.id}/resign`, {})).status, 200)
  const rating = (await api(a, 'GET', '/users/' + an)).body.ratings.find((r) => r.game === 'sgolte')
  assert.ok(rating && rating.games === 1, 'alice is rated after the game: ' + JSON.stringify(rating))
  await b.context().close()
  return {page: a, name: an, rating}
}

test('quick pairing: two players pressing the same game and clock land in the same live game', async () => {
  const alice = await newPage(browser)
  const bob = await newPage(browser)
  await lobby(alice)
  // each button's name says the game and the clock, its own words first
  assert.equal(await alice.getAttribute('[data-test=pair-sgolte-blitz]', 'aria-label'), 'Quick pairing: Sgolte, 5+3 (5 minutes + 3 seconds)')
  assert.equal(await alice.getAttribute('[data-test=pair-skyjo-none]', 'aria-label'), 'Quick pairing: Skyjo, No clock')
  await alice.click('[data-test=pair-sgolte-blitz]')
  await alice.waitForSelector('[data-test=pair-waiting]')
  assert.match(await alice.textContent('[data-test=pair-waiting]'), /Waiting for an opponent…\s*Sgolte · 5\+3/)
  const waiting = await alice.getAttribute('[data-test=pair-waiting]', 'data-id')
  assert.equal(await alice.$('[data-test=pair-skyjo-none]'), null, 'one search at a time')
  // The waiting time counts up (a loaded machine may show 0:02 before the
  // test's first look, so not exactly 0:01).
  await alice.waitForFunction(() => /^0:(0[1-9]|[1-5]\d)$/.test(document.querySelector('[data-test=pair-elapsed]')?.textContent ?? ''))

  await lobby(bob)
  await bob.click('[data-test=pair-sgolte-blitz]')
  // bob is seated in alice's game and goes there; alice's page follows on its own
  await bob.waitForURL('**/#/game/' + waiting)
  await alice.waitForURL('**/#/game/' + waiting)
  for (const p of [alice, bob]) await p.waitForSelector('.board-svg [data-hit]')
  const g = (await api(bob, 'GET', '/games/' + waiting)).body.game
  assert.equal(g.status, 'live')
  assert.deepEqual(g.clock, {kind: 'realtime', initialMs: 300000, incrementMs: 3000})
  assert.deepEqual(g.seats.map((se) => se.user).sort(), [await userName(alice), await userName(bob)].sort())
  assertNoErrors(alice)
  assertNoErrors(bob)
  await alice.context().close()
  await bob.context().close()
})

test('quick pairing: Cancel and closing the tab abort the waiting game; nobody is paired with it', async () => {
  const alice = await newPage(browser)
  const bob = await newPage(browser)
  await lobby(alice)
  await alice.click('[data-test=pair-sploof-correspondence]')
  await alice.waitForSelector('[data-test=pair-waiting]')
  const first = await alice.getAttribute('[data-test=pair-waiting]', 'data-id')
  await alice.click('[data-test=pair-cancel]')
  await alice.waitForSelector('[data-test=pair-sploof-correspondence]')
  assert.equal(await alice.$('[data-test=pair-waiting]'), null)
  await waitStatus(alice, first, 'aborted')

  // bob asks for the same: nobody waits any more, so bob waits in a game of his own
  await lobby(bob)
  await bob.click('[data-test=pair-sploof-correspondence]')
  await bob.waitForSelector('[data-test=pair-waiting]')
  const second = await bob.getAttribute('[data-test=pair-waiting]', 'data-id')
  assert.notEqual(second, first)
  // Browsing keeps the search (issue 27): Home shows it in the bar, whose Cancel ends it.
  await bob.click('[data-test=nav-home]')
  await bob.waitForSelector('.game-card')
  await bob.click('[data-test=pair-bar] [data-test=pair-cancel]')
  await waitStatus(bob, second, 'aborted')
  // closing or reloading the tab aborts it as well (a keepalive request as the page goes)
  await lobby(bob)
  await bob.click('[data-test=pair-sploof-correspondence]')
  await bob.waitForSelector('[data-test=pair-waiting]')
  const third = await bob.getAttribute('[data-test=pair-waiting]', 'data-id')
  await bob.reload()
  await waitStatus(bob, third, 'aborted')
  assertNoErrors(alice)
  assertNoErrors(bob)
  await alice.context().close()
  await bob.context().close()
})

test('quick pairing from the home page, then a bot instead of waiting', async () => {
  const page = await newPage(browser, {viewport: {width: 390, height: 844}})
  await page.goto(BASE + '/')
  await page.waitForSelector('[data-test=pair-skjuub]')
  await page.selectOption('[data-test=pair-clock]', 'rapid')
  await page.selectOption('[data-test=bot-level]', 'random')
  await page.click('[data-test=pair-skjuub]')
  await page.waitForSelector('[data-test=pair-bar] [data-test=pair-waiting]')
  assert.match(await page.textContent('[data-test=pair-waiting]'), /Skjuub · 15\+10/)
  const waiting = await page.getAttribute('[data-test=pair-waiting]', 'data-id')
  await page.click('[data-test=pair-bot]')
  await page.waitForURL(/#\/game\//)
  const id = page.url().split('#/game/')[1]
  assert.notEqual(id, waiting)
  const g = (await api(page, 'GET', '/games/' + id)).body.game
  assert.equal(g.game, 'skjuub')
  assert.deepEqual(g.seats.map((se) => se.kind), ['human', 'bot'])
  assert.equal(g.seats[1].level, 'random')
  assert.equal(g.clock.kind, 'realtime')
  await waitStatus(page, waiting, 'aborted')
  // the choice of clock is remembered
  await page.goto(BASE + '/')
  await page.waitForSelector('[data-test=pair-clock]')
  assert.equal(await page.inputValue('[data-test=pair-clock]'), 'rapid')
  assertNoErrors(page)
  await page.context().close()
})

test('the number of players online counts both players', async () => {
  const alice = await newPage(browser)
  const bob = await newPage(browser)
  await guest(alice)
  await guest(bob)
  await alice.clock.install() // alice's timers run on a clock the test can move on
  await lobby(alice)
  await lobby(bob)
  for (const p of [alice, bob]) {
    await p.waitForSelector('[data-test=online]:not([hidden])')
    const n = Number(await p.getAttribute('[data-test=online]', 'data-count'))
    assert.ok(n >= 2, 'players online: ' + n)
    assert.match(await p.textContent('[data-test=online]'), new RegExp(`^\\s*${n} players online$`))
  }
  // every 30 s, not more: the page asked once as it opened, not again
  // 20 s later, and once more by 35 s (the clock moved on by the test).
  // The installed clock runs with real time until it is paused, and on a
  // loaded machine the steps above can take more than 10 s, so the 30 s are
  // counted from a lobby opened again on a paused clock.
  // The page's now is read, then the pause asked for: on a loaded machine
  // the time between can pass the moment asked for ("Cannot fast-forward to
  // the past", a clean-clone .ci/run of 2026-12-03), so a moment that has
  // passed is asked for again, later.
  for (let margin = 100; ; margin *= 4) {
    try {
      await alice.clock.pauseAt(await alice.evaluate((m) => Date.now() + m, margin))
      break
    } catch (e) {
      if (!/to the past/.test(String(e)) || margin > 20000) throw e
    }
  }
  await alice.goto(BASE + '/#/learn')
  await alice.waitForSelector('[data-test=online]', {state: 'detached'})
  await lobby(alice)
  await alice.waitForSelector('[data-test=online]:not([hidden])')
  let asked = 0
  alice.on('request', (r) => { if (r.url().endsWith('/api/online')) asked++ })
  await alice.clock.runFor(20000)
  await api(alice, 'GET', '/session') // requests are told in order: any earlier one has been counted
  assert.equal(asked, 0)
  await alice.clock.runFor(15000)
  await waitUntil(() => asked === 1, {what: 'the count asked again after 30 s'})
  await api(alice, 'GET', '/session')
  assert.equal(asked, 1)
  // switching the language keeps the page (and a search in progress) and says it in Korean
  await alice.click('[data-test=pair-skyjo-correspondence]')
  await alice.waitForSelector('[data-test=pair-waiting]')
  const waiting = await alice.getAttribute('[data-test=pair-waiting]', 'data-id')
  await alice.selectOption('[data-test=lang]', 'ko')
  await alice.waitForFunction(() => document.querySelector('#pair-h')?.textContent === '빠른 대국')
  assert.match(await alice.textContent('[data-test=online]'), /^\s*\d+명 접속 중$/)
  assert.equal(await alice.getAttribute('[data-test=pair-waiting]', 'data-id'), waiting)
  assert.match(await alice.textContent('[data-test=pair-waiting]'), /상대를 기다리는 중…\s*스카이조 · 3일/)
  await alice.click('[data-test=pair-cancel]')
  await waitStatus(alice, waiting, 'aborted')
  assertNoErrors(alice)
  assertNoErrors(bob)
  await alice.context().close()
  await bob.context().close()
})

test("a rated player's rating stands beside the name in the lobby and on profiles", async () => {
  const {page: alice, name, rating} = await ratedPlayer()
  const g = await createGame(alice, {game: 'sgolte', options: {size: '6'}, seats: [{kind: 'me'}, {kind: 'open'}]})
  const viewer = await newPage(browser)
  await lobby(viewer)
  const row = `[data-test=open-games] li[data-id="${g.id}"]`
  await viewer.waitForSelector(row)
  const player = `${row} .player[data-seat="0"]`
  assert.equal(await viewer.textContent(`${player} .who`), name)
  assert.equal(await viewer.textContent(`${player} [data-test=rating]`), Math.round(rating.rating) + '?', 'provisional after one game')
  assert.match(await viewer.getAttribute(`${player} [data-test=rating]`, 'title'), /^Provisional rating \d+/)
  assert.equal(await viewer.$(`${row} .player[data-seat="1"] [data-test=rating]`), null, 'an open seat has no rating')
  // the name leads to the profile, whose list of games shows the rating too
  await viewer.click(`${player} a.who`)
  await viewer.waitForURL('**/#/user/' + name)
  await viewer.waitForSelector('.game-row [data-test=rating]')
  assert.equal(await viewer.textContent(`.game-row .player:has(a[href="#/user/${name}"]) [data-test=rating]`), Math.round(rating.rating) + '?')
  assertNoErrors(viewer)
  assertNoErrors(alice)
  await viewer.context().close()
  await alice.context().close()
})

test('screenshots of the lobby, wide and phone, English and Korean', async () => {
  const {page: alice} = await ratedPlayer()
  await createGame(alice, {game: 'sgolte', options: {size: '6'}, seats: [{kind: 'me'}, {kind: 'open'}]})
  const host = await newPage(browser)
  await guest(host)
  const live = await createGame(host, {game: 'skyjo', seats: [{kind: 'me'}, {kind: 'bot', level: 'easy'}, {kind: 'bot', level: 'medium'}], options: {players: '3'},
    clock: {kind: 'realtime', initialMs: 900000, incrementMs: 10000}})
  assert.equal(live.status, 'live')
  for (const [l, locale] of [['en', 'en-US'], ['ko', 'ko-KR']]) {
    for (const [w, hgt] of [[1280, 800], [390, 844]]) {
      const page = await newPage(browser, {locale, viewport: {width: w, height: hgt}})
      await lobby(page)
      await page.waitForSelector('[data-test=open-games] [data-test=rating]')
      await page.waitForSelector('[data-test=online]:not([hidden])')
      // nothing sticks out sideways
      assert.ok(await page.evaluate(() => document.documentElement.scrollWidth <= innerWidth), `${l} ${w}: no sideways scrolling`)
      await page.screenshot({path: path.join(SHOTS, `lobby-${l}-${w}x${hgt}.png`)})
      // and waiting for an opponent
      await page.click('[data-test=pair-sploof-blitz]')
      await page.waitForSelector('[data-test=pair-waiting]')
      await page.waitForSelector('[data-test=open-games] li:has(a[href^="#/game/"])')
      assert.ok(await page.evaluate(() => document.documentElement.scrollWidth <= innerWidth), `${l} ${w}: no sideways scrolling`)
      await page.screenshot({path: path.join(SHOTS, `lobby-waiting-${l}-${w}x${hgt}.png`)})
      await page.click('[data-test=pair-cancel]')
      await page.waitForSelector('[data-test=pair-sploof-blitz]')
      assertNoErrors(page)
      await page.context().close()
    }
  }
  await api(host, 'POST', `/games/${live.id}/resign`, {})
  await host.context().close()
  await alice.context().close()
})

test("a game that keeps its creator's deal says so in the lobby, and Join asks first", async () => {
  const alice = await newPage(browser)
  await guest(alice)
  const id = await keptDealGame(alice, 777)
  const bob = await newPage(browser)
  await lobby(bob)
  const row = `[data-test=open-games] li[data-id="${id}"]`
  await bob.waitForSelector(row)
  assert.equal(await bob.textContent(`${row} [data-test=start-tag]`), 'a record continued')
  assert.equal(await bob.textContent(`${row} [data-test=kept-deal]`), "creator's deal")
  // declined: nothing happens
  assert.match(await clickDeclining(bob, `[data-test=join-${id}]`), /may know them\. Join anyway\?/)
  assert.equal((await api(bob, 'GET', '/games/' + id)).body.game.status, 'open')
  // accepted: seated, and on to the game
  bob.once('dialog', (d) => d.accept())
  await bob.click(`[data-test=join-${id}]`)
  await bob.waitForURL('**/#/game/' + id)
  const g = (await api(bob, 'GET', '/games/' + id)).body.game
  assert.equal(g.status, 'live')
  assert.equal(g.seats[1].user, await userName(bob))
  assertNoErrors(alice)
  assertNoErrors(bob)
  await alice.context().close()
  await bob.context().close()
})

// The lists come again every 5 s, and were drawn anew each time: a Join
// pressed as they came was released on its replacement, and did nothing.
// Renewed in place (each row matched by its game, so a new game at the top
// does not move the others onto new elements), Join is the same button
// after two more refreshes, and joins.
test('Join is the same button after two more refreshes of the lists, and joins', async () => {
  const alice = await newPage(browser)
  await guest(alice)
  const g = await createGame(alice, {game: 'sgolte', seats: [{kind: 'me'}, {kind: 'open'}]})
  const bob = await newPage(browser)
  await bob.clock.install() // its 5 s are moved on by the test
  await lobby(bob)
  const join = await bob.waitForSelector(`[data-test=join-${g.id}]`)
  const profile = await bob.$(`[data-test=open-games] li[data-id="${g.id}"] .player[data-seat="0"] a.who`)
  const openRead = (r) => {
    const u = new URL(r.url())
    return u.pathname === '/api/games' && u.searchParams.get('status') === 'open'
  }
  await nextRead(bob, openRead, 5000)
  // a game opened meanwhile comes first: the rows below it stay
  const other = await createGame(alice, {game: 'sploof', seats: [{kind: 'me'}, {kind: 'open'}]})
  await nextRead(bob, openRead, 5000)
  await bob.waitForSelector(`[data-test=join-${other.id}]`)
  assert.ok(await join.evaluate((el) => el.isConnected), 'Join is the same button after two more refreshes and a new game above it')
  assert.ok(await profile.evaluate((el) => el.isConnected), 'the creator\'s profile link is the same element')
  await join.click()
  await bob.waitForURL('**/#/game/' + g.id)
  const got = (await api(bob, 'GET', '/games/' + g.id)).body.game
  assert.equal(got.status, 'live')
  assert.equal(got.seats[1].user, await userName(bob))
  assert.equal((await api(alice, 'POST', `/games/${other.id}/abort`, {})).status, 200)
  assertNoErrors(alice)
  assertNoErrors(bob)
  await alice.context().close()
  await bob.context().close()
})

test('Join goes with an Idempotency-Key: the copy a browser sends by itself is answered as the first', async () => {
  // A proxy that loses the server a request went to tells the browser it
  // was not processed, and the browser sends it again (docs/api.md).
  const alice = await newPage(browser)
  await guest(alice)
  const g = await createGame(alice, {game: 'sgolte', seats: [{kind: 'me'}, {kind: 'open'}]})
  const bob = await newPage(browser)
  await lobby(bob)
  const joined = bob.waitForRequest((r) => r.method() === 'POST' && r.url().endsWith(`/api/games/${g.id}/join`))
  await bob.click(`[data-test=join-${g.id}]`)
  const req = await joined
  const key = req.headers()['idempotency-key']
  assert.match(key || '', /^[0-9a-f]{24}$/)
  await bob.waitForURL('**/#/game/' + g.id)
  const again = (key) => bob.evaluate(async ([id, body, key]) => {
    const res = await fetch(`/api/games/${id}/join`, {method: 'POST', body,
      headers: {'Content-Type': 'application/json', ...(key ? {'Idempotency-Key': key} : {})}})
    return {status: res.status, body: await res.json()}
  }, [g.id, req.postData(), key])
  const copy = await again(key)
  assert.equal(copy.status, 200, JSON.stringify(copy.body))
  assert.equal(copy.body.game.seats[1].user, await userName(bob))
  assertNoErrors(alice)
  assertNoErrors(bob)
  // Without the key, the copy is a second join (whose 409 the console logs).
  assert.equal((await again(null)).body.error?.code, 'conflict')
  await alice.context().close()
  await bob.context().close()
})

test('errors of quick pairing are told in words, in the page’s language', async () => {
  const page = await newPage(browser, {locale: 'ko-KR'})
  await guest(page)
  // as many open games as a user may have (--max-open-games, 5 by default)
  const made = []
  for (let i = 0; i < 5; i++) made.push(await createGame(page, {game: 'skyjo', options: {players: '3'}, seats: [{kind: 'me'}, {kind: 'open'}, {kind: 'open'}]}))
  await lobby(page)
  await page.click('[data-test=pair-skyjo-rapid]')
  await page.waitForSelector('[data-test=pair-error]')
  const ko = await dictionary(page, 'ko')
  assert.equal(await page.textContent('[data-test=pair-error]'), ko['error.quota'])
  assert.equal(await page.isDisabled('[data-test=pair-skyjo-rapid]'), false, 'one may try again')
  // the refused request's 429 is the browser's console error, nothing else
  page.errors = page.errors.filter((e) => !/status of 429/.test(e))
  assertNoErrors(page)
  for (const g of made) assert.equal((await api(page, 'POST', `/games/${g.id}/abort`, {})).status, 200)
  await page.context().close()
})

test('every option of every game has its name and values in words in Korean and Mongolian', async () => {
  for (const l of ['ko', 'mn']) {
    const page = await newPage(browser, {locale: l === 'ko' ? 'ko-KR' : 'mn-MN'})
    await lobby(page)
    const catalog = (await api(page, 'GET', '/catalog')).body
    const dict = await dictionary(page, l)
    const en = await dictionary(page, 'en')
    for (const g of catalog.games) {
      await page.selectOption('[data-test=create-game]', g.name)
      await page.waitForSelector(`.create [data-option="${g.options[0].name}"]`)
      for (const o of g.options) {
        const key = `opt.${g.name}.${o.name}`
        const field = `.create [data-option="${o.name}"]`
        const label = (await page.textContent(`${field} label`)).trim()
        assert.ok(dict[key + '.name'] && label.startsWith(dict[key + '.name']), `${l} ${key}: label ${label}`)
        assert.notEqual(dict[key + '.name'], en[key + '.name'], `${l} ${key}: not translated`)
        assert.equal(await page.getAttribute(`${field} label`, 'title'), dict[key], `${l} ${key}: the rule as a tooltip`)
        for (const v of o.values || []) {
          const shown = (await page.textContent(`${field} select option[value="${v}"]`)).trim()
          assert.equal(shown, dict[`${key}.v.${v}`], `${l} ${key} = ${v}`)
          if (!/^\d+$/.test(v)) assert.notEqual(shown, v, `${l} ${key} = ${v}: a raw id`)
        }
      }
    }
    assertNoErrors(page)
    await page.context().close()
  }
})

test('an open game with no increment shows its clock as "1+0"', async () => {
  // The API leaves a zero increment out of the clock; the lobby's tag once
  // read "1+NaN".
  const page = await newPage(browser)
  await registered(page)
  const g = await createGame(page, {game: 'sgolte', seats: [{kind: 'me'}, {kind: 'open'}], clock: {kind: 'realtime', initialMs: 60000, incrementMs: 0}})
  assert.equal(g.clock?.incrementMs, undefined, 'the API still leaves the zero out: ' + JSON.stringify(g.clock))
  await lobby(page)
  const tag = page.locator(`li.lobby-row[data-id="${g.id}"] .row-title .tag`).first()
  await tag.waitFor()
  assert.equal(await tag.textContent(), '1+0')
  await assertNoErrors(page)
  await page.context().close()
})

test('a game for invited players only is in its players\' lobby, not in everyone\'s', async () => {
  // Before, every visitor saw it among the open games with a Join that
  // could only fail (and so saw who invited whom).
  const [alice, bob, carol] = [await newPage(browser), await newPage(browser), await newPage(browser)]
  for (const p of [alice, bob, carol]) await guest(p)
  const bn = await userName(bob)
  const invite = await createGame(alice, {game: 'sgolte', seats: [{kind: 'me'}, {kind: 'invite', user: bn}]})
  const open = await createGame(alice, {game: 'sgolte', seats: [{kind: 'me'}, {kind: 'open'}]})
  const row = (id) => `[data-test=open-games] li[data-id="${id}"]`
  for (const p of [alice, bob, carol]) {
    await lobby(p)
    await p.waitForSelector(row(open.id)) // the list is in
  }
  assert.equal(await carol.$(row(invite.id)), null, 'carol is not invited')
  // the invited player and the creator see it, newest first, and open its page
  for (const p of [alice, bob]) {
    await p.waitForSelector(row(invite.id))
    const ids = await p.$$eval('[data-test=open-games] li[data-id]', (lis) => lis.map((li) => li.dataset.id))
    assert.ok(ids.indexOf(invite.id) > ids.indexOf(open.id), 'older than the open game, below it')
  }
  await bob.click(`${row(invite.id)} a[href="#/game/${invite.id}"]`)
  await bob.waitForURL('**/#/game/' + invite.id)
  for (const p of [alice, bob, carol]) {
    assertNoErrors(p)
    await p.context().close()
  }
})
