// Quick pairing (POST /api/pairing) and the count of players online
// (GET /api/online), for the lobby and the home page.
//
// A Seeker asks the server to pair its user for a game and a time
// control: either a waiting player's game is live at once (the page goes
// there), or the user waits in an open game of their own. While waiting
// the page listens on that game's channel (no polling) and goes to the
// game as soon as someone joins; Cancel aborts the waiting game, "Play a
// bot instead" aborts it and starts the same game against a bot, and
// leaving the page aborts it too (except for the waiting game's own page,
// which waits as well). The server pairs only with games that
// waited at most the catalog's pairing window, so a longer wait is
// renewed: the old game aborted, the request made again.

import {h} from '../dom.js'
import {t} from '../i18n.js'
import {api} from '../api.js'
import * as session from '../session.js'
import {GameChannel} from '../channel.js'
import * as catalog from '../catalog.js'
import {errorBox, gameTitle} from './common.js'
import {clockText} from './players.js'

/** pairClockShort: "No clock", "5+3", "15+10", "3 days" — the catalog's time control of that name. */
export function pairClockShort(name) {
  const c = catalog.pairClock(name)
  return c ? clockText(c) : t('pair.clock.none')
}

/** pairClockLong: the words of the clock menus ("5 minutes + 3 seconds"). */
export function pairClockLong(name) {
  const c = catalog.pairClock(name)
  if (!c) return t('lobby.clock.none')
  if (c.kind === 'correspondence') return t('lobby.clock.perMove', {n: c.days})
  const min = Math.round((c.initialMs / 60000) * 10) / 10
  const sec = Math.round(c.incrementMs / 1000)
  return sec ? t('lobby.clock.minutes', {n: min}) + ' + ' + t('lobby.clock.seconds', {n: sec}) : t('lobby.clock.minutes', {n: min})
}

// The server pairs with waiting games created within the catalog's window
// (pairing.windowMs); a wait is renewed a tenth of it before that.
const renewMs = () => Math.round(catalog.pairingWindowMs() * 0.9)

export class Seeker {
  /**
   * @param {object} o onChange(state) after every change of state;
   *   playBot(game, clock) starts a game against a bot instead.
   */
  constructor({onChange, playBot}) {
    this.onChange = onChange
    this.playBot = playBot
    // phase: idle | asking | waiting | leaving | matched
    this.state = {phase: 'idle'}
    this.channel = null
    this.renewTimer = null
    this.dead = false
    this.onHide = () => this.abortOnExit()
  }

  set(state) {
    this.state = state
    if (!this.dead) this.onChange(state)
  }

  busy() {
    return this.state.phase !== 'idle'
  }

  /** ask pairs the user for game and clock (the name of one of the catalog's pairing clocks). */
  async ask(game, clock) {
    if (this.busy() || this.dead) return
    this.set({phase: 'asking', game, clock})
    try {
      await session.ensure()
      const res = await api.pair(game, clock)
      if (this.dead) {
        if (!res.matched) abortQuietly(res.game.id)
        return
      }
      if (res.matched || res.game.status === 'live') return this.go(res.game.id)
      this.wait(res.game, game, clock)
    } catch (e) {
      this.set({phase: 'idle', game, clock, error: e})
    }
  }

  wait(sum, game, clock) {
    const id = sum.id
    const since = Date.now()
    this.set({phase: 'waiting', game, clock, id, since})
    this.channel = new GameChannel(id, {onMessage: (m) => this.onMessage(id, m)})
    const age = Math.max(0, Date.now() - Date.parse(sum.created || '')) || 0
    this.renewTimer = setTimeout(() => this.renew(), Math.min(renewMs(), Math.max(30000, renewMs() - age)))
    window.addEventListener('pagehide', this.onHide)
  }

  onMessage(id, m) {
    if (this.state.id !== id || this.state.phase !== 'waiting' || !m.game || m.game.id !== id) return
    if (m.game.status === 'live') this.go(id)
    else if (m.game.status !== 'open') {
      // cancelled elsewhere (another tab, or it expired)
      this.stopWaiting()
      this.set({phase: 'idle', game: this.state.game, clock: this.state.clock, note: t('pair.gone')})
    }
  }

  stopWaiting() {
    if (this.channel) this.channel.destroy()
    this.channel = null
    clearTimeout(this.renewTimer)
    window.removeEventListener('pagehide', this.onHide)
  }

  go(id) {
    this.stopWaiting()
    this.set({phase: 'matched', id})
    location.hash = '#/game/' + id
  }

  /**
   * leave aborts the waiting game; resolves true when it is gone, false when
   * someone joined meanwhile (then the page has gone to the game).
   */
  async leave() {
    const {id, game, clock} = this.state
    this.stopWaiting()
    this.set({phase: 'leaving', game, clock, id})
    try {
      await api.abort(id)
      return true
    } catch (e) {
      try {
        const g = await api.game(id)
        if (g.game.status === 'live') {
          this.go(id)
          return false
        }
        if (g.game.status !== 'open') return true
      } catch {
        // the abort's own error says more
      }
      this.set({phase: 'idle', game, clock, error: e})
      return false
    }
  }

  async cancel() {
    if (this.state.phase !== 'waiting') return
    const {game, clock} = this.state
    if (await this.leave()) this.set({phase: 'idle', game, clock})
  }

