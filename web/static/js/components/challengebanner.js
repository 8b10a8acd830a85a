// Challenges on every page (docs/api.md, "Challenges"): a badge with the
// number of challenges waiting for your answer, and a toast for each with
// Accept and Decline (with a reason). The news comes on the user channel
// (/api/ws) — a challenge received, accepted, declined, cancelled or
// expired — and GET /api/challenges fills the list on loading. The
// challenger hears the answer here too, wherever they are: the reason of
// a decline is shown, an accepted challenge opens the game. The channel is
// the tab's one user channel (userchannel.js).

import {h, renew} from '../dom.js'
import {t} from '../i18n.js'
import * as session from '../session.js'
import {subscribe} from '../userchannel.js'
import {ApiError, commandKey} from '../api.js'
import {errorText} from './common.js'

/** REASONS are the reasons a challenge may be declined with (match.DeclineReasons). */
export const REASONS = ['generic', 'later', 'too_fast', 'too_slow', 'rated', 'casual', 'game', 'options', 'bot']

let root = null
let open = true // the list of toasts shown (the badge folds it)
const incoming = new Map() // id → challenge
const answers = [] // the challenger's news: [{key, text, id}]
let answerSeq = 0 // each answer's key (render's data-key)
const listeners = new Set()
let ticker = null

/** send calls the API (docs/api.md): the body, null for 204, or ApiError. */
export async function send(method, path, body) {
  const opts = {method, headers: {Accept: 'application/json'}, credentials: 'same-origin'}
  if (method === 'POST') opts.headers['Idempotency-Key'] = commandKey() // api.js says why
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
  const data = res.status === 204 ? null : await res.json().catch(() => null)
  if (!res.ok) {
    const err = data && data.error
    throw new ApiError(res.status, (err && err.code) || 'http_' + res.status, (err && err.message) || res.statusText)
  }
  return data
}

/** onChallengeNews calls fn with every challenge message of the user channel; returns the way to stop. */
export function onChallengeNews(fn) {
  listeners.add(fn)
  return () => listeners.delete(fn)
}

/** clockText is a challenge's time control in words. */
export function clockText(clock) {
  if (!clock || clock.kind === 'none') return t('challenge.noClock')
  if (clock.kind === 'correspondence') return t('lobby.clock.perMove', {n: clock.days})
  return `${Math.round(clock.initialMs / 60000)}+${Math.round((clock.incrementMs || 0) / 1000)}`
}

/** expiresText says when a challenge expires: "in 9 minutes" (rounded up). */
export function expiresText(iso) {
  const ms = new Date(iso).getTime() - Date.now()
  if (ms <= 0) return t('challenge.expiredShort')
  const min = Math.ceil(ms / 60000)
  if (min < 120) return t('challenge.expiresIn', {n: min})
  return t('challenge.expiresAt', {time: new Date(iso).toLocaleString()})
}

function gameLine(c) {
  const g = c.game
  const parts = [t('game.' + g.game + '.title'), clockText(g.clock), g.rated ? t('challenge.rated') : t('challenge.casual')]
  if (g.seats.length > 2) parts.push(t('challenge.players', {n: g.seats.length}))
  return parts.join(' · ')
}

/** mountChallenges starts the badge and toasts (once, from app.js). */
export function mountChallenges() {
  if (root) return
  if (!document.querySelector('link[data-challenge-css]')) {
    document.head.append(h('link', {rel: 'stylesheet', href: new URL('../../css/challenge.css', import.meta.url).href, 'data-challenge-css': ''}))
  }
  root = h('div', {class: 'challenge-dock', 'data-test': 'challenge-dock', 'aria-live': 'polite'})
  document.body.append(root)
  session.onChange(restart)
  window.addEventListener('tabula:lang', render)
  restart()
  // The list is read again on every (re)connection, which comes with every
  // session change too (the channel follows the session).
  subscribe({onMessage, onState: (st) => st === 'open' && refresh()})
}

// restart forgets the last account's challenges: another account, or none, is signed in.
function restart() {
  incoming.clear()
  answers.length = 0
  render()
}

async function refresh() {
  try {
    const res = await send('GET', '/challenges')
    incoming.clear()
    for (const c of res.incoming) incoming.set(c.id, c)
    render()
  } catch {
    // the channel's news still comes
  }
}

