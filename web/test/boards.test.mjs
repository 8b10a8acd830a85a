// How the Skjuub and Sploof boards read (issue 17, bugs 7 and 8): a skjuub
// is one leaning cube in its owner's colours whether active or not (an
// inactive one carries a mark instead of fading), overhangs past the edge
// stay in the margin and off the coordinates, a selected piece previews
// where a tumble lands and how it then leans; Sploof shows every level of
// the pyramid, and its coordinates stand clear of the tray and on screen.

import {test, before, after} from 'node:test'
import assert from 'node:assert/strict'
import {launch, newPage, assertNoErrors, guest, openGame, clickHit} from './helpers.mjs'

let browser
before(async () => {
  browser = await launch()
})
after(async () => {
  await browser?.close()
})

const overlap = (a, b) => a.left < b.right - 0.5 && b.left < a.right - 0.5 && a.top < b.bottom - 0.5 && b.top < a.bottom - 0.5
const box = (r) => ({left: r.left, right: r.right, top: r.top, bottom: r.bottom})

// Player 1 owns a1 (W), f6 (E), c3 and c4 would be connected with 2's; every
// edge piece leans out over the edge; c3 (1, N) and c4 (2, N) are inactive.
const edges = {game: 'skjuub', board: {a1: '1W', a6: '2N', f6: '1E', f1: '2S', c3: '1N', c4: '2N', d3: '1E', e5: '2W', b5: '1S'},
  pool: [6, 7], toMove: 1, phase: 'main', lastAction: ['', ''], turn: [3, 3]}

test('skjuub: one cube in its owner\'s colours, active or not; overhangs in the margin, off the coordinates', async () => {
  const page = await newPage(browser, {viewport: {width: 1280, height: 800}})
  await guest(page)
  await openGame(page, {game: 'skjuub', seats: [{kind: 'me'}, {kind: 'bot', level: 'random'}], position: edges})
  const r = await page.evaluate(() => {
    const svg = document.querySelector('.board-svg svg.skjuub')
    const hue = (c) => {
      const [r, g, b] = c.match(/[\d.]+/g).map(Number).map((v) => v / 255)
      const max = Math.max(r, g, b)
      const min = Math.min(r, g, b)
      if (max === min) return {h: null, s: 0}
      const d = max - min
      const h = max === r ? ((g - b) / d) % 6 : max === g ? (b - r) / d + 2 : (r - g) / d + 4
      return {h: (h * 60 + 360) % 360, s: d / (1 - Math.abs(max + min - 1))}
    }
    // a piece: the group that answers for its square
    const piece = (sq) => [...svg.querySelectorAll('[data-hit]')].find((e) => e.getAttribute('data-hit') === sq && e.querySelector('polygon'))
    const facts = {}
    for (const sq of ['a1', 'f6', 'c3', 'd3', 'c4', 'a6']) {
      const g = piece(sq)
      const cs = getComputedStyle(g)
      const fills = [...g.querySelectorAll('polygon')].filter((p) => !/arrow/.test(p.getAttribute('class') || ''))
        .map((p) => getComputedStyle(p).fill).filter((f) => f.startsWith('rgb'))
      facts[sq] = {opacity: Number(cs.opacity), filter: cs.filter, hues: fills.map(hue),
        mark: !!g.querySelector('.inactive-mark'), nfaces: fills.length}
    }
    const vb = svg.viewBox.baseVal
    const s = svg.getBoundingClientRect()
    const k = s.width / vb.width
    const frame = {left: s.left, top: s.top, right: s.left + vb.width * k, bottom: s.top + vb.height * k}
    const pieces = [...svg.querySelectorAll('[data-hit]')].filter((e) => e.querySelector('polygon'))
      .map((e) => ({sq: e.getAttribute('data-hit'), r: e.getBoundingClientRect().toJSON()}))
    const shadows = [...svg.querySelectorAll('.shadow')].map((e) => e.getBoundingClientRect().toJSON())
    const coords = [...svg.querySelectorAll('.coord')].map((e) => ({text: e.textContent, r: e.getBoundingClientRect().toJSON()}))
    return {facts, frame, pieces, shadows, coords}
  })
  // one hue per owner over every face, active or inactive alike
  const ownerHue = {1: null, 2: null}
  for (const [sq, owner] of [['a1', 1], ['f6', 1], ['c3', 1], ['d3', 1], ['c4', 2], ['a6', 2]]) {
    const f = r.facts[sq]
    assert.ok(f.nfaces >= 2, `${sq}: a solid of several faces, not a flat tile`)
    for (const {h, s} of f.hues) {
      assert.ok(s > 0.35, `${sq}: a face faded to grey (saturation ${s.toFixed(2)})`)
      if (ownerHue[owner] === null) ownerHue[owner] = h
      const d = Math.min(Math.abs(h - ownerHue[owner]), 360 - Math.abs(h - ownerHue[owner]))
      assert.ok(d < 20, `${sq}: every face in player ${owner}'s colour (hue ${h} vs ${ownerHue[owner]})`)
    }
    assert.equal(f.opacity, 1, `${sq}: not faded`)
    assert.equal(f.filter, 'none', `${sq}: not filtered`)
  }
  const hueGap = Math.abs(ownerHue[1] - ownerHue[2])
  assert.ok(Math.min(hueGap, 360 - hueGap) > 90, 'the two players\' colours differ clearly')
  assert.equal(r.facts.c3.mark, true, 'the inactive c3 carries a mark')
  assert.equal(r.facts.c4.mark, true, 'the inactive c4 carries a mark')
  assert.equal(r.facts.d3.mark, false, 'the active d3 carries none')
  // every piece and every overhang inside the drawing; no coordinate under one
  for (const p of [...r.pieces.map((p) => p.r), ...r.shadows]) {
    assert.ok(p.left >= r.frame.left - 0.5 && p.right <= r.frame.right + 0.5 && p.top >= r.frame.top - 0.5 && p.bottom <= r.frame.bottom + 0.5,
      'a piece or overhang past the drawing: ' + JSON.stringify(p))
  }
  assert.equal(r.coords.length, 12, 'files and ranks are written once each')
  for (const c of r.coords) {
    for (const p of [...r.pieces.map((p) => p.r), ...r.shadows]) assert.ok(!overlap(box(c.r), box(p)), `coordinate ${c.text} is covered`)
  }
  assertNoErrors(page)
  await page.context().close()
})

