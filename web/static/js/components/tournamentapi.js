// The tournament calls of docs/api.md (Tournaments), in the shape of api.js:
// each resolves with the response body or rejects with an ApiError.

import {ApiError} from '../api.js'

async function call(method, path, body, base = '/api/tournaments') {
  const opts = {method, headers: {Accept: 'application/json'}, credentials: 'same-origin'}
  if (body !== undefined) {
    opts.headers['Content-Type'] = 'application/json'
    opts.body = JSON.stringify(body)
  }
  let res
  try {
    res = await fetch(base + path, opts)
  } catch (e) {
    throw new ApiError(0, 'network', String(e.message || e))
  }
  if (res.status === 204) return null
  const data = await res.json().catch(() => null)
  if (!res.ok) {
    const err = data && data.error
    throw new ApiError(res.status, (err && err.code) || 'http_' + res.status, (err && err.message) || res.statusText)
  }
  return data
}

const id = (x) => '/' + encodeURIComponent(x)

export const tournaments = {
  list: (status, limit = 50) => call('GET', '?' + [].concat(status).map((s) => 'status=' + s).join('&') + '&limit=' + limit),
  create: (req) => call('POST', '', req),
  get: (t) => call('GET', id(t)),
  join: (t, password) => call('POST', id(t) + '/join', password ? {password} : {}),
  withdraw: (t) => call('POST', id(t) + '/withdraw', {}),
  // An arena's: pause and resume in it, berserk in one's game of it, and whether a game is an arena's.
  pause: (t) => call('POST', id(t) + '/pause', {}),
  resume: (t) => call('POST', id(t) + '/resume', {}),
  berserk: (t, game) => call('POST', id(t) + '/berserk?game=' + encodeURIComponent(game), {}),
  arenaOf: (game) => call('GET', '?game=' + encodeURIComponent(game), undefined, '/api/arena-game'),
  // One player's games, all of them (an arena's answer carries only its recent boards), with their standings line.
  playerGames: (t, name) => call('GET', id(t) + '/games?player=' + encodeURIComponent(name)),
  // An arena's standings a page (100 lines) at a time: the page N, or the page holding the player name.
  standingsPage: (t, page) => call('GET', id(t) + '/standings?page=' + encodeURIComponent(page)),
  standingsOf: (t, name) => call('GET', id(t) + '/standings?player=' + encodeURIComponent(name)),
  // The server's own bots, by the tournament's creator (components/tournamentbots.js).
  addBots: (t, level, count) => call('POST', id(t) + '/bots', {level, count}),
  removeBot: (t, number) => call('DELETE', id(t) + '/bots/' + encodeURIComponent(number)),
}

/** countdown says how long until ms (a time), in words short enough for a list: "2 d 3 h", "4:05". */
export function countdown(ms, now = Date.now()) {
  let s = Math.max(0, Math.round((ms - now) / 1000))
  const d = Math.floor(s / 86400)
  s -= d * 86400
  const hh = Math.floor(s / 3600)
  s -= hh * 3600
  const mm = Math.floor(s / 60)
  const ss = s - mm * 60
  const pad = (n) => String(n).padStart(2, '0')
  if (d) return `${d}d ${hh}h`
  if (hh) return `${hh}:${pad(mm)}:${pad(ss)}`
  return `${mm}:${pad(ss)}`
}
