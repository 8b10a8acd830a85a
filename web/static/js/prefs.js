// The visitor's settings, remembered in localStorage under "tabula.*".
// Storage may be disabled (private windows, policies): then a setting
// holds for the page's life only.

const memory = new Map()

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
}
