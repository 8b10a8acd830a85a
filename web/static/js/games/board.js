// What the four game boards share: the SVG host, a prompt line that guides
// multi-step turns and explains refused clicks, an action bar for moves
// that are not a place on the board (pass, swap, stop), click and keyboard
// handling of hit targets, a text alternative of the position, and
// destroy(). A board never decides what is legal: it offers exactly the
// moves of the server's legal list.

import {h, clear} from '../dom.js'
import {t} from '../i18n.js'
import {seatText} from '../seats.js'

export class Board {
  /**
   * @param {HTMLElement} container where the board is drawn
   * @param {object} props
   *   onMove(text): called with a move of the legal list when the user plays it
   *   interactive: false for a read-only board (replays, spectators)
   *   infoHost: where the facts beside the board (groups, stocks, scores)
   *     and the board as text go; the board itself when not given
   *   levels: Sploof also draws every level of its pyramid on its own
   */
  constructor(container, props) {
    this.props = {interactive: true, onMove: () => {}, ...props}
    this.state = null
    this.busy = false
    this.root = h('section', {class: 'board', 'aria-label': t('board.label')})
    this.host = h('div', {class: 'board-svg'})
    this.info = h('div', {class: 'board-info'})
    this.prompt = h('p', {class: 'prompt', role: 'status', 'aria-live': 'polite', 'data-test': 'prompt'})
    this.actions = h('div', {class: 'actions', 'data-test': 'actions'})
    this.textBody = h('div', {class: 'board-text-body'})
    this.text = h('details', {class: 'board-text'}, h('summary', {}, t('board.asText')), this.textBody)
    this.root.append(this.prompt, this.host, this.actions)
    ;(this.props.infoHost || this.root).append(this.info, this.text)
    container.append(this.root)

    this.onClick = (ev) => {
      const target = ev.target.closest('[data-hit]')
      if (!target || !this.root.contains(target)) return
      ev.preventDefault()
      this.activate(target.getAttribute('data-hit'))
    }
    // A move that arrives draws the board anew, so a target pressed just
    // before it is another element at the release, and the browser sends no
    // click for a press and a release on two elements: a premove or a move
    // pressed at that moment was lost. A release on the target of the same
    // key as the one pressed, now replaced, plays it.
    this.pressed = null
    this.onDown = (ev) => {
      const target = ev.isPrimary && ev.button === 0 && ev.target.closest ? ev.target.closest('[data-hit]') : null
      this.pressed = target && this.root.contains(target) ? target : null
    }
    this.onUp = (ev) => {
      const was = this.pressed
      this.pressed = null
      if (!was || was.isConnected || !ev.isPrimary || ev.button !== 0) return // a click on one element comes as a click
      const target = ev.target.closest ? ev.target.closest('[data-hit]') : null
      if (!target || !this.root.contains(target) || target.getAttribute('data-hit') !== was.getAttribute('data-hit')) return
      // no click follows: the pressed element has no ancestor left in the page
      this.activate(target.getAttribute('data-hit'))
    }
    this.host.addEventListener('pointerdown', this.onDown)
    this.host.addEventListener('pointerup', this.onUp)
    this.onKey = (ev) => {
      if (ev.key !== 'Enter' && ev.key !== ' ') return
      const target = ev.target.closest && ev.target.closest('[data-hit]')
      if (!target) return
      ev.preventDefault()
      this.activate(target.getAttribute('data-hit'))
    }
    this.host.addEventListener('click', this.onClick)
    this.host.addEventListener('keydown', this.onKey)
    this.onEscape = (ev) => {
      if (ev.key === 'Escape' && this.cancel()) {
        ev.preventDefault()
        this.redraw()
      }
    }
    this.root.addEventListener('keydown', this.onEscape)
  }

  /**
   * set shows a new state: {view, legal, seat, seats, moves, status, fresh}
   * legal: the moves the user may play now (null when it is not their turn);
   * seat: the user's seat (-1 spectator); moves: every move so far;
   * fresh: true when the last move has just arrived (animate it).
   */
  set(state) {
    const legalChanged = !this.state || String(this.state.legal) !== String(state.legal)
    this.state = state
    this.busy = false
    if (legalChanged) this.reset()
    this.redraw()
  }

  /** myTurn: the user may play now. */
  get myTurn() {
    return !!(this.props.interactive && this.state && this.state.legal && this.state.legal.length && !this.busy)
  }

