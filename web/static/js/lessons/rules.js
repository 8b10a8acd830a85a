// The lessons and puzzles ask the server's stateless rules endpoint
// (POST /api/rules/{game}, docs/api.md) about the positions they show: the
// server owns the rules, the page never judges a move itself.

import {ApiError} from '../api.js'

/**
 * ask sends one rules query: {position | options, seed, moves, move, seat}.
 * It resolves with the answer ({move, position, view, legal, toMove, status,
 * winners, seatNames}) or rejects with an ApiError.
 */
export async function ask(game, query) {
  let res
  try {
    res = await fetch('/api/rules/' + encodeURIComponent(game), {
      method: 'POST', headers: {'Content-Type': 'application/json', Accept: 'application/json'},
      credentials: 'omit', body: JSON.stringify(query),
    })
  } catch (e) {
    throw new ApiError(0, 'network', String(e.message || e))
  }
  const data = await res.json().catch(() => null)
  if (!res.ok) {
    const err = data && data.error
    throw new ApiError(res.status, (err && err.code) || 'http_' + res.status, (err && err.message) || res.statusText)
  }
  return data
}

/** loadData fetches a lesson or puzzle file served under learn/. */
export async function loadData(path) {
  const res = await fetch('learn/' + path)
  if (!res.ok) throw new ApiError(res.status, 'not_found', path)
  return res.json()
}

/** reason is the rules engine's explanation without the "game: move "x": " prefix it starts with. */
export function reason(message) {
  const m = /illegal move: (.*)$/.exec(message || '')
  if (m) return m[1]
  const n = /^(.*): illegal move$/.exec(message || '')
  if (n) return n[1].replace(/^\w+: move "[^"]*": /, '')
  return (message || '').replace(/^\w+: (?:parse )?move "[^"]*": /, '')
}
