// The game room of a game page (docs/api.md, "The game room"): what goes on
// around the moves. During a live game a player may take back (at once
// against bots in an unrated game, else asking the others), offer a draw
// (two people), abort (until every seat has moved) and claim the win from
// an opponent who left and is to move past the grace; pending offers show
// with Accept/Decline (or Withdraw for one's own). After a finished game:
// the rematch, offered, accepted (both pages go to it), declined or
// withdrawn; against bots it starts at once. The room's events carry a number n of their own:
// one up to the snapshot's is already in it.

import {h, clear, renew} from '../dom.js'
import {t} from '../i18n.js'
import {api} from '../api.js'
import * as session from '../session.js'
import * as catalog from '../catalog.js'
import {errorText, seatText} from './common.js'

export class Room {
  /**
   * @param {object} opts channel(): the game channel; game(): the page's
   *   state ({summary, seat, moves}); say(node|null): an error to show;
   *   changed(): the buttons depend on the room, draw them again;
   *   drawn(): the room was drawn (optional).
   */
  constructor({channel, game, say, changed, drawn}) {
    this.channel = channel
    this.game = game
    this.say = say
    this.changed = changed
    this.drawn = drawn // after each drawing: the page's title follows the room
    this.n = 0
    this.offers = []
    this.away = []
    this.graceMs = 30000
    this.note = null // the last thing done to an offer: {kind, seat, action}
    this.rematch = null // the rematch's summary, once offered
    this.rematchDone = '' // 'declined' | 'withdrawn': what this page did to it
    this.sent = new Map() // message id → what it asked
    this.timer = null
    this.claimEl = null
    this.el = h('div', {class: 'room-box', 'data-test': 'room', 'aria-live': 'polite'})
  }

  // — the channel's messages —

  /** snapshot takes the room (open or live game) or the rematch (finished game) of a snapshot. */
  snapshot(msg) {
    const r = msg.room
    if (r) {
      this.n = r.n
      this.offers = r.offers || []
      this.graceMs = r.graceMs || this.graceMs
      this.setAway(r.away)
    } else {
      this.offers = []
      this.away = []
    }
    this.rematch = msg.rematch || null
    this.draw()
  }

  /**
   * asked is what the room asks of this page's player now: 'draw' or
   * 'takeback' (another player's offer the player may answer), 'rematch'
   * (an invitation to one), or '' — the tab's title tells of it.
   */
  asked() {
    const st = this.game()
    if (!st.summary || st.seat < 0) return ''
    const o = this.offers.find((o) => o.seat !== st.seat && !(o.accepted || []).includes(st.seat))
    if (o) return o.kind
    const r = this.rematch
    const me = session.current()
    const seat = r && me ? r.seats.find((se) => se.user === me.name) : null
    return r && r.status === 'open' && seat && seat.kind === 'invite' ? 'rematch' : ''
  }

  /** fresh says whether a room event is new (not already in the snapshot), and counts it. */
  fresh(msg) {
    if (typeof msg.n === 'number') {
      if (msg.n <= this.n) return false
      this.n = msg.n
    }
    return true
  }

  offer(msg) {
    if (!this.fresh(msg)) return
    this.offers = msg.offers || []
    this.note = msg.note || null
    this.draw()
    this.changed()
  }

  presence(msg) {
    if (!this.fresh(msg)) return
    this.graceMs = msg.graceMs || this.graceMs
    this.setAway(msg.away)
    this.draw()
    this.changed()
  }

  /** isAway: the player of seat has left the game's page. */
  isAway(seat) {
    return this.away.some((a) => a.seat === seat)
  }

  setAway(away) {
    const now = performance.now()
    this.away = (away || []).map((a) => ({seat: a.seat, since: a.since, claimAt: typeof a.claimInMs === 'number' ? now + a.claimInMs : null}))
  }