  redraw() {
    if (!this.state || !this.state.view) return
    // Redrawing replaces the SVG nodes: keep keyboard focus on the same target.
    const focused = document.activeElement && this.host.contains(document.activeElement) ?
      document.activeElement.getAttribute('data-hit') : null
    this.render()
    this.renderPrompt()
    clear(this.textBody)
    for (const line of this.describe()) this.textBody.append(h('p', {}, line))
    if (this.props.decorate) this.props.decorate(this) // marks drawn over the board (a premove, components/premove.js)
    // Focus is given back before the next frame, not at once: focusing makes
    // the browser lay the page out, and the page is still changing (the
    // prompt, the move list), so the frame would lay it out a second time.
    if (focused) {
      requestAnimationFrame(() => {
        if (document.activeElement && document.activeElement !== document.body) return // the player went on elsewhere
        const again = this.host.querySelector(`[data-hit="${CSS.escape(focused)}"]`) || this.host.querySelector('[data-hit].hit')
        if (again) again.focus({preventScroll: true})
      })
    }
  }

  renderPrompt() {
    clear(this.actions)
    const {text, buttons} = this.guide()
    // state.premove: the premove's line while the opponent is to move (not over a half-made choice)
    const premove = this.state && this.state.premove && !this.sel ? this.state.premove : ''
    this.prompt.textContent = this.warning || premove || text || ''
    this.prompt.classList.toggle('warn', !!this.warning)
    for (const b of buttons || []) {
      this.actions.append(h('button', {type: 'button', class: b.primary ? 'primary' : '', 'data-move': b.move || null,
        onclick: () => b.run()}, b.label))
    }
  }

  /** play sends text if it is legal now; otherwise it explains. */
  play(text) {
    if (!this.myTurn) {
      this.warn(this.notYourTurn())
      return
    }
    if (!this.state.legal.includes(text)) {
      this.warn(t('board.notLegal', {move: text}))
      return
    }
    this.busy = true
    this.warning = null
    this.reset()
    this.props.onMove(text)
    this.redraw()
  }

  notYourTurn() {
    if (!this.props.interactive || !this.state || this.state.seat < 0) return t('board.spectating')
    if (this.state.status && this.state.status !== 'live') return t('board.notLive')
    if (this.busy) return t('board.sending')
    return t('board.waitTurn')
  }

  /** warn shows why a click did nothing, until the next click that does something. */
  warn(msg) {
    this.warning = msg
    this.renderPrompt()
  }

  activate(key) {
    this.warning = null
    this.hit(key)
    this.redraw()
  }

  /** hitTarget marks an SVG element as clickable and reachable by keyboard. */
  hitTarget(node, key, label, active = true) {
    node.setAttribute('data-hit', key)
    node.setAttribute('tabindex', active ? '0' : '-1')
    node.setAttribute('role', 'button')
    node.setAttribute('aria-label', label)
    // premove candidates (state.premoving) are clickable too, but are not the moves legal now
    if (active) node.classList.add(this.state && this.state.premoving ? 'pre-hit' : 'hit')
    return node
  }

  /** The last turn: the moves at the end of the list made by the last mover. */
  lastTurn() {
    const ms = (this.state && this.state.moves) || []
    if (!ms.length) return []
    const seat = ms[ms.length - 1].seat
    let i = ms.length - 1
    while (i > 0 && ms[i - 1].seat === seat) i--
    return ms.slice(i)
  }

  /** live: the game is being played (not over, not a replay). */
  live() {
    return !!this.state && (!this.state.status || this.state.status === 'live')
  }

  /**
   * owner names the player or bot of a seat, to follow its side's name
   * after a dot, not in brackets (a bot's name has its level in brackets);
   * '' where the board has no players (the analysis board, the editor),
   * so that a side is not named twice ("White (White)").
   */
  owner(seat) {
    const se = this.state && this.state.seats && this.state.seats[seat]
    return se && (se.user || se.kind === 'bot') ? this.seatLabel(seat) : ''
  }

  seatLabel(seat) {
    const se = this.state && this.state.seats && this.state.seats[seat]
    if (!se) return t('seat.n', {n: seat + 1})
    return se.user || (se.kind === 'bot' ? seatText(se, this.state.seats) : t('seat.n', {n: seat + 1}))
  }

  // Subclasses implement:
  reset() {} // forget a half-made multi-step choice
  cancel() {
    return false
  } // Escape: step back; true if something was cancelled
  render() {} // draw the view
  hit() {} // a hit target was activated
  guide() {
    return {text: '', buttons: []}
  }
  describe() {
    return []
  }

  destroy() {
    this.host.removeEventListener('click', this.onClick)
    this.host.removeEventListener('pointerdown', this.onDown)
    this.host.removeEventListener('pointerup', this.onUp)
    this.host.removeEventListener('keydown', this.onKey)
    this.root.removeEventListener('keydown', this.onEscape)
    this.root.remove()
    this.info.remove()
    this.text.remove()
    this.state = null
  }
}

/** animateFrom makes node glide in from an offset (dx, dy in SVG units). */
export function animateFrom(node, dx, dy) {
  node.style.setProperty('--dx', dx + 'px')
  node.style.setProperty('--dy', dy + 'px')
  node.classList.add('glide')
}
