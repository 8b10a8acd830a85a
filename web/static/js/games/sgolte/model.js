// Sgolte without the DOM: the hexhex geometry of docs/rules/sgolte.md, the
// position JSON, move text and group sizes. Rows are lettered from the
// bottom, cells numbered from 1 at the left of each row.

/** geometry(size) lists the cells with their row, number, centre (unit: hex circumradius 1) and neighbours. */
export function geometry(size) {
  const rows = 2 * size - 1
  const w = Math.sqrt(3)
  const cells = []
  const byName = new Map()
  for (let r = 0; r < rows; r++) {
    const len = size + Math.min(r, rows - 1 - r)
    const indent = Math.abs(r - (size - 1)) * w / 2
    for (let k = 1; k <= len; k++) {
      const name = String.fromCharCode(97 + r) + k
      const cell = {name, row: r, k, x: indent + (k - 1) * w, y: (rows - 1 - r) * 1.5, nb: []}
      cells.push(cell)
      byName.set(name, cell)
    }
  }
  // Neighbours are the cells one hex width away (same row, or the rows above and below).
  for (const a of cells) {
    for (const b of cells) {
      if (a !== b && Math.hypot(a.x - b.x, a.y - b.y) < w + 0.01) a.nb.push(b.name)
    }
  }
  return {size, rows, cells, byName, width: (2 * size - 2) * w + w, height: (rows - 1) * 1.5 + 2}
}

/** parseMove reads "d5", "d4(e3,e4)", "pass" or "swap". */
export function parseMove(text) {
  if (text === 'pass' || text === 'swap') return {kind: text, flips: []}
  const m = /^([a-z]\d+)(?:\((.*)\))?$/.exec(text)
  if (!m) return null
  return {kind: 'place', cell: m[1], flips: m[2] ? m[2].split(',') : []}
}

/** stones maps each occupied cell to 'black' or 'white'. */
export function stones(view) {
  const map = new Map()
  for (const c of view.black || []) map.set(c, 'black')
  for (const c of view.white || []) map.set(c, 'white')
  return map
}

/** groups lists the groups of colour, largest first: [{size, cells}]. */
export function groups(geo, stoneMap, colour) {
  const seen = new Set()
  const out = []
  for (const [cell, col] of stoneMap) {
    if (col !== colour || seen.has(cell)) continue
    const members = []
    const stack = [cell]
    seen.add(cell)
    while (stack.length) {
      const c = stack.pop()
      members.push(c)
      for (const n of geo.byName.get(c)?.nb || []) {
        if (!seen.has(n) && stoneMap.get(n) === colour) {
          seen.add(n)
          stack.push(n)
        }
      }
    }
    out.push({size: members.length, cells: members})
  }
  out.sort((a, b) => b.size - a.size)
  return out
}

/** colourOf is the colour seat plays: seat 0 is Black until a pie swap. */
export function colourOf(view, seat) {
  if (seat < 0) return null
  const first = view.swapped ? 'white' : 'black'
  return seat === 0 ? first : first === 'black' ? 'white' : 'black'
}

/** compareGroups: >0 when list a beats list b under the rules' comparison. */
export function compareGroups(a, b) {
  for (let i = 0; i < Math.max(a.length, b.length); i++) {
    const d = (a[i] || 0) - (b[i] || 0)
    if (d) return d
  }
  return 0
}

/**
 * moverColours is the colour each move was made with. A pie swap is made
 * by White; after it the seats play the other colours, and a seat's
 * present colour no longer names its earlier moves.
 */
export function moverColours(moves) {
  let swapped = false
  return moves.map((m) => {
    const colour = colourOf({swapped}, m.seat)
    if (m.move === 'swap') swapped = !swapped
    return colour
  })
}

/** isCapture: a placement that flips enemy stones (for the capture sound). */
export function isCapture(move) {
  const mv = parseMove(move)
  return !!(mv && mv.flips.length)
}
