// The Skjuub board can be read at a glance (issue 27, point 2): every
// skjuub's base fills most of its own square and nothing of another piece
// lies over it, the overhang is drawn apart from the base, nothing is drawn
// past the board's frame (edge pieces leaning outward included), and an
// inactive skjuub is hatched with an SVG pattern, as the rules pages and
// the lessons say. Checked on the rendered geometry of several positions:
// the start, a busy middle game from a seeded random playout, and pieces
// on every edge leaning outward. Screenshots of the busy game at 1280×800
// and 390×844, light and dark, go to docs/screenshots/ with
// UPDATE_SCREENSHOTS=1 (web/test/out/ otherwise).

import {test, before, after} from 'node:test'
import assert from 'node:assert/strict'
import path from 'node:path'
import {launch, newPage, assertNoErrors, guest, api, BASE, SHOTS, settled} from './helpers.mjs'

let browser
before(async () => {
  browser = await launch()
})
after(async () => {
  await browser?.close()
})

const DIRS = {N: [0, 1], E: [1, 0], S: [0, -1], W: [-1, 0]}

/** inactiveSquares: a skjuub is inactive when an orthogonal neighbour leans the same way (docs/rules/skjuub.md). */
function inactiveSquares(board) {
  const out = new Set()
  for (const [sq, v] of Object.entries(board)) {
    const c = sq.charCodeAt(0)
    const r = Number(sq[1])
    for (const [dx, dy] of Object.values(DIRS)) {
      const n = String.fromCharCode(c + dx) + (r + dy)
      if (board[n] && board[n][1] === v[1]) out.add(sq)
    }
  }
  return out
}

/** mulberry32: a small seeded generator, so that the "random" middle game is the same every run. */
function mulberry32(seed) {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed)
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
}

/**
 * busyPosition plays seeded random legal actions with the rules engine
 * (POST /api/rules/skjuub) until the board holds at least `want` skjuubs
 * with some of them inactive, and returns that position.
 */
async function busyPosition(page, seed, want = 14) {
  const rnd = mulberry32(seed)
  const moves = []
  for (let i = 0; i < 120; i++) {
    // Up to 120 calls a position: kept under the site's 20 requests a
    // second (a refusal would be a console error on the page).
    await page.waitForTimeout(70)
    const res = await api(page, 'POST', '/rules/skjuub', {moves})
    assert.equal(res.status, 200, JSON.stringify(res.body))
    const {position, legal, status} = res.body
    const board = position.board || {}
    if (status !== 'ongoing' || !legal.length) return null
    if (Object.keys(board).length >= want && inactiveSquares(board).size >= 4) return position
    moves.push(legal[Math.floor(rnd() * legal.length)])
  }
  return null
}

/**
 * openPosition opens a game from a position with the page's user to move
 * (the bot waits for its turn), resigning the page's previous one (a user
 * may have only three bot games going).
 */
async function openPosition(page, position) {
  if (page.gameId) await api(page, 'POST', `/games/${page.gameId}/resign`, {})
  const me = {kind: 'me'}
  const bot = {kind: 'bot', level: 'random'}
  const res = await api(page, 'POST', '/games', {game: 'skjuub', seats: position.toMove === 2 ? [bot, me] : [me, bot], position})
  assert.equal(res.status, 201, JSON.stringify(res.body))
  page.gameId = res.body.game.id
  await page.goto(BASE + '/#/game/' + res.body.game.id)
  await page.waitForSelector('.board-svg svg.skjuub [data-hit]')
  await settled(page) // a fresh move's animation
}

/**
 * geometry reads the drawing: the frame, each square's rect, and for each
 * piece its base (the element with class "base", or, on a drawing without
 * one, its top face: the part that catches the eye), its aria label, the
 * fills of its elements, and the boxes of every drawn element.
 */
