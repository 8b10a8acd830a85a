// Browser notifications, opt-in: "your turn" in correspondence games and
// invitations, from the user channel (docs/api.md), while the player is
// not looking at that game. Each turn and each invitation is told once,
// also across reloads (the channel repeats what is waiting on connecting).
// The channel is the tab's one user channel (userchannel.js).

import * as prefs from './prefs.js'
import * as session from './session.js'
import {api} from './api.js'
import {t} from './i18n.js'
import {subscribe} from './userchannel.js'

let unsubscribe = null
const clockKinds = new Map() // game id → clock kind, looked up once

export function supported() {
  return 'Notification' in window
}

export function enabled() {
  return supported() && prefs.get('notify', 'off') === 'on' && Notification.permission === 'granted'
}

/** enable asks the browser for permission; resolves true when notifications are on. */
export async function enable() {
  if (!supported()) return false
  const p = Notification.permission === 'granted' ? 'granted' : await Notification.requestPermission()
  if (p !== 'granted') return false
  prefs.set('notify', 'on')
  start()
  return true
}

export function disable() {
  prefs.set('notify', 'off')
  stop()
}

/** start listens to the user channel when notifications are on and someone is signed in. */
export function start() {
  if (unsubscribe || !enabled() || !session.current()) return
  // fresh: a channel already open (for the bell, the challenges) connects
  // again, so that the server repeats the turns and invitations waiting,
  // as a channel of notify's own did when it opened.
  unsubscribe = subscribe({onMessage}, {fresh: true})
}

export function stop() {
  if (unsubscribe) unsubscribe()
  unsubscribe = null
}

function told(key) {
  const seen = JSON.parse(prefs.get('notified', '[]') || '[]')
  if (seen.includes(key)) return true
  seen.push(key)
  prefs.set('notified', JSON.stringify(seen.slice(-200)))
  return false
}

function watching(id) {
  return !document.hidden && location.hash.split('?')[0] === '#/game/' + id
}

function show(title, body, id) {
  const n = new Notification(title, {body, tag: 'tabula-' + id})
  n.onclick = () => {
    window.focus()
    location.hash = '#/game/' + id
    n.close()
  }
}

async function clockKind(id) {
  if (!clockKinds.has(id)) {
    const res = await api.game(id)
    clockKinds.set(id, res.game.clock.kind)
  }
  return clockKinds.get(id)
}

async function onMessage(msg) {
  try {
    if (msg.type === 'move' && msg.id) {
      if (watching(msg.id) || (await clockKind(msg.id)) !== 'correspondence') return
      if (told(`turn:${msg.id}:${msg.ply}`)) return
      show(t('notify.turn'), t('notify.turnBody', {game: t('game.' + msg.game + '.title')}), msg.id)
    } else if (msg.type === 'invite' && msg.game) {
      const g = msg.game
      if (watching(g.id) || told('invite:' + g.id)) return
      show(t('notify.invite'), t('notify.inviteBody', {user: g.creator || '?', game: t('game.' + g.game + '.title')}), g.id)
    }
  } catch {
    // a notification that cannot be shown changes nothing
  }
}

session.onChange(() => {
  stop()
  start()
})
