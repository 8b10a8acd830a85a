// The inbox bell in the header (docs/api.md, "Follows and the inbox"): the
// number of unread items, on every page, kept live by the user channel
// (/api/ws) — a notice says the inbox changed (with the new count when the
// server knows it, else the bell asks), so an invitation, or reading in
// another tab, shows here without a reload. A followed player's start is
// a short toast with a Watch link. The channel is the tab's one user
// channel (userchannel.js), shared with the challenges and the opt-in
// system notifications (notify.js).

import {h, s} from '../dom.js'
import {t} from '../i18n.js'
import * as session from '../session.js'
import {ApiError} from '../api.js'
import {subscribe} from '../userchannel.js'
import {gameTitle} from './common.js'

async function call(method, path, body) {
  const opts = {method, headers: {Accept: 'application/json'}, credentials: 'same-origin'}
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
  const data = await res.json().catch(() => null)
  if (!res.ok) {
    const err = data && data.error
    throw new ApiError(res.status, (err && err.code) || 'http_' + res.status, (err && err.message) || res.statusText)
  }
  return data
}

const enc = encodeURIComponent

/** The follows' and inbox's calls; each resolves with the body or rejects with an ApiError. */
export const social = {
  inbox: (offset = 0, limit = 50) => call('GET', `/inbox?offset=${offset}&limit=${limit}`),
  unread: () => call('GET', '/inbox/unread'),
  read: (ids) => call('POST', '/inbox/read', ids === 'all' ? {all: true} : {ids}),
  follows: () => call('GET', '/follows'),
  follow: (name) => call('POST', '/follows/' + enc(name)),
  unfollow: (name) => call('DELETE', '/follows/' + enc(name)),
}

// The stylesheet of the bell, the inbox page and the toast, added once, named
// beside this module (under the release the page loaded it from).
if (!document.querySelector('link[data-inbox-css]')) {
  document.head.append(h('link', {rel: 'stylesheet', href: new URL('../../css/inbox.css', import.meta.url).href, 'data-inbox-css': ''}))
}

let channelUser = null
let unread = 0
const listeners = new Set()

/** onNotice calls fn with every notice of the user channel ({kind: 'inbox'|'started', …}); returns the way to stop. */
export function onNotice(fn) {
  listeners.add(fn)
  return () => listeners.delete(fn)
}

/** unreadCount is the bell's number as last known. */
export function unreadCount() {
  return unread
}

/** setUnread sets the number (a page that has just read it from the API). */
export function setUnread(n) {
  unread = Math.max(0, n | 0)
  paint()
}

// ask reads the count again: at most one request a second (a burst of
// notices, page changes, a reconnection are one request after the last),
// so the bell never spends the page's share of the site's rate limit.
const ASK_EVERY = 1000
let lastAsk = 0
let askTimer = null
function ask() {
  if (askTimer) return
  const wait = Math.max(0, lastAsk + ASK_EVERY - Date.now())
  askTimer = setTimeout(() => {
    askTimer = null
    lastAsk = Date.now()
    const user = channelUser
    if (!user) return
    social.unread().then((res) => {
      if (user === channelUser) setUnread(res.unread)
    }, () => {})
  }, wait)
}

function onMessage(msg) {
  if (msg.type !== 'notice') return
  if (msg.kind === 'inbox') {
    if (typeof msg.unread === 'number') setUnread(msg.unread)
    else ask()
  } else if (msg.kind === 'started') {
    toast(msg)
  }
  for (const fn of listeners) fn(msg)
}

// follow the session: the count is whoever is signed in's, none otherwise.
// (The user channel itself follows the session: userchannel.js.)
function follow() {
  const me = session.current()
  const key = me ? String(me.id ?? me.name) : null
  if (key === channelUser) return
  channelUser = key
  unread = 0
  paint()
}
session.onChange(follow)
// On every (re)connection the count is read again: notices sent while the
// channel was down are not repeated.
subscribe({onMessage, onState: (st) => st === 'open' && ask()})
// A page change asks again: an offer in a real-time game ends with the next
// move, which sends no notice (a notice per move of every blitz game would
// be a flood).
window.addEventListener('hashchange', () => channelUser && ask())

function bellIcon() {
  const svg = s(null, 'svg', {viewBox: '0 0 24 24', width: 20, height: 20, 'aria-hidden': 'true', focusable: 'false'})
  s(svg, 'path', {d: 'M12 3a6 6 0 0 0-6 6v4l-2 3h16l-2-3V9a6 6 0 0 0-6-6zm-2 15a2 2 0 0 0 4 0', fill: 'none', stroke: 'currentColor', 'stroke-width': 2, 'stroke-linejoin': 'round'})
  return svg
}

let bell = null

function paint() {
  if (!bell) return
  const badge = bell.querySelector('.inbox-count')
  badge.textContent = unread > 99 ? '99+' : String(unread)
  badge.hidden = unread === 0
  bell.setAttribute('aria-label', unread ? t('inbox.bellUnread', {n: unread}) : t('inbox.bell'))
  bell.title = bell.getAttribute('aria-label')
}

/** inboxBell is the header's bell: a link to #/inbox with the unread count; an empty comment node for nobody signed in (Element.append writes null as text). */
export function inboxBell(home = '') {
  follow()
  if (!session.current()) {
    bell = null
    return document.createComment('inbox bell: nobody signed in')
  }
  const here = (location.hash || '').split('?')[0] === '#/inbox'
  bell = h('a', {href: home + '#/inbox', class: 'inbox-bell', 'data-test': 'inbox-bell', 'aria-current': here ? 'page' : null},
    bellIcon(), h('span', {class: 'inbox-count', 'data-test': 'inbox-count', 'aria-hidden': 'true'}))
  paint()
  return bell
}

// toast shows a followed player's start for a few seconds, with a Watch link.
function toast(msg) {
  document.querySelector('.follow-toast')?.remove()
  const box = h('div', {class: 'follow-toast', role: 'status', 'data-test': 'follow-toast'},
    h('span', {}, t('follow.started', {name: msg.user, game: gameTitle(msg.game)})), ' ',
    h('a', {href: '#/game/' + enc(msg.gameId), 'data-test': 'follow-toast-watch', onclick: () => box.remove()}, t('follow.watch')),
    h('button', {type: 'button', class: 'close', 'aria-label': t('pair.dismiss'), onclick: () => box.remove()}, '×'))
  document.body.append(box)
  setTimeout(() => box.remove(), 10000)
}
