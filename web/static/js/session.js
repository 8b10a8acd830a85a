// Who is signed in. The session itself is an HttpOnly cookie the page
// cannot read, so the page remembers in localStorage whether it has one and
// asks /api/me only then: asking without a session would be a 401, which
// the browser reports as a console error on every first visit.

import {api} from './api.js'

const KEY = 'tabula.user'
let user = null
const listeners = new Set()

function remember(u) {
  user = u
  try {
    if (u) localStorage.setItem(KEY, JSON.stringify({name: u.name, guest: u.guest}))
    else localStorage.removeItem(KEY)
  } catch {
    // not remembered across reloads
  }
  for (const fn of listeners) fn(user)
}

/** load restores the session at start-up; resolves with the user or null. */
export async function load() {
  let cached = null
  try {
    cached = JSON.parse(localStorage.getItem(KEY) || 'null')
  } catch {
    cached = null
  }
  if (!cached) return null
  try {
    const me = await api.me()
    remember(me.user)
  } catch (e) {
    if (e.status === 401) remember(null)
    else user = cached // the server is unreachable: keep what we knew
  }
  return user
}

export function current() {
  return user
}

export function onChange(fn) {
  listeners.add(fn)
  return () => listeners.delete(fn)
}

/** ensure returns the signed-in user, making a guest account first if there is none. */
export async function ensure() {
  if (user) return user
  const res = await api.guest()
  remember(res.user)
  return user
}

export async function register(name, password) {
  const res = await api.register(name, password)
  remember(res.user)
  return user
}

export async function login(name, password) {
  const res = await api.login(name, password)
  remember(res.user)
  return user
}

export async function logout() {
  try {
    await api.logout()
  } finally {
    remember(null)
  }
}
