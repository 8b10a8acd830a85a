// Skyjo's round scoreboard in the replay viewer: it shows a round's own
// points when the replay steps across that round's end, stays (the same
// Close button) through the next round's moves, and is not shown for a
// step back or a jump — where the points between the two positions are not
// one round's (before: a step back from a round's end showed a "round over"
// with negative points, a jump to the end the whole game's points).

import {test, before, after} from 'node:test'
import assert from 'node:assert/strict'
import {execFileSync} from 'node:child_process'
import {mkdtempSync, readFileSync} from 'node:fs'
import {tmpdir} from 'node:os'
import path from 'node:path'
import {launch, newPage, assertNoErrors, guest, api, serverProcess, resize, settled, BASE, OUT} from './helpers.mjs'

let browser
before(async () => {
  browser = await launch()
})
after(async () => {
  await browser?.close()
})

/** record plays a whole two-player game between greedy bots in the terminal (seed 2: four rounds). */
function record() {
  const file = path.join(mkdtempSync(path.join(tmpdir(), 'skyjo-')), 'game.json')
  execFileSync(serverProcess().bin, ['play', 'skyjo', '--p1', 'greedy', '--p2', 'greedy', '--seed', '2', '--record', file], {stdio: 'ignore'})
  return JSON.parse(readFileSync(file, 'utf8'))
}

test('skyjo: the replay shows a round\'s scoreboard when it steps across the round\'s end', async () => {
  const rec = record()
  const page = await newPage(browser)
  await guest(page)
  const res = await api(page, 'POST', '/records', {record: rec, mode: 'replay'})
  assert.equal(res.status, 201, JSON.stringify(res.body))
  const id = res.body.game.id
  const total = rec.moves.length

  // Where the rounds begin: the first ply of each round, from the replay API.
  const at = async (ply) => (await api(page, 'GET', `/games/${id}/replay?ply=${ply}`)).body.view
  const firstOf = async (round) => {
    let lo = 0, hi = total
    while (lo < hi) {
      const mid = (lo + hi) >> 1
      if ((await at(mid)).round >= round) hi = mid
      else lo = mid + 1
    }
    return lo
  }
  const last = await at(total)
  assert.ok(last.round >= 2, `the game has more than one round (it has ${last.round})`)
  const k = await firstOf(2) // the position after round 1 was scored
  const before = await at(k - 1), after = await at(k)
  assert.equal(before.round, 1)

  await page.goto(BASE + '/#/replay/' + id)
  await page.waitForSelector('[data-test=replay-ply]')

  // The move list names the round each round's first move begins.
  const starts = [1] // rows (data-ply: the position after the move) of each round's first move
  for (let r = 2; r <= last.round; r++) starts.push((await firstOf(r)) + 1)
  await page.waitForSelector(`[data-test=replay-moves] li[data-ply="${total}"]`)
  const marks = await page.$$eval('[data-test=replay-moves] [data-test=round-mark]', (els) => els.map((e) => [Number(e.closest('li').dataset.ply), e.textContent]))
  assert.deepEqual(marks, starts.map((ply, i) => [ply, `Round ${i + 1}`]))
  const ply = () => page.textContent('[data-test=replay-ply]')
  const show = async (n) => {
    await page.click(`[data-test=replay-moves] li[data-ply="${n}"] button`)
    await page.waitForFunction((n) => document.querySelector('[data-test=replay-ply]').textContent.startsWith(`move ${n} `), n)
  }
  const step = async (which) => {
    const was = await ply()
    await page.click(`[data-test=${which}]`)
    await page.waitForFunction((was) => document.querySelector('[data-test=replay-ply]').textContent !== was, was)
  }
  const board = () => page.$('[data-test=scoreboard]')

  // Round 1's last move, then one step: round 1's points.
  await show(k - 1)
  assert.equal(await board(), null)
  await step('next')
  const sb = await page.waitForSelector('[data-test=scoreboard]')
  assert.match(await sb.textContent(), /Round 1 is over/)
  // the move that ended round 1 is not marked on round 2's deal
  assert.equal(await page.locator('.skyjo-grid .last-card').count(), 0, 'no last move marked on the new deal')
  const rows = await sb.$$eval('tbody tr', (trs) => trs.map((tr) => [...tr.cells].map((c) => c.textContent)))
  assert.deepEqual(rows.map((r) => [Number(r[1]), Number(r[2])]),
    after.players.map((p, i) => [p.total - before.players[i].total, p.total]))

  for (const [size, scheme] of [[{width: 1280, height: 800}, 'light'], [{width: 390, height: 844}, 'dark']]) {
    await resize(page, size)
    await page.emulateMedia({colorScheme: scheme})
    await settled(page)
    await page.screenshot({path: path.join(OUT, `skyjo-replay-scoreboard-${size.width}x${size.height}-${scheme}.png`), fullPage: size.width < 500})
  }
  await resize(page, {width: 1280, height: 900})

  // The next round's move: the board is drawn again, the same Close stays.
  const close = await sb.$('button')
  await step('next')
  assert.ok(await close.evaluate((el) => el.isConnected), 'Close is the same button one move later')
  assert.equal(await page.locator('.skyjo-grid .last-card').count(), 1, 'the first flip of round 2 alone is marked')

  // Back before round 1's end: no scoreboard (it showed negative points).
  await step('prev')
  assert.ok(await close.evaluate((el) => el.isConnected), 'still after round 1')
  await step('prev')
  assert.equal(await board(), null)

  // A jump to the end spans every round: no scoreboard; a step across the
  // last round's end shows that round's.
  await step('last')
  assert.equal(await board(), null)
  await step('prev')
  assert.equal(await board(), null)
  const end = await at(total), ante = await at(total - 1)
  await step('next')
  const fin = await page.waitForSelector('[data-test=scoreboard]')
  assert.match(await fin.textContent(), new RegExp(`Round ${end.round} is over`))
  const finRows = await fin.$$eval('tbody tr', (trs) => trs.map((tr) => [...tr.cells].map((c) => Number(c.textContent))))
  assert.deepEqual(finRows.map((r) => [r[1], r[2]]), end.players.map((p, i) => [p.total - ante.players[i].total, p.total]))
  await (await fin.$('button')).click()
  await page.waitForSelector('[data-test=scoreboard]', {state: 'detached'})
  assertNoErrors(page)
  await page.context().close()
})

