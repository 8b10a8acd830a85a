// Quick pairing (POST /api/pairing) and the count of players online
// (GET /api/online), for the lobby and the home page.
//
// One search per tab, kept while the player browses the site (as lichess
// keeps a seek): the server pairs its user for a game and a time control,
// either into a waiting player's game, live at once (the page goes there),
// or into an open game of their own to wait in. While waiting the tab
// listens on that game's channel (no polling) and goes to the game as soon
// as someone joins, from whatever page it shows. Cancel aborts the waiting
// game, "Play a bot instead" aborts it and starts the same game against a
// bot, and closing (or reloading) the tab aborts it too. The server pairs
// only with games that waited at most the catalog's pairing window, so a
// longer wait is renewed: the old game aborted, the request made again.
//
// A page that shows the search itself (the lobby's pairing panel) makes a
// Seeker with inline: true; on every other page, Home included, the search
// shows in a bar fixed to the bottom of the window, which moves nothing on
// the page and is always in view.

import {h} from '../dom.js'
import {t} from '../i18n.js'
import {api, commandKey} from '../api.js'
import * as session from '../session.js'
import {GameChannel} from '../channel.js'
import * as catalog from '../catalog.js'
import {errorBox, gameTitle} from './common.js'
import {clockText} from './players.js'
import {quickGame, savedLevel} from './quickgame.js'

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

const defaultPlayBot = (game, clock) => quickGame(game, savedLevel(), catalog.pairClock(clock))

// Search is the tab's one search; Seekers are the pages' views of it.
class Search {
  constructor() {
    // phase: idle | asking | waiting | leaving | matched
    this.state = {phase: 'idle'}
    this.channel = null
    this.renewTimer = null
    this.views = new Set()
    this.bar = null
    this.onHide = () => this.abortOnExit()
  }

  set(state) {
    this.state = state
    for (const v of [...this.views]) v.onChange?.(state)
    this.showBar()
  }

  busy() {
    return this.state.phase !== 'idle'
  }

  async ask(game, clock) {
    if (this.busy()) return
    this.set({phase: 'asking', game, clock})
    try {
      await session.ensure()
      const res = await api.pair(game, clock)
      if (this.state.phase !== 'asking') {
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

  // matched: the views hear it (the page is about to change), then the
  // search is over and a new one may start.
  matched(id) {
    this.set({phase: 'matched', id})
    this.state = {phase: 'idle'}
    this.showBar()
  }

  go(id) {
    this.stopWaiting()
    location.hash = '#/game/' + id
    this.matched(id)
  }

  // leave aborts the waiting game; resolves true when it is gone, false
  // when someone joined meanwhile (then the page has gone to the game).
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

  async bot(playBot = defaultPlayBot) {
    if (this.state.phase !== 'waiting') return
    const {game, clock} = this.state
    if (!(await this.leave())) return
    try {
      await playBot(game, clock)
      this.matched()
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

  // abortOnExit aborts the waiting game as the tab closes.
  abortOnExit() {
    if (this.state.phase !== 'waiting') return
    const id = this.state.id
    this.stopWaiting()
    this.state = {phase: 'idle'}
    abortQuietly(id)
  }

  dismiss() {
    if (!this.busy()) this.set({phase: 'idle'})
  }

  // showBar draws the search in the bar at the bottom of the window, unless
  // a page shows it inline (or there is nothing to show).
  showBar() {
    const inline = [...this.views].some((v) => v.inline)
    const box = inline ? null : statusBox(this)
    if (!box) {
      if (this.bar) this.bar.replaceChildren()
      if (this.bar) this.bar.hidden = true
      document.body.classList.remove('pair-bar-on')
      return
    }
    if (!this.bar) {
      this.bar = h('div', {class: 'pair-bar', 'data-test': 'pair-bar', 'aria-live': 'polite'})
      document.body.append(this.bar)
      window.addEventListener('tabula:lang', () => this.showBar())
    }
    if (this.state.phase === 'idle') {
      box.append(h('button', {type: 'button', class: 'subtle pair-dismiss', 'data-test': 'pair-dismiss', 'aria-label': t('pair.dismiss'),
        onclick: () => this.dismiss()}, '×'))
    }
    this.bar.replaceChildren(box)
    this.bar.hidden = false
    document.body.classList.add('pair-bar-on')
  }
}

const search = new Search()

/**
 * Seeker is a page's view of the tab's search (there is one per tab; it
 * outlives the page). onChange(state) is called after every change of
 * state while the page lives; playBot(game, clock) starts a game against a
 * bot instead; inline: the page draws statusBox itself (else the bar at the
 * bottom of the window shows it).
 */
export class Seeker {
  constructor({onChange, playBot, inline = true} = {}) {
    this.onChange = onChange
    this.playBot = playBot || defaultPlayBot
    this.inline = inline
    search.views.add(this)
    search.showBar()
  }

  get state() {
    return search.state
  }

  busy() {
    return search.busy()
  }

  /** ask pairs the user for game and clock (the name of one of the catalog's pairing clocks). */
  ask(game, clock) {
    return search.ask(game, clock)
  }

  cancel() {
    return search.cancel()
  }

  bot() {
    return search.bot(this.playBot)
  }

  /** destroy: the page goes; the search stays (the bar shows it). */
  destroy() {
    search.views.delete(this)
    search.showBar()
  }
}

// abortQuietly aborts a game as the page goes: keepalive, so it is sent
// even while the tab closes; its answer matters to nobody.
function abortQuietly(id) {
  try {
    fetch(`/api/games/${encodeURIComponent(id)}/abort`, {method: 'POST', keepalive: true, credentials: 'same-origin',
      headers: {'Content-Type': 'application/json', Accept: 'application/json', 'Idempotency-Key': commandKey()},
      body: '{}'}).catch(() => {})
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
    h('p', {class: 'note'}, t('pair.tabNote')))
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
