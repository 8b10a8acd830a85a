// Sploof without the DOM: the pyramid's 30 points, the position JSON,
// pinned reds and winning lines as docs/rules/sploof.md defines them.
// Point (level h 1–4, level-row r, level-column c) is named
// <h><column a + 2c + h − 1><row 2r + h>, and sits at (x, y) = (2c + h − 1,
// 2r + h − 1) on the 7×7 top-view grid (y up).

export function pointName(h, r, c) {
  return `${h}${String.fromCharCode(97 + 2 * c + h - 1)}${2 * r + h}`
}

export function parsePoint(name) {
  const m = /^([1-4])([a-g])([1-7])$/.exec(name)
  if (!m) return null
  const h = Number(m[1])
  const x = m[2].charCodeAt(0) - 97
  const y = Number(m[3]) - 1
  return {h, r: (y - h + 1) / 2, c: (x - h + 1) / 2, x, y}
}

/** board reads the position's levels: cells[h][r][c] is 'W', 'B', 'R' or null. */
export function board(view) {
  const cells = [null]
  for (let h = 1; h <= 4; h++) {
    const n = 5 - h
    const rows = String((view.levels || [])[h - 1] || '').split('/')
    const lvl = []
    for (let r = 0; r < n; r++) {
      const text = rows[n - 1 - r] || '' // listed top row first
      const row = []
      for (let c = 0; c < n; c++) {
        const ch = text[c]
        row.push(ch === 'W' || ch === 'B' || ch === 'R' ? ch : null)
      }
      lvl.push(row)
    }
    cells.push(lvl)
  }
  return cells
}

/** points lists every point with its occupant, bottom level first. */
export function points(cells) {
  const out = []
  for (let h = 1; h <= 4; h++) {
    for (let r = 0; r < 5 - h; r++) {
      for (let c = 0; c < 5 - h; c++) {
        out.push({h, r, c, x: 2 * c + h - 1, y: 2 * r + h - 1, name: pointName(h, r, c), ball: cells[h][r][c]})
      }
    }
  }
  return out
}

/** supported: how many level-2 balls rest on the level-1 point (r, c). */
export function supported(cells, r, c) {
  let n = 0
  for (const [dr, dc] of [[0, 0], [-1, 0], [0, -1], [-1, -1]]) {
    const rr = r + dr
    const cc = c + dc
    if (rr >= 0 && rr < 3 && cc >= 0 && cc < 3 && cells[2][rr][cc]) n++
  }
  return n
}

/** pinned: a red that holds up two or more level-2 balls may not be removed. */
export function pinned(cells, r, c) {
  return cells[1][r][c] === 'R' && supported(cells, r, c) >= 2
}

/** topmost is the highest ball seen from above at top-view point (x, y), or null. */
function topmost(cells, x, y) {
  for (let h = 4; h >= 1; h--) {
    if ((x - h + 1) % 2 || (y - h + 1) % 2) continue
    const c = (x - h + 1) / 2
    const r = (y - h + 1) / 2
    const n = 5 - h
    if (r < 0 || c < 0 || r >= n || c >= n) continue
    if (cells[h][r][c]) return {ball: cells[h][r][c], name: pointName(h, r, c)}
  }
  return null
}

/** lines lists the winning lines on the board: [{colour: 'W'|'B', points: [names]}]. */
export function lines(cells) {
  const out = []
  const l2 = (r, c) => r >= 0 && r < 3 && c >= 0 && c < 3 && !!cells[2][r][c]
  for (let r = 0; r < 4; r++) {
    // Level-1 row r, cut between columns j and j+1 by level-2 balls (r-1, j) and (r, j).
    const row = [0, 1, 2, 3].map((c) => cells[1][r][c])
    let cut = false
    for (let j = 0; j < 3; j++) if (l2(r - 1, j) && l2(r, j)) cut = true
    if (!cut && row[0] !== 'R' && row[0] && row.every((b) => b === row[0])) {
      out.push({colour: row[0], points: [0, 1, 2, 3].map((c) => pointName(1, r, c))})
    }
  }
  for (let c = 0; c < 4; c++) {
    const col = [0, 1, 2, 3].map((r) => cells[1][r][c])
    let cut = false
    for (let j = 0; j < 3; j++) if (l2(j, c - 1) && l2(j, c)) cut = true
    if (!cut && col[0] !== 'R' && col[0] && col.every((b) => b === col[0])) {
      out.push({colour: col[0], points: [0, 1, 2, 3].map((r) => pointName(1, r, c))})
    }
  }
  for (const [dx, dy] of [[1, 1], [1, -1]]) {
    for (let x0 = 0; x0 < 7; x0++) {
      for (let y0 = 0; y0 < 7; y0++) {
        if ((x0 + y0) % 2) continue
        const x3 = x0 + 3 * dx
        const y3 = y0 + 3 * dy
        if (x3 < 0 || x3 > 6 || y3 < 0 || y3 > 6) continue
        const tops = [0, 1, 2, 3].map((i) => topmost(cells, x0 + i * dx, y0 + i * dy))
        if (tops.every((p) => p && p.ball !== 'R' && p.ball === tops[0].ball)) {
          out.push({colour: tops[0].ball, points: tops.map((p) => p.name)})
        }
      }
    }
  }
  return out
}

/** parseMove reads "1c3" (place) or "*1a1" (remove a red). */
export function parseMove(text) {
  if (text.startsWith('*')) return {kind: 'remove', point: text.slice(1)}
  return {kind: 'place', point: text}
}

/** isCapture: taking a red ball out (for the capture sound). */
export function isCapture(move) {
  return parseMove(move).kind === 'remove'
}
