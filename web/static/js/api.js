// The HTTP API of docs/api.md. Every call resolves with the response body or
// rejects with an ApiError carrying the server's error code.

export class ApiError extends Error {
  constructor(status, code, message) {
    super(message)
    this.status = status
    this.code = code
  }
}

// commandKey is a new Idempotency-Key (docs/api.md): a request the browser
// sends again by itself — the proxy says the server it went to died before
// answering — is then known for a copy, not run a second time.
// getRandomValues, not randomUUID: the page may be served over plain HTTP.
export function commandKey() {
  const b = crypto.getRandomValues(new Uint8Array(12))
  return Array.from(b, (x) => x.toString(16).padStart(2, '0')).join('')
}

async function request(method, path, body) {
  const opts = {method, headers: {Accept: 'application/json'}, credentials: 'same-origin'}
  if (method === 'POST') opts.headers['Idempotency-Key'] = commandKey()
  if (body !== undefined) {
    opts.headers['Content-Type'] = 'application/json'
    opts.body = JSON.stringify(body)
  }
  let res
  try {
    res = await fetch('/api' + path, opts)
  } catch (e) {
    throw new ApiError(0, 'network', String(e.message || e))
  }
  if (res.status === 204) return null
  let data = null
  try {
    data = await res.json()
  } catch {
    // a body that is not JSON: the status says enough
  }
  if (!res.ok) {
    const err = data && data.error
    throw new ApiError(res.status, (err && err.code) || 'http_' + res.status, (err && err.message) || res.statusText)
  }
  return data
}

const q = (params) => {
  const u = new URLSearchParams()
  for (const [k, v] of Object.entries(params || {})) {
    if (Array.isArray(v)) v.forEach((x) => u.append(k, x))
    else if (v !== undefined && v !== null && v !== '') u.append(k, v)
  }
  const str = u.toString()
  return str ? '?' + str : ''
}

let catalogPromise = null

export const api = {
  guest: () => request('POST', '/guest', {}),
  register: (name, password) => request('POST', '/users', {name, password}),
  login: (name, password) => request('POST', '/session', {name, password}),
  logout: () => request('DELETE', '/session'),
  me: () => request('GET', '/me'),
  // A player's conditional moves in a correspondence game (docs/api.md).
  conditional: (id) => request('GET', '/games/' + encodeURIComponent(id) + '/conditional'),
  setConditional: (id, lines) => request('PUT', '/games/' + encodeURIComponent(id) + '/conditional', {lines}),
  clearConditional: (id) => request('DELETE', '/games/' + encodeURIComponent(id) + '/conditional'),
  // Rated puzzles, the streak, the daily puzzle, the history (docs/api.md, "Puzzles").
  puzzleSet: (game) => request('GET', '/puzzles/' + encodeURIComponent(game)),
  puzzleAttempt: (game, id, body) => request('POST', '/puzzles/' + encodeURIComponent(game) + '/' + encodeURIComponent(id) + '/attempt', body),
  puzzleStreak: (game) => request('POST', '/puzzles/' + encodeURIComponent(game) + '/streak', {}),
  puzzleStreakAttempt: (game, body) => request('POST', '/puzzles/' + encodeURIComponent(game) + '/streak/attempt', body),
  puzzleDaily: () => request('GET', '/puzzles/daily'),
  puzzleHistory: (params) => request('GET', '/puzzles/history' + q(params)),
  session: () => request('GET', '/session'),
  user: (name) => request('GET', '/users/' + encodeURIComponent(name)),
  catalog() {
    if (!catalogPromise) catalogPromise = request('GET', '/catalog').catch((e) => {
      catalogPromise = null
      throw e
    })
    return catalogPromise
  },
  createGame: (req) => request('POST', '/games', req),
  games: (params) => request('GET', '/games' + q(params)),
  game: (id) => request('GET', '/games/' + encodeURIComponent(id)),
  join: (id, seat, acceptDeal) => request('POST', `/games/${encodeURIComponent(id)}/join`,
    {...(seat === undefined ? {} : {seat}), ...(acceptDeal ? {acceptDeal: true} : {})}),
  leave: (id) => request('POST', `/games/${encodeURIComponent(id)}/leave`, {}),
  abort: (id) => request('POST', `/games/${encodeURIComponent(id)}/abort`, {}),
  resign: (id) => request('POST', `/games/${encodeURIComponent(id)}/resign`, {}),
  replay: (id, ply) => request('GET', `/games/${encodeURIComponent(id)}/replay` + q({ply})),
  pair: (game, clock) => request('POST', '/pairing', {game, clock}),
  online: () => request('GET', '/online'),
  leaderboard: (game, limit, bots) => request('GET', '/leaderboard/' + encodeURIComponent(game) + q({limit, bots: bots ? 1 : ''})),
  notifications: () => request('GET', '/notifications'),
  record: (id) => request('GET', `/games/${encodeURIComponent(id)}/record`),
  analyse: (req) => request('POST', '/analysis', req),
  stopAnalysis: (id) => request('POST', `/analysis/${encodeURIComponent(id)}/stop`, {}),
  review: (id) => request('POST', `/games/${encodeURIComponent(id)}/review`, {}),
}
