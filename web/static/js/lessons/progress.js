// Progress through the lessons and puzzles, kept in this browser only
// (localStorage): a set of finished keys per game and kind.

function key(kind, game) {
  return `tabula.${kind}.${game}`
}

/** done returns the finished keys of a kind ('learn' | 'puzzles') for a game. */
export function done(kind, game) {
  try {
    const v = JSON.parse(localStorage.getItem(key(kind, game)) || '[]')
    return new Set(Array.isArray(v) ? v.filter((x) => typeof x === 'string') : [])
  } catch {
    return new Set()
  }
}

export function mark(kind, game, id) {
  const s = done(kind, game)
  s.add(id)
  try {
    localStorage.setItem(key(kind, game), JSON.stringify([...s]))
  } catch {
    // not remembered; the page still works
  }
}

export function reset(kind, game) {
  try {
    localStorage.removeItem(key(kind, game))
  } catch {
    // nothing kept anyway
  }
}
