// Sgolte's board shows its coordinates on its edges, as Sploof's and
// Skjuub's do, so that a move such as h2(g4,g5,h3) can be matched to the
// stones: each row's letter left and right of the row, outside every cell,
// and the cells' numbers under the bottom row and over the top one.

import {test, before, after} from 'node:test'
import assert from 'node:assert/strict'
import path from 'node:path'
import {launch, newPage, assertNoErrors, guest, openGame, playByApi, SHOTS} from './helpers.mjs'

let browser
before(async () => {
  browser = await launch()
})
after(async () => {
  await browser?.close()
})

for (const size of [5, 7]) {
  test(`sgolte size ${size}: row letters on both edges, cell numbers on the top and bottom rows`, async () => {
    const page = await newPage(browser, {viewport: {width: 1280, height: 800}})
    await guest(page)
    const id = await openGame(page, {game: 'sgolte', options: {size: String(size)}, seats: [{kind: 'me'}, {kind: 'bot', level: 'random'}]})
    await playByApi(page, id, 20)
    await page.waitForFunction(() => document.querySelectorAll('.board-svg svg.sgolte circle.stone').length >= 10)
    const got = await page.evaluate(() => {
      const svg = document.querySelector('.board-svg svg.sgolte')
      const frame = svg.getBoundingClientRect()
      const cells = [...svg.querySelectorAll('[data-hit]')].map((g) => {
        const r = g.querySelector('polygon').getBoundingClientRect()
        return {name: g.getAttribute('data-hit'), x: r.x + r.width / 2, y: r.y + r.height / 2, r}
      })
      // The edge labels only: a group's size drawn on its stones is a number too.
      const labels = [...svg.querySelectorAll('text.edge')].filter((t) => !t.closest('[data-hit]')).map((t) => {
        const r = t.getBoundingClientRect()
        return {text: t.textContent, x: r.x + r.width / 2, y: r.y + r.height / 2, r}
      })
      const inside = (r) => r.left >= frame.left - 0.5 && r.right <= frame.right + 0.5 && r.top >= frame.top - 0.5 && r.bottom <= frame.bottom + 0.5
      const overlaps = (a, b) => a.left < b.right && b.left < a.right && a.top < b.bottom && b.top < a.bottom
      return {cells, labels: labels.map((l) => ({...l, inside: inside(l.r), onCell: cells.some((c) => overlaps(l.r, c.r))}))}
    })
    const rows = new Map()
    for (const c of got.cells) {
      const row = c.name[0]
      if (!rows.has(row)) rows.set(row, [])
      rows.get(row).push(c)
    }
    assert.equal(rows.size, 2 * size - 1)
    for (const [row, cells] of rows) {
      cells.sort((a, b) => a.x - b.x)
      const y = cells[0].y
      const left = got.labels.filter((l) => l.text === row && l.x < cells[0].x && Math.abs(l.y - y) < 6)
      const right = got.labels.filter((l) => l.text === row && l.x > cells[cells.length - 1].x && Math.abs(l.y - y) < 6)
      assert.equal(left.length, 1, `row ${row}: a letter at its left end`)
      assert.equal(right.length, 1, `row ${row}: a letter at its right end`)
      for (const l of [...left, ...right]) assert.ok(l.inside && !l.onCell, `row ${row}: its letter inside the drawing and off the cells: ${JSON.stringify(l)}`)
    }
    const lettersRow = (k) => String.fromCharCode(97 + k)
    for (const [row, below] of [[lettersRow(0), true], [lettersRow(2 * size - 2), false]]) {
      for (const c of rows.get(row)) {
        const k = c.name.slice(1)
        const l = got.labels.filter((l) => l.text === k && Math.abs(l.x - c.x) < 3 && (below ? l.y > c.y : l.y < c.y) && Math.abs(l.y - c.y) < 60)
        assert.equal(l.length, 1, `cell ${c.name}: its number ${below ? 'under' : 'over'} it`)
        assert.ok(l[0].inside && !l[0].onCell, `cell ${c.name}: its number inside the drawing and off the cells`)
      }
    }
    if (size === 5) await page.screenshot({path: path.join(SHOTS, 'game-sgolte-coords-1280x800.png')})
    assertNoErrors(page)
    await page.context().close()
  })
}

test('sgolte on a phone: the edge labels are in view and the size 5 board needs no sideways scroll', async () => {
  const page = await newPage(browser, {viewport: {width: 390, height: 844}})
  await guest(page)
  await openGame(page, {game: 'sgolte', seats: [{kind: 'me'}, {kind: 'bot', level: 'random'}]})
  const got = await page.evaluate(() => {
    const host = document.querySelector('.board-svg')
    const box = host.getBoundingClientRect()
    const labels = [...host.querySelectorAll('text.edge')].map((t) => t.getBoundingClientRect())
    return {zoomed: host.classList.contains('zoomed'), scroll: host.scrollWidth - host.clientWidth, n: labels.length,
      out: labels.filter((r) => r.left < Math.max(box.left, 0) - 0.5 || r.right > Math.min(box.right, innerWidth) + 0.5).length}
  })
  assert.ok(got.n > 0 && !got.zoomed && got.scroll <= 1 && got.out === 0, JSON.stringify(got))
  await page.screenshot({path: path.join(SHOTS, 'game-sgolte-coords-390x844.png')})
  assertNoErrors(page)
  await page.context().close()
})
