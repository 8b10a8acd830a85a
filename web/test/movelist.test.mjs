// The game room's move list at 1280×800 as two people play with the chat
// open: it keeps at least 8 whole rows in view in every state — during
// play, after the game with the result, the rematch offer and the chat,
// and while looking back with the banner — and it follows the newest move
// unless the player scrolled it away.

import {test, before, after} from 'node:test'
import assert from 'node:assert/strict'
import path from 'node:path'
import {launch, assertNoErrors, twoPlayers, api, settled, SHOTS} from './helpers.mjs'

let browser
before(async () => {
  browser = await launch()
})
after(async () => {
  await browser?.close()
})

const WIDE = {width: 1280, height: 800}

/**
 * rows reads the move list as the player sees it: how many rows lie whole
 * inside both the list's box and the window, and the first and last of them.
 */
function rows(page) {
  return page.$eval('[data-test=moves]', (ol) => {
    // The visible box: the window cut by every box that clips the list.
    let top = 0
    let bottom = innerHeight
    for (let el = ol; el && el !== document.documentElement; el = el.parentElement) {
      const cs = getComputedStyle(el)
      if (el === ol || cs.overflowY !== 'visible') {
        const r = el.getBoundingClientRect()
        top = Math.max(top, r.top)
        bottom = Math.min(bottom, r.bottom)
      }
    }
    const seen = [...ol.children].filter((li) => {
      const r = li.getBoundingClientRect()
      return r.height > 0 && r.top >= top - 1 && r.bottom <= bottom + 1
    }).map((li) => Number(li.dataset.ply))
    // Rows cut at the list's own edges (the list shows whole rows).
    const lb = ol.getBoundingClientRect()
    const cut = [...ol.children].map((li) => li.getBoundingClientRect())
      .filter((r) => r.bottom > lb.top + 0.5 && r.top < lb.bottom - 0.5 && (r.top < lb.top - 0.5 || r.bottom > lb.bottom + 0.5)).length
    return {n: seen.length, first: seen[0], last: seen[seen.length - 1], total: ol.children.length, cut}
  })
}

/** playTo has whoever is to move play a legal move through the API until the game has n moves. */
async function playTo(pages, id, n) {
  for (let guard = 0; guard < 400; guard++) {
    for (const p of pages) {
      const g = (await api(p, 'GET', `/games/${id}`)).body
      if (g.moves.length >= n) return
      if (!g.legal || !g.legal.length) continue
      const res = await api(p, 'POST', `/games/${id}/moves`, {ply: g.moves.length, move: g.legal[g.moves.length % g.legal.length]})
      assert.ok(res.status === 200 || res.status === 201, JSON.stringify(res))
    }
  }
  assert.fail('the game did not reach ' + n + ' moves')
}

async function waitMoves(page, n) {
  await page.waitForFunction((n) => document.querySelectorAll('[data-test=moves] li').length >= n, n)
  await settled(page)
}

/**
 * scrollList scrolls the move list to its top or bottom as a player would
 * and waits until the page has had the scroll event (the list decides on
 * it whether to follow the newest move).
 */
function scrollList(page, where) {
  return page.$eval('[data-test=moves]', (ol, where) => new Promise((resolve) => {
    const to = where === 'top' ? 0 : ol.scrollHeight - ol.clientHeight
    if (Math.abs(ol.scrollTop - to) < 1) return resolve()
    ol.addEventListener('scroll', () => requestAnimationFrame(() => resolve()), {once: true})
    ol.scrollTop = to
  }), where)
}

