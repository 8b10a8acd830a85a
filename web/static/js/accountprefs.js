// Board preferences kept with the account (issue 27, point 10): a
// registered player's board size, zen mode, colour scheme and board theme
// per game follow them to any browser they sign in with (GET/PUT
// /api/me/prefs). On sign-in the account's saved preferences replace this
// browser's; an account with none saved yet takes this browser's. While
// signed in, each change is saved (a moment later, so that a run of
// changes is one request). Guests keep theirs in this browser only: their
// account is this browser's anyway, and the server refuses them.

import * as prefs from './prefs.js'
import * as session from './session.js'
import * as theme from './theme.js'

const SAVE_DELAY_MS = 400
const BOARD_KEYS = /^(boardSize|zen|scheme|board\.[a-z]+)$/

let account = '' // the registered user whose account the preferences follow ('' for none)
let adopting = false // writing the account's preferences here: not a change to save back
let timer = null

async function call(method, body) {
  const res = await fetch('/api/me/prefs', {method, credentials: 'same-origin',
    headers: body ? {'Content-Type': 'application/json', Accept: 'application/json'} : {Accept: 'application/json'},
    body: body ? JSON.stringify(body) : undefined})
  if (!res.ok) throw new Error(`${method} /api/me/prefs: ${res.status}`)
  return res.json()
}

/** snapshot is this browser's board preferences as the account keeps them. */
export function snapshot() {
  const boardThemes = {}
  for (const g of Object.keys(theme.boardThemes)) boardThemes[g] = theme.boardTheme(g)
  return {boardSize: prefs.boardSize(), zen: prefs.zen(), scheme: theme.scheme(), boardThemes}
}

/** adopt writes the account's preferences into this browser (each one checked by its setter). */
function adopt(doc) {
  adopting = true
  try {
    if (doc.boardSize) prefs.setBoardSize(doc.boardSize)
    if (typeof doc.zen === 'boolean') prefs.setZen(doc.zen)
    if (doc.scheme) theme.setScheme(doc.scheme)
    for (const [g, v] of Object.entries(doc.boardThemes || {})) theme.setBoardTheme(g, v)
  } finally {
    adopting = false
  }
}

function save() {
  clearTimeout(timer)
  timer = setTimeout(() => {
    if (account) call('PUT', snapshot()).catch(() => {}) // kept in this browser all the same; the next change tries again
  }, SAVE_DELAY_MS)
}

async function signedIn(user) {
  const name = user && !user.guest ? user.name : ''
  if (name === account) return
  account = name
  clearTimeout(timer)
  if (!name) return
  try {
    const res = await call('GET')
    if (account !== name) return // signed out (or in as another) meanwhile
    if (res.prefs) adopt(res.prefs)
    else save()
  } catch {
    // the server is away: this browser's preferences hold until the next sign-in
  }
}

prefs.onSet((key) => {
  if (account && !adopting && BOARD_KEYS.test(key)) save()
})
session.onChange(signedIn)
signedIn(session.current())
