// The user channel of docs/api.md (/api/ws), one per tab: the signed-in
// user's turns, invitations, challenges and notices. The challenge banner,
// the inbox bell and the opt-in system notifications subscribe here rather
// than each opening a socket of their own: one handshake and one set of
// server-side subscriptions per tab, not three.
//
// The socket opens when a subscriber needs it and someone is signed in,
// and closes when the last subscriber leaves. It follows the session: a
// socket speaks for the account whose cookie opened it, so every session
// change (sign-in, sign-out, another account, the account itself changed)
// closes it and opens a new one for whoever is signed in now. Every
// (re)connection tells each subscriber onState('open'): what was sent
// while the socket was down is not repeated, so that is when they ask again.

import * as session from './session.js'
import {Channel} from './channel.js'

const subscribers = new Set()
let channel = null
let state = 'closed'

function open() {
  if (channel || subscribers.size === 0 || !session.current()) return
  let ch = null
  // Channel connects in its constructor (onState('connecting') comes before
  // ch is set); afterwards only the current channel's news is passed on.
  const mine = () => ch === null || ch === channel
  ch = new Channel('/api/ws', {
    onMessage(msg) {
      if (!mine()) return
      for (const sub of [...subscribers]) sub.onMessage?.(msg)
    },
    onState(st) {
      if (!mine()) return
      state = st
      for (const sub of [...subscribers]) sub.onState?.(st)
    },
  })
  channel = ch
}

function close() {
  if (channel) channel.destroy()
  channel = null
  state = 'closed'
}

/**
 * subscribe adds a subscriber to the tab's user channel and returns the way
 * to leave it.
 * @param {object} handlers onMessage(msg) for every server message,
 *   onState(state) with 'connecting' | 'open' | 'closed'; a subscriber that
 *   joins an open channel is told 'open' at once (it missed what came before).
 * @param {object} [opts] fresh: the subscriber needs what the server sends on
 *   connecting (the turns and invitations waiting), so an open channel
 *   reconnects to have it sent again.
 */
export function subscribe(handlers, {fresh = false} = {}) {
  const sub = {onMessage: handlers.onMessage, onState: handlers.onState}
  subscribers.add(sub)
  if (!channel) {
    open()
  } else if (state === 'open') {
    if (fresh) channel.resync()
    else queueMicrotask(() => subscribers.has(sub) && state === 'open' && sub.onState?.('open'))
  }
  return () => {
    subscribers.delete(sub)
    if (subscribers.size === 0) close()
  }
}

session.onChange(() => {
  close()
  open()
})
