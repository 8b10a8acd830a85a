// The visitor's settings, remembered in localStorage under "tabula.*".
// Storage may be disabled (private windows, policies): then a setting
// holds for the page's life only.

const memory = new Map()
const listeners = new Set()

/** onSet calls fn(key) after each setting is changed (accountprefs.js saves the board's to the account). */
export function onSet(fn) {
  listeners.add(fn)
  return () => listeners.delete(fn)
}

export function get(key, fallback = null) {
  try {
    const v = localStorage.getItem('tabula.' + key)
    if (v !== null) return v
  } catch {
    // fall back to this page's memory
  }
  return memory.has(key) ? memory.get(key) : fallback
}

export function set(key, value) {
  memory.set(key, value)
  try {
    localStorage.setItem('tabula.' + key, value)
  } catch {
    // remembered for this page only
  }
  for (const fn of listeners) fn(key)
}

// Board preferences (issue 27): the board's size on the game page and zen
// mode (the board and the clocks only), remembered in this browser like
// the rest, and with a registered player's account (accountprefs.js).
// (The board themes are theme.js's, per game.)

/** boardSizes are the board sizes offered, largest first: the share of the room the board may take. */
export const boardSizes = {large: 1, medium: 0.85, small: 0.7}

/** boardSize is the size chosen for boards (large: all the room there is). */
export function boardSize() {
  const v = get('boardSize', 'large')
  return Object.hasOwn(boardSizes, v) ? v : 'large'
}

export function setBoardSize(v) {
  if (Object.hasOwn(boardSizes, v)) set('boardSize', v)
}

/** zen: the game page shows only the board and the clocks. */
export function zen() {
  return get('zen') === '1'
}

export function setZen(on) {
  set('zen', on ? '1' : '0')
}