function geometry(page) {
  return page.evaluate(() => {
    const svg = document.querySelector('.board-svg svg.skjuub')
    const box = (e) => e.getBoundingClientRect().toJSON()
    const sqs = [...svg.querySelectorAll('rect.sq')]
    const squareRect = {}
    sqs.forEach((e, i) => {
      // squares carry their name (data-sq), or are drawn rank 1 first, a to f
      const name = e.getAttribute('data-sq') || String.fromCharCode(97 + (i % 6)) + (Math.floor(i / 6) + 1)
      squareRect[name] = box(e)
    })
    const pieces = {}
    for (const g of svg.querySelectorAll('.piece[data-hit]')) {
      const sq = g.getAttribute('data-hit')
      const base = g.querySelector('.base') || g.querySelector('.face-top')
      const fills = [...g.querySelectorAll('*')].map((e) => {
        const f = getComputedStyle(e).fill
        const m = /url\("?#([^")]+)"?\)/.exec(f)
        const ref = m && svg.ownerDocument.getElementById(m[1])
        return {fill: f, pattern: !!ref && ref.tagName === 'pattern', visible: e.getBoundingClientRect().width > 0}
      })
      const parts = [...g.querySelectorAll('rect, polygon, path, circle, text, line')]
        .filter((e) => !e.classList.contains('piece-hit') && e !== base)
        .map(box).filter((r) => r.width > 0 && r.height > 0)
      pieces[sq] = {base: base && box(base), label: g.getAttribute('aria-label') || '', fills, parts}
    }
    // every drawn element but the frame itself, the coordinates and pattern tiles
    const drawn = [...svg.querySelectorAll('rect, polygon, path, circle, text, line, polyline, ellipse')]
      .filter((e) => !e.closest('defs, pattern, .coord') && !e.classList.contains('frame') && !e.classList.contains('coord'))
      .map((e) => ({what: (e.closest('[data-hit]')?.getAttribute('data-hit') || '') + ' ' + e.tagName + '.' + (e.getAttribute('class') || ''), r: box(e)}))
      .filter(({r}) => r.width > 0 && r.height > 0)
    return {frame: box(svg.querySelector('.frame')), squareRect, pieces, drawn}
  })
}

const within = (a, b, tol = 0.75) => a.left >= b.left - tol && a.top >= b.top - tol && a.right <= b.right + tol && a.bottom <= b.bottom + tol
const overlapArea = (a, b) => Math.max(0, Math.min(a.right, b.right) - Math.max(a.left, b.left)) * Math.max(0, Math.min(a.bottom, b.bottom) - Math.max(a.top, b.top))

/** checkBoard asserts the readability facts for the position on the page. */
async function checkBoard(page, position, what) {
  const g = await geometry(page)
  const board = position.board || {}
  const inactive = inactiveSquares(board)
  assert.deepEqual(Object.keys(g.pieces).sort(), Object.keys(board).sort(), `${what}: one piece drawn per skjuub`)
  for (const [sq, p] of Object.entries(g.pieces)) {
    const cell = g.squareRect[sq]
    assert.ok(p.base, `${what}: ${sq} has a base drawn`)
    assert.ok(within(p.base, cell), `${what}: the base of ${sq} lies inside its own square: ${JSON.stringify(p.base)} vs ${JSON.stringify(cell)}`)
    const area = (r) => r.width * r.height
    assert.ok(area(p.base) >= 0.6 * area(cell), `${what}: the base of ${sq} fills most of its square (${(area(p.base) / area(cell)).toFixed(2)})`)
    assert.match(p.label, new RegExp('\\b' + sq + '\\b'), `${what}: ${sq}'s accessible label names its square`)
    // no part of another piece lies over this base
    for (const [other, q] of Object.entries(g.pieces)) {
      if (other === sq) continue
      for (const r of [q.base, ...q.parts]) {
        assert.ok(overlapArea(r, p.base) < 2, `${what}: part of ${other} lies over the base of ${sq}`)
      }
    }
    const hatched = p.fills.some((f) => f.pattern && f.visible)
    assert.equal(hatched, inactive.has(sq), `${what}: ${sq} is ${inactive.has(sq) ? 'inactive and hatched' : 'active and not hatched'}`)
  }
  for (const d of g.drawn) {
    assert.ok(within(d.r, g.frame), `${what}: ${d.what} is drawn past the frame: ${JSON.stringify(d.r)} vs ${JSON.stringify(g.frame)}`)
  }
}