  async bot() {
    if (this.state.phase !== 'waiting') return
    const {game, clock} = this.state
    if (!(await this.leave())) return
    try {
      await this.playBot(game, clock)
      this.set({phase: 'matched'})
    } catch (e) {
      this.set({phase: 'idle', game, clock, error: e})
    }
  }

  async renew() {
    if (this.state.phase !== 'waiting') return
    const {game, clock} = this.state
    if (!(await this.leave())) return
    this.set({phase: 'idle', game, clock})
    await this.ask(game, clock)
  }

  /** abortOnExit aborts the waiting game as the page is left or closed. */
  abortOnExit() {
    if (this.state.phase !== 'waiting') return
    const id = this.state.id
    this.stopWaiting()
    this.state = {phase: 'idle'}
    abortQuietly(id)
  }

  destroy() {
    // Going to the waiting game's own page keeps it: that page waits too.
    if (this.state.phase === 'waiting' && location.hash.split('?')[0] === '#/game/' + this.state.id) this.state = {phase: 'idle'}
    this.abortOnExit()
    this.stopWaiting()
    this.dead = true
  }
}

// abortQuietly aborts a game as the page goes: keepalive, so it is sent
// even while the tab closes; its answer matters to nobody.
function abortQuietly(id) {
  try {
    fetch(`/api/games/${encodeURIComponent(id)}/abort`, {method: 'POST', keepalive: true, credentials: 'same-origin',
      headers: {'Content-Type': 'application/json', Accept: 'application/json'}, body: '{}'}).catch(() => {})
  } catch {
    // nothing to do
  }
}

function elapsed(ms) {
  const s = Math.max(0, Math.floor(ms / 1000))
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, '0')}`
}

/**
 * statusBox shows what a Seeker is doing: the search in progress with its
 * time and the buttons to cancel or play a bot instead, or why it stopped
 * (an error, in words). null while there is nothing to say.
 */
export function statusBox(seeker) {
  const st = seeker.state
  if (st.phase === 'idle') {
    if (st.error) return h('div', {class: 'pair-status', 'data-test': 'pair-error'}, errorBox(st.error))
    if (st.note) return h('div', {class: 'pair-status'}, h('p', {class: 'muted', role: 'status'}, st.note))
    return null
  }
  if (st.phase === 'matched' || st.phase === 'leaving') return null
  const what = h('strong', {}, `${gameTitle(st.game)} · ${pairClockShort(st.clock)}`)
  if (st.phase !== 'waiting') {
    return h('div', {class: 'pair-status', role: 'status', 'data-test': 'pair-asking'},
      h('p', {}, h('span', {class: 'spinner', 'aria-hidden': 'true'}), ' ', t('pair.asking'), ' ', what))
  }
  const clock = h('span', {class: 'elapsed', 'data-test': 'pair-elapsed'}, elapsed(Date.now() - st.since))
  const box = h('div', {class: 'pair-status waiting', 'data-test': 'pair-waiting', 'data-id': st.id},
    h('p', {role: 'status'}, h('span', {class: 'spinner', 'aria-hidden': 'true'}), ' ', t('pair.waiting'), ' ', what, ' ', clock),
    h('div', {class: 'pair-actions'},
      h('button', {type: 'button', 'data-test': 'pair-cancel', onclick: () => seeker.cancel()}, t('pair.cancel')),
      h('button', {type: 'button', 'data-test': 'pair-bot', onclick: () => seeker.bot()}, t('pair.bot'))),
    h('p', {class: 'note'}, t('pair.leaveNote')))
  const tick = setInterval(() => {
    if (!box.isConnected || seeker.state.id !== st.id || seeker.state.phase !== 'waiting') clearInterval(tick)
    else clock.textContent = elapsed(Date.now() - st.since)
  }, 1000)
  return box
}

/**
 * onlineCount is "12 players online", asked of the server when shown, then
 * every 30 s while the page is visible (and at once when it becomes visible
 * again after that long): one small request a minute at most twice.
 */
export function onlineCount() {
  const node = h('span', {class: 'online', 'data-test': 'online', hidden: true})
  let last = 0
  let timer = null
  let dead = false
  const show = (n) => {
    node.replaceChildren(h('span', {class: 'dot', 'aria-hidden': 'true'}), ' ', n === 1 ? t('online.one') : t('online.many', {n}))
    node.dataset.count = String(n)
    node.hidden = !n // nobody signed in yet (a visitor is counted once signed in or a guest)
  }
  const refresh = async () => {
    if (dead || document.hidden) return
    last = Date.now()
    try {
      const res = await api.online()
      if (!dead) show(res.players)
    } catch {
      // the count is a nicety: keep the last one
    }
  }
  const onVisible = () => {
    if (!document.hidden && Date.now() - last >= 30000) refresh()
  }
  document.addEventListener('visibilitychange', onVisible)
  refresh()
  timer = setInterval(refresh, 30000)
  return {
    node,
    refresh,
    relang: () => node.dataset.count && show(Number(node.dataset.count)),
    destroy() {
      dead = true
      clearInterval(timer)
      document.removeEventListener('visibilitychange', onVisible)
    },
  }
}