test('skjuub: a selected piece previews where each tumble lands and its new lean', async () => {
  const page = await newPage(browser)
  await guest(page)
  await openGame(page, {game: 'skjuub', seats: [{kind: 'me'}, {kind: 'bot', level: 'random'}],
    position: {game: 'skjuub', board: {b2: '1E', e5: '2N'}, pool: [10, 10], toMove: 1, phase: 'main', lastAction: ['', ''], turn: [1, 1]}})
  await clickHit(page, 'b2')
  await page.waitForSelector('.board-svg .preview')
  const previews = await page.$$eval('.board-svg .preview', (els) => els.map((e) => e.getAttribute('data-sq') + e.getAttribute('data-dir')).sort())
  // forward over c2, backward onto a2: either way it now leans west
  assert.deepEqual(previews, ['a2W', 'c2W'])
  assertNoErrors(page)
  await page.context().close()
})

// A pyramid filled but for its top: no line of four.
const tall = {game: 'sploof', levels: ['RRRR/RWBR/RBWR/RRRR', 'WWW/BWB/WWB', 'BW/BB', '.'], toMove: 'white',
  stock: {white: 2, black: 2}, supply: {white: 5, black: 6}}

for (const viewport of [{width: 1280, height: 800}, {width: 390, height: 844}]) {
  test(`sploof at ${viewport.width}×${viewport.height}: every level can be seen; the coordinates clear of the tray and on screen`, async () => {
    const page = await newPage(browser, {viewport})
    await guest(page)
    await openGame(page, {game: 'sploof', seats: [{kind: 'me'}, {kind: 'bot', level: 'random'}], position: tall})
    await page.waitForSelector('.sploof-levels')
    const levels = await page.$$eval('.sploof-levels .lv-ball', (els) => {
      const n = [0, 0, 0, 0, 0]
      for (const e of els) n[Number(e.getAttribute('data-level'))]++
      return n.slice(1)
    })
    assert.deepEqual(levels, [16, 9, 4, 0], 'the balls of each level, the hidden ones too')
    await page.evaluate(() => window.scrollTo(0, 0))
    const r = await page.evaluate(() => {
      const svg = document.querySelector('.board-svg svg.sploof')
      const tray = svg.querySelector('.tray').getBoundingClientRect().toJSON()
      const coords = [...svg.querySelectorAll('.coord')].map((e) => ({text: e.textContent, r: e.getBoundingClientRect().toJSON()}))
      const levels = document.querySelector('.sploof-levels').getBoundingClientRect().toJSON()
      return {tray, coords, levels, vw: innerWidth, vh: innerHeight}
    })
    assert.equal(r.coords.length, 14)
    for (const c of r.coords) {
      assert.ok(!overlap(box(c.r), box(r.tray)), `coordinate ${c.text} touches the tray`)
      if (viewport.width === 1280) {
        assert.ok(c.r.bottom <= r.vh && c.r.right <= r.vw && c.r.top >= 0, `coordinate ${c.text} is off the screen at 1280×800`)
      }
    }
    if (viewport.width === 1280) assert.ok(r.levels.bottom <= r.vh, 'the level view is on the screen')
    assertNoErrors(page)
    await page.context().close()
  })
}