// Every edge skjuub leans out over the edge: north on rank 6, east on file
// f, south on rank 1, west on file a, the corners both ways; b6-c6 and
// c1-d1 are connected pairs (inactive), so are c3-c4 inside.
const edges = {game: 'skjuub', board: {a6: '2N', b6: '1N', d6: '2N', f6: '1E', f4: '2E', f2: '1E', f1: '2S', d1: '1S', c1: '2S',
  a1: '1W', a3: '2W', a5: '1W', c3: '1N', c4: '2N', e3: '1W'}, pool: [3, 4], toMove: 1, phase: 'main', lastAction: ['', ''], turn: [6, 6]}
// The other corners leaning the other way out.
const corners = {game: 'skjuub', board: {a6: '1W', f6: '2N', f1: '1E', a1: '2S', c6: '1N', f3: '2E', b1: '1S', a4: '2W'},
  pool: [7, 7], toMove: 1, phase: 'main', lastAction: ['', ''], turn: [4, 4]}

test('skjuub board: each base inside its own square, nothing past the frame, inactive hatched (start, edges, busy)', async () => {
  const page = await newPage(browser, {viewport: {width: 1280, height: 800}})
  await guest(page)
  // the start: an empty board
  const start = (await api(page, 'POST', '/rules/skjuub', {})).body.position
  await openPosition(page, start)
  await checkBoard(page, start, 'start')
  for (const [name, pos] of [['edges', edges], ['corners', corners]]) {
    await openPosition(page, pos)
    await checkBoard(page, pos, name)
  }
  // busy middle games from seeded random playouts
  let seen = 0
  for (let seed = 1; seen < 3 && seed < 40; seed++) {
    const pos = await busyPosition(page, seed)
    if (!pos) continue
    await openPosition(page, pos)
    await checkBoard(page, pos, 'busy game ' + seed)
    seen++
  }
  assert.equal(seen, 3, 'three busy games were found')
  assertNoErrors(page)
  await page.context().close()
})

/**
 * playATurn plays the page's user's first legal action, then waits until
 * the bot has answered and it is the user's turn again; it returns the
 * position as the page now shows it (null if the game ended).
 */
async function playATurn(page) {
  const id = page.gameId
  let g = (await api(page, 'GET', '/games/' + id)).body
  const n = g.moves.length
  const res = await api(page, 'POST', `/games/${id}/moves`, {ply: n, move: g.legal[0]})
  assert.equal(res.status, 200, JSON.stringify(res.body))
  const deadline = Date.now() + 60000
  for (;;) {
    g = (await api(page, 'GET', '/games/' + id)).body
    if (g.game.status !== 'live') return null
    if (g.moves.length > n + 1 && g.legal && g.legal.length) break
    assert.ok(Date.now() < deadline, 'the bot answered within a minute')
    await page.waitForTimeout(200)
  }
  await page.waitForFunction((k) => document.querySelectorAll('[data-test=moves] li').length >= k, g.moves.length)
  await settled(page) // the last move's animation
  return {board: g.view.board}
}

test('skjuub board: screenshots of a busy middle game, light and dark, at 1280×800 and 390×844', async () => {
  // a busy position in which the user's first action and the bot's answer keep the game going
  for (let seed = 7; ; seed++) {
    assert.ok(seed < 40, 'a busy game that goes on')
    const setup = await newPage(browser, {viewport: {width: 1280, height: 800}})
    await guest(setup)
    const start = await busyPosition(setup, seed, 18)
    const after = start && (await openPosition(setup, start), await playATurn(setup))
    await setup.context().close()
    if (!after) continue
    for (const scheme of ['light', 'dark']) {
      for (const [w, h] of [[1280, 800], [390, 844]]) {
        const page = await newPage(browser, {viewport: {width: w, height: h}})
        await page.emulateMedia({colorScheme: scheme})
        await guest(page)
        let pos = null
        // the random bot answers differently each time; rarely its answer ends the game: then again
        for (let tries = 0; !pos && tries < 5; tries++) {
          await openPosition(page, start)
          pos = await playATurn(page)
        }
        assert.ok(pos, 'the game went on after a turn each')
        await checkBoard(page, pos, `${w}×${h} ${scheme}`)
        if (w === 390) await page.locator('.board-svg').scrollIntoViewIfNeeded()
        await page.screenshot({path: path.join(SHOTS, `skjuub-board-busy-${w}x${h}-${scheme}.png`)})
        assertNoErrors(page)
        await page.context().close()
      }
    }
    break
  }
})