  /**
   * moved: a move (or a takeback) changed the game. Every pending offer
   * ends; the mover is there; an away seat that is now to move may be
   * claimed from after the grace, counted from now.
   */
  moved(mover) {
    const st = this.game()
    const sum = st.summary
    this.offers = []
    if (mover !== undefined) this.note = null
    this.away = this.away.filter((a) => a.seat !== mover)
    const now = performance.now()
    for (const a of this.away) {
      const claimable = sum.status === 'live' && sum.clock.kind !== 'correspondence' && a.seat === sum.toMove
      if (!claimable) a.claimAt = null
      else if (a.claimAt === null) a.claimAt = now + this.graceMs
    }
    this.draw()
  }

  /** ended: the game is over; its room is gone (offers lapse, everyone counts as there). */
  ended() {
    this.offers = []
    this.away = []
    this.note = null
    this.draw()
  }

  /** rematchEvent: the rematch changed; a page seated in it goes there once it starts. */
  rematchEvent(msg) {
    this.rematch = msg.game
    if (msg.game.status === 'live' && this.inRematch()) {
      location.hash = '#/game/' + msg.game.id
      return
    }
    this.draw()
    this.changed()
  }

  /** ack: a message of the room's was done; true if it was one. */
  ack(id) {
    return this.sent.delete(id)
  }

  /** error: a message of the room's was refused; its text is shown. True if it was one. */
  error(id, err, chat) {
    const what = this.sent.get(id)
    if (!what) return false
    this.sent.delete(id)
    const text = refusal(what, err)
    if (what === 'chat') chat?.refused(id, text)
    else this.say(h('p', {class: 'error', role: 'alert', 'data-test': 'room-error'}, text))
    return true
  }

  // — asking —

  send(what, fn) {
    const ch = this.channel()
    const id = ch && fn(ch)
    if (!id) {
      this.say(h('p', {class: 'error', role: 'alert'}, t('game.conn.closed')))
      return null
    }
    this.say(null)
    this.sent.set(id, what)
    return id
  }

  chat(text) {
    return this.send('chat', (ch) => ch.chat(text))
  }

  // — what the page shows —

  who(seat) {
    const st = this.game()
    if (seat === st.seat) return t('room.you')
    const se = st.summary && st.summary.seats[seat]
    return se ? seatText(se, st.summary.seats) : '?'
  }

  /** others names the other people of the game. */
  others() {
    const st = this.game()
    return st.summary.seats.filter((se, i) => i !== st.seat && (se.kind === 'human' || se.kind === 'invite'))
      .map((se) => se.user).join(', ')
  }

  /** inRematch: the reader holds or is invited to a seat of the rematch. */
  inRematch() {
    const me = session.current()
    return !!(me && this.rematch && this.rematch.seats.some((se) => se.user === me.name && (se.kind === 'human' || se.kind === 'invite')))
  }

  /** buttons are the room's actions now, for the page's row of buttons. */
  buttons() {
    const st = this.game()
    const sum = st.summary
    const out = []
    if (!sum || st.seat < 0) return out
    const people = sum.seats.filter((se) => se.kind === 'human' || se.kind === 'invite').length
    const mine = (kind) => this.offers.some((o) => o.kind === kind && o.seat === st.seat)
    const theirs = (kind) => this.offers.some((o) => o.kind === kind && o.seat !== st.seat)
    if (sum.status === 'live') {
      if (!catalog.hidden(sum.game) && st.moves.some((m) => m.seat === st.seat) && !mine('takeback') && !theirs('takeback')) {
        const free = !sum.rated && sum.seats.every((se, i) => i === st.seat || se.kind === 'bot')
        out.push(h('button', {type: 'button', 'data-test': 'takeback', title: t(free ? 'room.takebackFree' : 'room.askTakeback'),
          onclick: () => this.send('takeback', (ch) => ch.offer('takeback'))}, t('room.takeback')))
      }
      if (sum.seats.length === 2 && people === 2 && !mine('draw') && !theirs('draw')) {
        out.push(h('button', {type: 'button', 'data-test': 'offer-draw', onclick: () => this.send('draw', (ch) => ch.offer('draw'))}, t('room.offerDraw')))
      }
      const moved = new Set(st.moves.map((m) => m.seat))
      if (moved.size < sum.seats.length) {
        out.push(h('button', {type: 'button', 'data-test': 'abort', onclick: () => {
          if (confirm(t('room.abortConfirm'))) this.send('abort', (ch) => ch.abort())
        }}, t('room.abort')))
      }
    }
    // The rematch: the seats turned (two players swap sides); against bots it
    // starts at once. A game from a set position has none (the server's rule).
    if (sum.status === 'finished' && !sum.start && !this.rematch) {
      out.push(h('button', {type: 'button', class: people >= 2 ? 'primary' : '', 'data-test': 'rematch', title: t('room.rematchTitle'),
        onclick: () => this.send('rematch', (ch) => ch.rematch())}, t('room.rematch')))
    }
    return out
  }