test('the move list keeps 8 rows at 1280×800 and follows the newest move', async () => {
  const {alice, bob, id} = await twoPlayers(browser, {game: 'sgolte'}, WIDE)
  // Every state is looked at before the test fails, so that one run tells all.
  const faults = []
  const check = (ok, what) => { if (!ok) faults.push(what) }
  for (const p of [alice, bob]) await p.waitForSelector('[data-test=chat-input]')
  await alice.fill('[data-test=chat-input]', 'good luck')
  await alice.press('[data-test=chat-input]', 'Enter')
  await bob.waitForSelector('[data-test=chat-log] >> text=good luck')

  // During play: the newest move in view, at least 8 rows.
  await playTo([alice, bob], id, 14)
  await waitMoves(alice, 14)
  let r = await rows(alice)
  check(r.n >= 8, 'during play with the chat: ' + JSON.stringify(r))
  check(r.last === 14, 'the newest move in view during play: ' + JSON.stringify(r))
  check(r.cut === 0, 'whole rows: ' + JSON.stringify(r))
  await alice.screenshot({path: path.join(SHOTS, 'game-room-moves-playing-1280x800.png')})

  // Scrolled away, the list stays where the player put it as moves come.
  await scrollList(alice, 'top')
  await playTo([alice, bob], id, 16)
  await waitMoves(alice, 16)
  r = await rows(alice)
  check(r.first === 1, 'scrolled to the top, the list stays there: ' + JSON.stringify(r))
  // Back at the bottom, it follows again.
  await scrollList(alice, 'bottom')
  await playTo([alice, bob], id, 18)
  await waitMoves(alice, 18)
  r = await rows(alice)
  check(r.last === 18, 'following again: ' + JSON.stringify(r))

  // Looking back with the banner: still 8 rows, the row looked at among them.
  await alice.click('[data-test=moves] li[data-ply="3"] button')
  await alice.waitForSelector('[data-test=live]')
  r = await rows(alice)
  check(r.n >= 8, 'while looking back: ' + JSON.stringify(r))
  check(r.first <= 3 && r.last >= 3, 'the move looked at in view: ' + JSON.stringify(r))
  await alice.screenshot({path: path.join(SHOTS, 'game-room-moves-looking-back-1280x800.png')})
  await alice.click('[data-test=live]')

  // After the game: the result, a rematch offer and the chat.
  assert.equal((await api(bob, 'POST', `/games/${id}/resign`, {})).status, 200)
  await alice.waitForSelector('[data-test=rematch]')
  await bob.click('[data-test=rematch]')
  await alice.waitForSelector('[data-test=rematch-box] >> text=offers a rematch')
  await settled(alice)
  r = await rows(alice)
  check(r.n >= 8, 'after the game with the result, the offer and the chat: ' + JSON.stringify(r))
  check(r.last === 18, 'the last move in view after the game: ' + JSON.stringify(r))
  check(r.cut === 0, 'whole rows after the game: ' + JSON.stringify(r))
  await alice.screenshot({path: path.join(SHOTS, 'game-room-moves-after-1280x800.png')})
  await alice.emulateMedia({colorScheme: 'dark'})
  await alice.waitForFunction(() => matchMedia('(prefers-color-scheme: dark)').matches)
  await settled(alice)
  await alice.screenshot({path: path.join(SHOTS, 'game-room-moves-after-1280x800-dark.png')})
  assert.deepEqual(faults, [])
  for (const p of [alice, bob]) {
    assertNoErrors(p)
    await p.context().close()
  }
})

test('the rows of buttons keep their elements through the game’s events (a press is not lost to a redraw)', async () => {
  // The page draws its buttons again at every event of the game; a click
  // whose press and release land on two different elements is no click, so
  // a Resign (or Rematch) pressed as a move came in was lost — on a loaded
  // machine a test's click on Rematch was. The same buttons stay the same
  // elements; what changes is drawn anew.
  const {alice, bob, id} = await twoPlayers(browser, {game: 'sgolte'}, WIDE)
  await playTo([alice, bob], id, 4)
  await waitMoves(alice, 4)
  const resign = await alice.$('[data-test=resign]')
  const rules = await alice.$('.game-tools a[href^="#/rules/"]')
  await playTo([alice, bob], id, 8)
  await waitMoves(alice, 8)
  await bob.fill('[data-test=chat-input]', 'nice move')
  await bob.press('[data-test=chat-input]', 'Enter')
  await alice.waitForSelector('[data-test=chat-log] >> text=nice move')
  await settled(alice)
  assert.ok(await resign.evaluate((el) => el.isConnected), 'Resign is the same element after four moves and a chat line')
  assert.ok(await rules.evaluate((el) => el.isConnected), 'the Rules link is the same element after four moves and a chat line')
  // What changes is drawn anew: after the game, no Resign, and a Rematch.
  assert.equal((await api(bob, 'POST', `/games/${id}/resign`, {})).status, 200)
  await alice.waitForSelector('[data-test=rematch]')
  assert.equal(await resign.evaluate((el) => el.isConnected), false)
  await settled(alice)
  const rematch = await alice.$('[data-test=rematch]')
  await rematch.click()
  await bob.waitForSelector('[data-test=rematch-box] >> text=offers a rematch')
  assertNoErrors(alice)
  assertNoErrors(bob)
})