test('skyjo: the rounds of a game begun from a position are counted from its round', async () => {
  const page = await newPage(browser)
  await page.goto(BASE + '/#/rules')
  const got = await page.evaluate(async () => {
    const {roundStarts} = await import('/js/games/skyjo/model.js')
    const grid = (up) => [0, 1, 2].map((r) => [0, 1, 2, 3].map((c) => (r * 4 + c < up ? 5 : '?')))
    const view = (round, phase, up) => ({round, phase, players: [{grid: grid(up)}, {grid: grid(up)}]})
    const mv = (...ms) => ms.map((move) => ({move}))
    const endOfRound = mv('draw', 'flip a1', 'take', 'swap b2', 'flip a1', 'flip b1', 'flip c1', 'flip d1', 'draw', 'swap a1')
    return {
      fresh: roundStarts(mv('flip a1', 'flip b1', 'flip a1', 'flip b1', 'draw', 'flip c1', 'take', 'swap a1')),
      // round 3 mid-play: its moves begin no round; the next one is round 4
      midRound: roundStarts(endOfRound, view(3, 'choose', 6)),
      // round 3's deal, no card turned yet: its first flip begins round 3
      dealt: roundStarts(mv('flip a1', 'flip b1'), view(3, 'initial_flips', 0)),
      // round 3's flips half done: no mark
      halfFlipped: roundStarts(mv('flip a1', 'flip b1'), view(3, 'initial_flips', 1)),
      // a card drawn at the start: the flip after it is not an initial one
      drawn: roundStarts(mv('flip c3', 'take'), view(2, 'drawn', 4)),
    }
  })
  assert.deepEqual(got.fresh, [1, 0, 0, 0, 0, 0, 0, 0])
  assert.deepEqual(got.midRound, [0, 0, 0, 0, 4, 0, 0, 0, 0, 0])
  assert.deepEqual(got.dealt, [3, 0])
  assert.deepEqual(got.halfFlipped, [0, 0])
  assert.deepEqual(got.drawn, [0, 0])
  assertNoErrors(page)
  await page.context().close()
})
