// Skjuub without the DOM: squares, the position JSON, activity (a skjuub is
// inactive exactly when an orthogonal neighbour leans the same way) and
// the action notation of docs/rules/skjuub.md.

export const DIRS = {N: [0, 1], E: [1, 0], S: [0, -1], W: [-1, 0]}

export function square(col, row) {
  return String.fromCharCode(97 + col) + (row + 1)
}

export function parseSquare(sq) {
  const m = /^([a-f])([1-6])$/.exec(sq)
  return m ? {col: m[1].charCodeAt(0) - 97, row: Number(m[2]) - 1} : null
}

/** pieces reads the board: square → {player: 1|2, dir: 'N'|'E'|'S'|'W'}. */
export function pieces(view) {
  const out = new Map()
  for (const [sq, v] of Object.entries(view.board || {})) {
    out.set(sq, {player: Number(v[0]), dir: v[1]})
  }
  return out
}

export function neighbour(sq, dir) {
  const p = parseSquare(sq)
  const [dx, dy] = DIRS[dir]
  const c = p.col + dx
  const r = p.row + dy
  return c >= 0 && c < 6 && r >= 0 && r < 6 ? square(c, r) : null
}

/** active: no orthogonal neighbour (either colour) leans the same way. */
export function active(map, sq) {
  const p = map.get(sq)
  if (!p) return false
  for (const d of Object.keys(DIRS)) {
    const n = neighbour(sq, d)
    const q = n && map.get(n)
    if (q && q.dir === p.dir) return false
  }
  return true
}

/** parseAction reads one action token. */
export function parseAction(text) {
  let m
  if (text === 'pass') return {kind: 'pass'}
  if ((m = /^([a-f][1-6])([NESW])$/.exec(text))) return {kind: 'place', sq: m[1], dir: m[2]}
  if ((m = /^([a-f][1-6])-([a-f][1-6])$/.exec(text))) return {kind: 'slide', from: m[1], to: m[2]}
  if ((m = /^([a-f][1-6])~([a-f][1-6])$/.exec(text))) return {kind: 'tumble', from: m[1], to: m[2]}
  if ((m = /^\^([a-f][1-6])$/.exec(text))) return {kind: 'pickup', sq: m[1]}
  if ((m = /^([a-f][1-6])([<>])$/.exec(text))) return {kind: 'turn', sq: m[1], cw: m[2] === '>'}
  return null
}

/** isCapture: the move made more skjuubs inactive (a sacrifice, a capture). */
export function isCapture(move, before, after) {
  const inactive = (view) => {
    const map = pieces(view)
    return [...map.keys()].filter((sq) => !active(map, sq)).length
  }
  return inactive(after) > inactive(before)
}
