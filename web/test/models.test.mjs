// The boards' rule-free models against the facts of the game specs:
// Sgolte's cell neighbours and group sizes, Sploof's pinned reds and
// winning lines, Skjuub's activity. Run in the browser, where the modules live.

import {test, before, after} from 'node:test'
import assert from 'node:assert/strict'
import {launch, newPage, assertNoErrors, BASE} from './helpers.mjs'

let browser
let page
before(async () => {
  browser = await launch()
  page = await newPage(browser)
  await page.goto(BASE + '/#/rules')
})
after(async () => {
  assertNoErrors(page)
  await browser?.close()
})

test('sgolte: neighbours and names of the spec (size 5), group sizes', async () => {
  const r = await page.evaluate(async () => {
    const m = await import('/js/games/sgolte/model.js')
    const g = m.geometry(5)
    const nb = (c) => [...g.byName.get(c).nb].sort().join(' ')
    const st = m.stones({black: ['d4', 'd5', 'd6', 'a1'], white: ['e3', 'e4']})
    return {cells: g.cells.length, e5: nb('e5'), a1: nb('a1'), i5: nb('i5'), rows: [5, 6, 7].map((n) => m.geometry(n).cells.length),
      black: m.groups(g, st, 'black').map((x) => x.size), white: m.groups(g, st, 'white').map((x) => x.size),
      parse: [m.parseMove('d4(e3,e4)'), m.parseMove('swap')]}
  })
  assert.equal(r.cells, 61)
  assert.deepEqual(r.rows, [61, 91, 127])
  assert.equal(r.e5, 'd4 d5 e4 e6 f4 f5')
  assert.equal(r.a1, 'a2 b1 b2')
  assert.equal(r.i5, 'h5 h6 i4')
  assert.deepEqual(r.black, [3, 1])
  assert.deepEqual(r.white, [2])
  assert.deepEqual(r.parse[0], {kind: 'place', cell: 'd4', flips: ['e3', 'e4']})
  assert.equal(r.parse[1].kind, 'swap')
})

test('sploof: point names, pinned reds and winning lines', async () => {
  const r = await page.evaluate(async () => {
    const m = await import('/js/games/sploof/model.js')
    const start = m.board({levels: ['RRRR/R..R/R..R/RRRR', '.../.../...', '../..', '.']})
    // the spec's two-ball-drop position
    const drop = m.board({levels: ['WBBB/BBWB/WBWR/WRWW', '.BW/.WB/BB.', '.W/..', '.']})
    const row = m.board({levels: ['WWWW/R..R/R..R/RRRR', '.../.../...', '../..', '.']})
    // level-2 balls (0,0) and (1,0) sit side by side over the contact of 1a3 and 1c3: row 3 is cut
    const cutRow = m.board({levels: ['RRRR/R..R/WWWW/RRRR', '.../B../B..', '../..', '.']})
    const crossed = m.board({levels: ['RRRR/R..R/WWWW/RRRR', '.../B../...', '../..', '.']})
    const stair = m.board({levels: ['W.../.W../..W./...W', '.../.../...', '../..', '.']})
    const zig = m.board({levels: ['RRRR/RRRR/RWRR/WRRR', '.../.W./W..', '../..', '.']})
    return {
      names: [m.pointName(1, 0, 0), m.pointName(2, 1, 1), m.pointName(3, 1, 0), m.pointName(4, 0, 0)],
      parse: m.parsePoint('2f4'),
      pinnedStart: m.points(start).filter((p) => p.ball === 'R' && m.pinned(start, p.r, p.c)).length,
      pinnedDrop: m.pinned(drop, 1, 3), // 1g3 holds only 2f4
      pinnedTwo: m.pinned(m.board({levels: ['RRRR/R..R/R..R/RRRR', '.../.../BB.', '../..', '.']}), 0, 1), // 1c1 holds 2b2 and 2d2
      lines: [m.lines(start), m.lines(row), m.lines(cutRow), m.lines(stair), m.lines(zig), m.lines(crossed)].map((ls) => ls.map((l) => l.colour + ':' + l.points.join(' '))),
    }
  })
  assert.deepEqual(r.names, ['1a1', '2d4', '3c5', '4d4'])
  assert.deepEqual(r.parse, {h: 2, r: 1, c: 2, x: 5, y: 3})
  assert.equal(r.pinnedStart, 0)
  assert.equal(r.pinnedDrop, false)
  assert.equal(r.pinnedTwo, true)
  assert.deepEqual(r.lines[0], [])
  assert.deepEqual(r.lines[1], ['W:1a7 1c7 1e7 1g7'])
  assert.deepEqual(r.lines[2], [], 'two level-2 balls side by side over a contact point cut the row')
  assert.deepEqual(r.lines[3], [], 'a diagonal within one level does not count')
  assert.ok(r.lines[4].includes('W:1a1 2b2 1c3 2d4'), 'a zigzag between levels counts: ' + r.lines[4])
  assert.deepEqual(r.lines[5], ['W:1a3 1c3 1e3 1g3'], 'one crossing ball does not cut a row')
})

test('skjuub: activity is a neighbour leaning the same way (spec test facts 1 and 2)', async () => {
  const r = await page.evaluate(async () => {
    const m = await import('/js/games/skjuub/model.js')
    const act = (board) => {
      const map = m.pieces({board})
      return [...map.keys()].sort().map((sq) => sq + ':' + (m.active(map, sq) ? 'active' : 'inactive')).join(' ')
    }
    return [act({b2: '1E', c2: '1E'}), act({b2: '1N', c2: '2N'}), act({b2: '1N', c2: '2S'}), act({b2: '1W', c2: '2E'}),
      m.parseAction('b2-b5'), m.parseAction('d4~d5'), m.parseAction('^a1'), m.parseAction('c3>'), m.parseAction('c3N')]
  })
  assert.equal(r[0], 'b2:inactive c2:inactive')
  assert.equal(r[1], 'b2:inactive c2:inactive')
  assert.equal(r[2], 'b2:active c2:active')
  assert.equal(r[3], 'b2:active c2:active')
  assert.deepEqual(r.slice(4), [{kind: 'slide', from: 'b2', to: 'b5'}, {kind: 'tumble', from: 'd4', to: 'd5'},
    {kind: 'pickup', sq: 'a1'}, {kind: 'turn', sq: 'c3', cw: true}, {kind: 'place', sq: 'c3', dir: 'N'}])
})
