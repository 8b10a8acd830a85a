// Who is signed in. The session itself is an HttpOnly cookie the page
// cannot read; /api/session answers {"user": null} rather than 401 when
// there is none, so asking on every visit logs no error.

import {api} from './api.js'

let user = null
const listeners = new Set()
// changes counts what remember has been told: load's answer, which may
// come after a sign-in made while it was on its way (a page signed in as
// soon as it loaded), is dropped then, rather than signing the page out.
let changes = 0

function remember(u) {
  changes++
  user = u
  for (const fn of listeners) fn(user)
}

/** load restores the session at start-up; resolves with the user or null. */
export async function load() {
  const before = changes
  try {
    const res = await api.session()
    if (changes === before) remember(res.user)
  } catch {
    // the server is unreachable: stay signed out until it answers
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