function onMessage(msg) {
  if (msg.type !== 'challenge' || !msg.challenge) return
  const c = msg.challenge
  const me = session.current()
  const mine = me && c.from === me.name
  switch (msg.news) {
    case 'received':
      incoming.set(c.id, c)
      open = true
      break
    case 'accepted':
      incoming.delete(c.id)
      if (location.hash.split('?')[0] !== '#/game/' + c.id) location.hash = '#/game/' + c.id
      break
    default: // declined, cancelled, expired
      if (mine && msg.news === 'declined') {
        answers.push({key: ++answerSeq, id: c.id, text: t('challenge.declinedBy', {name: msg.by, reason: t('challenge.reason.' + msg.reason)})})
      } else if (mine && msg.news === 'expired') {
        answers.push({key: ++answerSeq, id: c.id, text: t('challenge.expiredTo', {names: c.to.join(', ')})})
      } else if (!mine && incoming.has(c.id) && msg.news !== 'declined') {
        answers.push({key: ++answerSeq, id: c.id, text: t('challenge.' + msg.news + 'From', {name: c.from})})
      }
      incoming.delete(c.id)
  }
  for (const fn of listeners) fn(msg)
  render()
}

// render renews the dock rather than redrawing it (dom.js renew): news of
// one challenge must leave the others' toasts alone — the Accept being
// pressed, the reason chosen in an open list. A toast is kept whole where
// its markup is unchanged (its listeners are its own), so the expiry times
// are brought up to date first, as the fresh toasts will say them.
function render() {
  if (!root) return
  tick()
  if (ticker) clearInterval(ticker)
  ticker = null
  const fresh = h('div', {})
  fill(fresh)
  renew(root, fresh)
  if (incoming.size > 0 && open) ticker = setInterval(tick, 15000)
}

function tick() {
  for (const el of root.querySelectorAll('[data-expires]')) el.textContent = expiresText(el.dataset.expires)
}

function fill(root) {
  for (const a of answers) {
    root.append(h('div', {class: 'challenge-toast answer', role: 'status', 'data-test': 'challenge-answer', 'data-key': 'answer ' + a.key},
      h('p', {}, a.text),
      h('p', {class: 'challenge-buttons'}, h('button', {type: 'button', 'data-test': 'challenge-answer-ok',
        onclick: () => { answers.splice(answers.indexOf(a), 1); render() }}, t('challenge.ok')))))
  }
  if (incoming.size === 0) return
  root.append(h('button', {type: 'button', class: 'challenge-badge', 'data-test': 'challenge-badge', 'data-key': 'badge', 'aria-expanded': String(open),
    onclick: () => { open = !open; render() }},
  t('challenge.badge'), ' ', h('span', {class: 'count', 'data-test': 'challenge-count'}, String(incoming.size))))
  if (!open) return
  for (const c of incoming.values()) root.append(toast(c))
}

function toast(c) {
  const err = h('p', {class: 'error', role: 'alert', hidden: true})
  const reason = h('select', {'data-test': 'challenge-reason', 'aria-label': t('challenge.reason')},
    REASONS.map((r) => h('option', {value: r}, t('challenge.reason.' + r))))
  const act = async (path, body) => {
    for (const b of el.querySelectorAll('button')) b.disabled = true
    try {
      await send('POST', `/challenges/${encodeURIComponent(c.id)}/${path}`, body)
      incoming.delete(c.id)
      if (path === 'accept') location.hash = '#/game/' + c.id
      render()
    } catch (e) {
      err.textContent = errorText(e)
      err.hidden = false
      for (const b of el.querySelectorAll('button')) b.disabled = false
    }
  }
  const el = h('div', {class: 'challenge-toast', role: 'group', 'aria-label': t('challenge.from', {name: c.from}), 'data-test': 'challenge-toast', 'data-id': c.id,
    'data-key': 'challenge ' + c.id},
    h('p', {class: 'challenge-who'}, h('a', {href: '#/user/' + encodeURIComponent(c.from)}, c.from), ' ', t('challenge.challengesYou')),
    h('p', {class: 'challenge-what'}, gameLine(c)),
    h('p', {class: 'muted challenge-when', 'data-expires': c.expires}, expiresText(c.expires)),
    h('p', {class: 'challenge-buttons'},
      h('button', {type: 'button', class: 'primary', 'data-test': 'challenge-accept', onclick: () => act('accept', {})}, t('challenge.accept')),
      reason,
      h('button', {type: 'button', 'data-test': 'challenge-decline', onclick: () => act('decline', {reason: reason.value})}, t('challenge.decline'))),
    err)
  return el
}