  // draw builds the room's rows apart and gives the page only the rows that
  // changed (dom.js renew): it runs at every offer, presence and move, and
  // an Accept or Claim being pressed as one comes in stays the same button.
  draw() {
    const fresh = h('div')
    this.claimEl = null
    this.drawRows(fresh)
    renew(this.el, fresh)
    this.claimEl = this.el.querySelector('[data-test=claim-box]')
    this.el.hidden = !this.el.childNodes.length
    if (this.drawn) this.drawn()
  }

  /** drawRows appends the room's rows to box. */
  drawRows(box) {
    const st = this.game()
    const sum = st.summary
    if (!sum) return
    const player = st.seat >= 0
    const button = (label, test, onclick, primary) => h('button', {type: 'button', class: primary ? 'primary' : '', 'data-test': test, onclick}, label)
    for (const o of this.offers) {
      const own = o.seat === st.seat
      const row = h('div', {class: 'room-row offer', 'data-test': `offer-${o.kind}`},
        h('span', {}, own ? t(`room.offer.${o.kind}.mine`) : t(`room.offer.${o.kind}.theirs`, {who: this.who(o.seat)})))
      if (own) row.append(acts(button(t('room.withdraw'), 'withdraw', () => this.send('withdraw', (ch) => ch.decline(o.kind)))))
      else if (player && !(o.accepted || []).includes(st.seat)) {
        row.append(acts(button(t('room.accept'), 'accept', () => this.send('accept', (ch) => ch.accept(o.kind)), true),
          button(t('room.decline'), 'decline', () => this.send('decline', (ch) => ch.decline(o.kind)))))
      }
      box.append(row)
    }
    if (this.note && this.note.action !== 'offered') {
      box.append(h('div', {class: 'room-row note', 'data-test': 'offer-note'},
        t(`room.note.${this.note.action}.${this.note.kind}`, {who: this.who(this.note.seat)})))
    }
    if (sum.status === 'live') {
      for (const a of this.away) {
        if (a.seat === st.seat) continue
        const row = h('div', {class: 'room-row away', 'data-test': 'away'}, h('span', {}, t('room.away', {who: this.who(a.seat)})))
        if (player && a.claimAt !== null) {
          this.claimEl = h('span', {class: 'claim', 'data-test': 'claim-box'})
          this.claimSeat = a.seat
          row.append(' ', this.claimEl)
        } else if (player && sum.clock.kind !== 'correspondence') {
          // Not their turn: say when a claim becomes possible, not only that they left (issue 27).
          row.append(' ', h('span', {class: 'claim', 'data-test': 'claim-later'}, t('room.claimOnTurn', {time: minSec(Math.ceil(this.graceMs / 1000))})))
        }
        box.append(row)
      }
    }
    if (sum.status === 'finished' && player && this.rematch) this.drawRematch(box)
    // The claim box is filled before it is compared: drawn again as it was,
    // its countdown or its Claim button stays.
    this.tick()
  }

