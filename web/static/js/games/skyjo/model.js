// Skyjo's public view without the DOM: grid positions (column a–d, row 1–3
// from the top, as the owner sees them), decisions, visible sums.

export const COLS = ['a', 'b', 'c', 'd']

export function posName(r, c) {
  return COLS[c] + (r + 1)
}

/** parseMove reads "draw", "take", "flip a1" or "swap c3". */
export function parseMove(text) {
  const [kind, pos] = String(text).split(' ')
  return {kind, pos: pos || null}
}

/** visibleSum adds the face-up cards of a grid (face-down and removed cards count 0). */
export function visibleSum(grid) {
  let n = 0
  for (const row of grid || []) for (const v of row) if (typeof v === 'number') n += v
  return n
}

export function faceDown(grid) {
  let n = 0
  for (const row of grid || []) for (const v of row) if (v === '?') n++
  return n
}

/**
 * roundStarts gives, for each move of a game's list ({move} objects), the
 * round it begins, or 0. A round begins with its initial flips: a flip that
 * does not follow a draw (any other flip turns a card over for the drawn
 * one discarded). start is the view the game began from, if it was not a
 * new game (a position or a record continued): its round is the first, and
 * its first move begins no round unless every card was still face down.
 */
export function roundStarts(moves, start) {
  let round = start ? start.round : 1
  const fresh = !start || (start.phase === 'initial_flips' && (start.players || []).every((p) => faceDown(p.grid) === p.grid.flat().length))
  let before = null // the kind of the move before, and whether it was an initial flip
  return moves.map((m, i) => {
    const kind = parseMove(m.move).kind
    const initial = kind === 'flip' && (i === 0 ? !start || start.phase === 'initial_flips' : before.kind !== 'draw')
    let begins = 0
    if (initial && i === 0 && fresh) begins = round
    else if (initial && i > 0 && !before.initial) begins = ++round
    before = {kind, initial}
    return begins
  })
}

/** tone is the colour family of a card value, as on the printed cards. */
export function tone(v) {
  if (v < 0) return 'neg'
  if (v === 0) return 'zero'
  if (v <= 4) return 'low'
  if (v <= 8) return 'mid'
  return 'high'
}

/** isCapture: a column of three equal cards left the table (for the capture sound). */
export function isCapture(move, before, after) {
  const removed = (view) => (view.players || []).reduce((n, p) => n + (p.grid || []).flat().filter((v) => v === 'x').length, 0)
  return removed(after) > removed(before)
}
