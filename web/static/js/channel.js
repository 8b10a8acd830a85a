// The WebSocket channels of docs/api.md: the game channel (one per open
// game page) and the user channel (the signed-in user's turns and
// invitations). A channel reconnects by itself with a growing pause; every
// new game-channel connection starts with a snapshot, which is how the
// page resynchronises. A socket the server closed because the account was
// closed is not reconnected (accountClosed).

const MIN_DELAY = 300
const MAX_DELAY = 8000

/**
 * accountClosed says whether a socket's close event is the server's for a
 * closed account (code 1008, policy violation, with a reason starting
 * "closed"); 1008 for a slow reader asks for a reconnection instead.
 */
export function accountClosed(ev) {
  return ev.code === 1008 && typeof ev.reason === 'string' && ev.reason.startsWith('closed')
}

export class Channel {
  /**
   * @param {string} path the channel's path under the site, e.g. /api/ws
   * @param {object} handlers onMessage(msg) for every server message,
   *   onState(state) with 'connecting' | 'open' | 'closed'.
   */
  constructor(path, handlers) {
    this.path = path
    this.handlers = handlers
    this.ws = null
    this.closed = false
    this.delay = MIN_DELAY
    this.retry = null
    this.nextId = 1
    this.connect()
  }

  url() {
    const proto = location.protocol === 'https:' ? 'wss:' : 'ws:'
    return `${proto}//${location.host}${this.path}`
  }

  connect() {
    if (this.closed) return
    this.handlers.onState?.('connecting')
    const ws = new WebSocket(this.url())
    this.ws = ws
    ws.onopen = () => {
      this.delay = MIN_DELAY
      this.handlers.onState?.('open')
    }
    ws.onmessage = (ev) => {
      let msg
      try {
        msg = JSON.parse(ev.data)
      } catch {
        return
      }
      this.handlers.onMessage(msg)
    }
    ws.onclose = (ev) => {
      if (this.ws !== ws) return
      this.ws = null
      if (this.closed) return
      this.handlers.onState?.('closed')
      if (accountClosed(ev)) {
        // Every reconnection would be refused (401): stop, and let the
        // page sign out and say why (accountclosed.js).
        this.closed = true
        window.dispatchEvent(new CustomEvent('tabula:account-closed', {detail: {reason: ev.reason}}))
        return
      }
      this.retry = setTimeout(() => this.connect(), this.delay)
      this.delay = Math.min(this.delay * 2, MAX_DELAY)
    }
  }

  /** resync drops the connection and reconnects at once, for a fresh snapshot. */
  resync() {
    const ws = this.ws
    this.ws = null
    if (ws) ws.close()
    clearTimeout(this.retry)
    this.connect()
  }

  /** send sends a client message and returns its id, or null when not connected. */
  send(msg) {
    if (!this.ws || this.ws.readyState !== WebSocket.OPEN) return null
    const id = 'c' + this.nextId++
    this.ws.send(JSON.stringify({...msg, id}))
    return id
  }

  destroy() {
    this.closed = true
    clearTimeout(this.retry)
    if (this.ws) this.ws.close()
    this.ws = null
  }
}

/**
 * GameChannel is the channel of one game: players and spectators. Besides
 * moves, a player speaks the game room's messages (docs/api.md, "The game
 * room"); each returns the message's id (echoed in its ack or error), or
 * null when not connected.
 */
export class GameChannel extends Channel {
  constructor(gameId, handlers) {
    super(`/api/games/${encodeURIComponent(gameId)}/ws`, handlers)
    this.gameId = gameId
  }

  /** offer offers a draw or a takeback (kind: 'draw' | 'takeback'). */
  offer(kind) {
    return this.send({type: 'offer', offer: kind})
  }

  /** accept accepts the other player's offer of kind. */
  accept(kind) {
    return this.send({type: 'accept', offer: kind})
  }

  /** decline declines the other player's offer of kind, or withdraws one's own. */
  decline(kind) {
    return this.send({type: 'decline', offer: kind})
  }

  /** chat says a line to the other players. */
  chat(text) {
    return this.send({type: 'chat', text})
  }

  /** claim claims the win from the seat to move, away past the grace. */
  claim() {
    return this.send({type: 'claim'})
  }

  /** abort cancels the game while not every seat has moved. */
  abort() {
    return this.send({type: 'abort'})
  }

  /** rematch offers a rematch of the finished game, or accepts the one offered. */
  rematch() {
    return this.send({type: 'rematch'})
  }
}