  drawRematch(box) {
    const r = this.rematch
    const me = session.current()
    const seat = me ? r.seats.find((se) => se.user === me.name) : null
    const row = h('div', {class: 'room-row rematch', 'data-test': 'rematch-box'})
    const button = (label, test, onclick, primary) => h('button', {type: 'button', class: primary ? 'primary' : '', 'data-test': test, onclick}, label)
    const abort = (done) => async () => {
      this.rematchDone = done // before the answer: the rematch's event may come first
      try {
        await api.abort(r.id)
      } catch (e) {
        this.rematchDone = ''
        this.say(h('p', {class: 'error', role: 'alert', 'data-test': 'room-error'}, refusal('rematch', e)))
      }
      this.draw()
    }
    const offerer = seatText(r.seats.find((se) => se.user === r.creator) || {kind: 'human', user: r.creator})
    if (r.status === 'open' && seat && seat.kind === 'invite') {
      row.append(h('span', {}, t('room.rematch.theirs', {who: offerer})),
        acts(button(t('room.accept'), 'rematch-accept', () => this.send('rematch', (ch) => ch.rematch()), true),
          button(t('room.decline'), 'rematch-decline', abort('declined'))))
    } else if (r.status === 'open' && seat && r.creator === me.name) {
      row.append(h('span', {}, t('room.rematch.mine', {who: this.others()})), acts(button(t('room.withdraw'), 'rematch-withdraw', abort('withdrawn'))))
    } else if (r.status === 'open') {
      row.append(h('span', {}, t('room.rematch.accepted')))
    } else if (r.status === 'aborted') {
      const key = this.rematchDone === 'declined' ? 'room.rematch.youDeclined' : this.rematchDone === 'withdrawn' ? 'room.rematch.youWithdrew'
        : r.creator === (me && me.name) ? 'room.rematch.declined' : 'room.rematch.withdrawn'
      row.append(h('span', {}, t(key, {who: r.creator === (me && me.name) ? this.others() : offerer})))
    } else {
      row.append(h('span', {}, t('room.rematch.on')), acts(h('a', {href: '#/game/' + r.id, class: 'button', 'data-test': 'rematch-open'}, t('room.rematch.open'))))
    }
    box.append(row)
  }

  /** tick counts down to the claim, and offers it when the grace has run out. */
  tick() {
    clearTimeout(this.timer)
    this.timer = null
    const a = this.claimEl && this.away.find((x) => x.seat === this.claimSeat)
    if (!a || a.claimAt === null) return
    const left = a.claimAt - performance.now()
    clear(this.claimEl)
    if (left > 0) {
      const sec = Math.ceil(left / 1000)
      this.claimEl.append(t('room.claimIn', {time: minSec(sec)}))
      this.timer = setTimeout(() => this.tick(), Math.min(1000, left % 1000 || 1000))
    } else {
      this.claimEl.append(h('button', {type: 'button', class: 'primary', 'data-test': 'claim', onclick: () => this.send('claim', (ch) => ch.claim())},
        t('room.claim')))
    }
  }

  destroy() {
    clearTimeout(this.timer)
  }
}

/** minSec writes sec seconds as m:ss, as the claim's countdown counts. */
function minSec(sec) {
  return `${Math.floor(sec / 60)}:${String(sec % 60).padStart(2, '0')}`
}

/** acts keeps a row's buttons together: they wrap below its text as one. */
function acts(...buttons) {
  return h('span', {class: 'room-acts'}, buttons)
}

/** refusal explains why the server refused a room message (what: what was asked). */
function refusal(what, err) {
  const code = err && err.code
  const group = what === 'draw' || what === 'takeback' ? 'offer' : what === 'accept' || what === 'decline' || what === 'withdraw' ? 'answer' : what
  for (const key of [`room.err.${what}.${code}`, `room.err.${group}.${code}`]) {
    const msg = t(key)
    if (msg !== key) return msg
  }
  return errorText(err)
}
