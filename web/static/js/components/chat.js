// The chat of a game page (docs/api.md, "The game room"): the players'
// chat on a player's page, the spectators' chat on everyone else's (issue
// 27: the players never see it during their game; the server sends each
// reader only theirs). A line is one line of at most the catalog's chatMax
// characters, shown as text (never markup), and the server's refusals (too
// fast, too long) are said under the input.
// Muting hides the others' lines; it is remembered (one setting for both
// chats).

import {h, renew} from '../dom.js'
import {t} from '../i18n.js'
import * as prefs from '../prefs.js'
import * as catalog from '../catalog.js'
import {openReport} from './reportdialog.js'

export class Chat {
  /**
   * @param {object} opts send(text): the line's message id, or null when
   *   not connected; who(seat): how to name a seat; spectators: this is the
   *   spectators' chat (a line names who said it: line.user), me the
   *   reader's name there ('' when not signed in: reading only).
   */
  constructor({send, who, spectators = false, me = ''}) {
    this.send = send
    this.who = who
    this.spectators = spectators
    this.me = me
    this.lines = []
    this.mine = -1
    this.said = new Map() // message id → the line, until acknowledged or refused
    this.muted = prefs.get('chatMuted') === '1'
    const title = t(spectators ? 'chat.spectators.title' : 'chat.title')
    this.log = h('ol', {class: 'chat-log', 'data-test': 'chat-log', 'aria-live': 'polite', 'aria-label': title})
    this.input = h('input', {type: 'text', maxlength: catalog.chatMax(), autocomplete: 'off', 'data-test': 'chat-input',
      'aria-label': t(spectators ? 'chat.spectators.say' : 'chat.say'), placeholder: t('chat.placeholder'), oninput: () => this.count()})
    this.counter = h('span', {class: 'chat-count', 'aria-live': 'polite'})
    this.err = h('p', {class: 'chat-error', role: 'alert', 'data-test': 'chat-error', hidden: true})
    this.muteBox = h('input', {type: 'checkbox', 'data-test': 'chat-mute', checked: this.muted, onchange: () => {
      this.muted = this.muteBox.checked
      prefs.set('chatMuted', this.muted ? '1' : '0')
      this.draw()
    }})
    this.form = h('form', {class: 'chat-form', onsubmit: (ev) => {
      ev.preventDefault()
      this.say()
    }}, this.input, h('button', {type: 'submit', 'data-test': 'chat-send'}, t('chat.send')))
    this.el = h('section', {class: 'game-chat' + (spectators ? ' spectators' : ''), 'data-test': spectators ? 'spectator-chat' : 'chat', 'aria-label': title},
      h('div', {class: 'chat-head'}, h('h2', {}, title),
        h('label', {class: 'chat-mute'}, this.muteBox, ' ', t('chat.mute'))),
      this.log, this.form, this.counter, this.err)
  }

  /** set replaces the lines (a snapshot's); seat is the reader's. */
  set(lines, seat) {
    lines = lines || []
    // The game page sets the lines at every event of the game; drawing
    // them again (and measuring the log to keep it scrolled) at every move
    // when nobody said anything made the browser lay the page out for it.
    const same = seat === this.mine && this.lines && lines.length === this.lines.length &&
      lines.every((l, i) => l.n === this.lines[i].n && l.text === this.lines[i].text)
    this.mine = seat
    this.lines = lines.slice()
    if (!same) this.draw()
  }

  /** add appends a line heard on the channel (skipping one already shown). */
  add(line) {
    if (this.lines.some((l) => l.n === line.n)) return
    this.lines.push(line)
    this.lines = this.lines.slice(-100)
    this.draw()
  }

  /** open says whether lines may be said now (the game is open or live; a spectator signed in). */
  open(on) {
    on = on && (!this.spectators || !!this.me)
    this.form.hidden = !on
    if (!on) this.counter.textContent = ''
  }

  draw() {
    const follow = this.log.scrollTop + this.log.clientHeight >= this.log.scrollHeight - 4
    // Renewed by line number (dom.js renew), not redrawn: a line that
    // arrives leaves the others — and the ⚑ being pressed, or the text
    // being selected — where they are.
    const log = h('ul', {})
    const mine = (l) => (this.spectators ? !!this.me && l.user === this.me : l.seat === this.mine)
    const shown = this.lines.filter((l) => !this.muted || mine(l))
    const empty = this.spectators ? 'chat.spectators.empty' : 'chat.empty'
    if (!shown.length) log.append(h('li', {class: 'chat-empty'}, t(this.muted && this.lines.length ? 'chat.mutedNote' : empty)))
    for (const l of shown) {
      log.append(h('li', {class: mine(l) ? 'mine' : '', 'data-seat': l.seat, 'data-key': String(l.n)},
        h('span', {class: 'chat-who'}, this.spectators ? l.user || '?' : this.who(l.seat)), ' ', h('span', {class: 'chat-text'}, l.text),
        this.spectators || mine(l) ? null : this.reportLine(l)))
    }
    renew(this.log, log)
    if (follow || shown.length && mine(shown[shown.length - 1])) this.log.scrollTop = this.log.scrollHeight
  }

  /** reportLine is a player's line's button to report it to the moderators (reportdialog.js); the game is the page's. */
  reportLine(l) {
    const game = (/^#\/game\/([\w-]+)/.exec(location.hash) || [])[1]
    if (!game) return null
    return h('button', {type: 'button', class: 'chat-report link', 'data-test': 'chat-report', title: t('report.lineButton'),
      'aria-label': t('report.lineButton'), onclick: () => openReport({game, line: l.n, text: l.text, who: this.who(l.seat)})}, '⚑')
  }

  count() {
    const n = [...this.input.value].length
    const max = catalog.chatMax()
    this.counter.textContent = n > max - 40 ? t('chat.left', {n: max - n}) : ''
  }

  say() {
    const text = this.input.value.trim()
    if (!text) return
    if ([...text].length > catalog.chatMax()) {
      this.error(t('chat.tooLong', {max: catalog.chatMax()}))
      return
    }
    const id = this.send(text)
    if (!id) {
      this.error(t('game.conn.closed'))
      return
    }
    this.error('')
    this.said.set(id, text)
    this.input.value = ''
    this.count()
    return id
  }

  /** done: the line of message id was said. */
  done(id) {
    this.said.delete(id)
  }

  /** refused: the line of message id was not said; it comes back to the input, with why. */
  refused(id, text) {
    const line = this.said.get(id)
    this.said.delete(id)
    if (line !== undefined && !this.input.value) {
      this.input.value = line
      this.count()
    }
    this.error(text)
  }

  /** error shows why a line was refused ('' clears it). */
  error(text) {
    this.err.textContent = text
    this.err.hidden = !text
  }
}
