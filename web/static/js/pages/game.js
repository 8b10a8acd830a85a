// A game, live: the game channel keeps the board, seats, clocks, move list
// and result current; the board offers the user's legal moves. Spectators
// see the same without the moves. The move list can be stepped through
// while the game goes on (review): the board shows that earlier position
// until the player goes back to the live one, and a move that arrives
// meanwhile is announced, not forced onto the board. The game room
// (room.js: offers, takebacks, presence, abort, the rematch) and the
// players' chat (chat.js) live beside the board.

import {h, s, clear, renew, renewTree, beforeFrame} from '../dom.js'
import {t} from '../i18n.js'
import {api} from '../api.js'
import * as session from '../session.js'
import * as sound from '../sound.js'
import * as theme from '../theme.js'
import * as notify from '../notify.js'
import {GameChannel} from '../channel.js'
import {Positions} from '../positions.js'
import {games} from '../games/registry.js'
import {errorBox, errorText, seatText, sideName, moverNames, resultText, gameTitle} from '../components/common.js'
import {MoveList, stepper, stepKeys} from '../components/movelist.js'
import * as catalog from '../catalog.js'
import {Room} from '../components/room.js'
import {Chat} from '../components/chat.js'
import {Berserk} from '../components/berserk.js'
import {BoardPrefs} from '../components/boardprefs.js'
import {Premove} from '../components/premove.js'
import {Conditional} from '../components/conditional.js'
import {botBadge} from '../components/botbadge.js'
import {ratingBadge, ratingChangeBadge, myRatingChange, provisionalNote} from '../components/players.js'

const LOW_MS = 30000 // a realtime clock is low below 30 s (or a fifth of its start, if less)
const LOW_CORR_MS = 12 * 3600 * 1000 // a correspondence deadline is near within 12 hours

export function gamePage(main, [id]) {
  const st = {summary: null, seat: -1, moves: [], view: null, legal: null, clocks: null, pending: null, conn: 'connecting',
    review: null, lowWarned: -1, chat: []}
  let board = null
  let boardGame = null
  let clockTimer = null
  let clockBase = 0
  let gone = false
  let channel = null
  let chat = null // the players' chat: built for players of a game between people only

  const title = h('h1', {class: 'game-title'})
  const connNote = h('span', {class: 'conn', 'aria-live': 'polite', 'data-test': 'conn'})
  const seatsBox = h('ol', {class: 'seat-list', 'data-test': 'seats'})
  const seatNote = h('div', {class: 'seat-note'})
  const resultBox = h('div', {class: 'result', role: 'status', 'aria-live': 'polite', 'data-test': 'result', hidden: true})
  const lobbyBox = h('div', {class: 'lobby-box'})
  const boardBox = h('div', {class: 'board-box', 'data-test': 'board'})
  const info = h('div', {class: 'side-info'})
  // premoves while the opponent is to move (components/premove.js)
  const premove = new Premove({game: () => st, box: boardBox, redraw: () => board && !st.review && board.set(boardState(false))})
  // conditional moves in a correspondence game, on the opponent's turn (components/conditional.js)
  const conditional = new Conditional({id, game: () => st})
  const errBox = h('div', {'aria-live': 'assertive'})
  // screen readers hear each move as it arrives
  const announce = h('p', {class: 'sr-only', 'aria-live': 'polite', 'data-test': 'announce'})
  const buttons = h('div', {class: 'game-buttons'})
  // the page's settings (rules, sound, board style) beside the title, out of the actions' way
  const tools = h('div', {class: 'game-tools'})
  const reviewBar = h('div', {class: 'review-bar', 'data-test': 'review', hidden: true})
  const chatBox = h('div', {class: 'game-chat-box', hidden: true})
  const room = new Room({channel: () => channel, game: () => st, say: (node) => (node ? errBox.replaceChildren(node) : errBox.replaceChildren()),
    changed: () => {
      if (!st.summary) return
      renderSeats()
      renderButtons()
    },
    drawn: () => setTitle()})
  const list = new MoveList({onPick: (n) => go(n), test: 'moves'})
  const berserk = new Berserk(id, () => st.summary && renderButtons(), (e) => errBox.replaceChildren(errorBox(e)))
  const here = () => (st.review ? st.review.ply : st.moves.length)
  const stepTo = (step) => go({first: 0, prev: here() - 1, next: here() + 1, last: st.moves.length}[step])
  const steps = stepper(stepTo)
  steps.where.dataset.test = 'ply'
  const unkeys = stepKeys((step) => {
    if (st.summary && st.moves.length) stepTo(step)
  })
  const typed = h('input', {type: 'text', id: 'move-text', list: 'legal-moves', autocomplete: 'off', spellcheck: 'false', 'data-test': 'move-text'})
  const datalist = h('datalist', {id: 'legal-moves'})
  // A typed move's error stands right under the input it is about.
  const typedErr = h('p', {class: 'error typed-error', role: 'alert', 'data-test': 'typed-error', id: 'typed-error', hidden: true})
  const typedError = (text) => {
    typedErr.textContent = text
    typedErr.hidden = !text
    if (text) typed.setAttribute('aria-describedby', 'typed-error')
    else typed.removeAttribute('aria-describedby')
  }
  typed.addEventListener('input', () => typedError(''))
  const typedForm = h('form', {class: 'typed-move', onsubmit: (ev) => {
    ev.preventDefault()
    const mv = typed.value.trim()
    if (!mv) return
    if (!st.legal || !st.legal.length) {
      typedError(t('board.waitTurn'))
      return
    }
    if (!st.legal.includes(mv)) {
      typedError(t('board.notLegal', {move: mv}))
      return
    }
    typedError('')
    typed.value = ''
    sendMove(mv)
  }}, h('label', {for: 'move-text'}, t('game.typeMove')), typed, datalist, h('button', {type: 'submit'}, t('game.play')), typedErr)

  // One layout, placed by CSS: on a wide screen the board on the left and
  // players, controls and moves in a column beside it, all within the
  // window; on a phone players above the board and the controls below it.
  const layout = h('div', {class: 'game-layout'},
    h('section', {class: 'game-players', 'aria-label': t('game.players')}, h('h2', {}, t('game.players')), seatsBox, seatNote),
    h('div', {class: 'game-main'}, lobbyBox, boardBox, premove.el, errBox),
    h('div', {class: 'game-controls'}, resultBox, room.el, conditional.el, reviewBar, buttons, steps.el),
    h('aside', {class: 'game-side'}, h('h2', {}, t('game.moves')), list.box, info, typedForm),
    chatBox)
  const pageBox = h('div', {class: 'game-page'}, h('div', {class: 'game-head'}, title, connNote, tools), announce, layout)
  main.append(pageBox)
  const boardPrefs = new BoardPrefs(pageBox) // the board's size and zen mode (issue 27)
  boardPrefs.onZen = () => st.summary && renderButtons()

  // The wide layout fills the window below the header: the board scales to it.
  const setAvail = (px) => {
    const avail = px + 'px'
    if (layout.style.getPropertyValue('--avail') !== avail) layout.style.setProperty('--avail', avail)
  }
  const fitNow = () => {
    const top = layout.getBoundingClientRect().top + window.scrollY
    const avail = Math.max(420, window.innerHeight - top - 12)
    setAvail(avail)
    // The column beside the board may need more than the window's height
    // (an open panel of conditional moves, an offer, the chat's form below
    // them): then the layout grows by what runs out of it, rather than the
    // column running over the page's footer. The move list scrolls on its
    // own and is not counted beyond its box.
    const bottom = layout.getBoundingClientRect().bottom
    let over = 0
    for (const box of layout.children) {
      if (box.classList.contains('game-main') || !box.getClientRects().length) continue
      const r = box.getBoundingClientRect()
      const scrolls = getComputedStyle(box).overflowY !== 'visible'
      over = Math.max(over, r.bottom - bottom, scrolls ? 0 : r.top + box.scrollHeight - bottom)
    }
    if (over > 1) setAvail(avail + Math.ceil(over))
  }
  // measured before the next frame, not in the middle of an event's redraw
  const fit = beforeFrame(fitNow)
  window.addEventListener('resize', fit)
  // the column's boxes change height with their content (a panel opened, an offer come)
  const refit = typeof ResizeObserver === 'function' ? new ResizeObserver(fit) : null
  if (refit) for (const box of layout.children) if (!box.classList.contains('game-main') && !box.classList.contains('game-side')) refit.observe(box)
  fitNow()

  const positions = new Positions(id, (n, rep) => {
    if (!st.review || st.review.ply !== n || !board) return
    board.props.interactive = false
    board.set({view: rep.view, legal: null, seat: st.seat, seats: st.summary.seats, moves: st.moves.slice(0, n), status: 'replay',
      fresh: n === st.review.from + 1})
  }, (e) => errBox.replaceChildren(errorBox(e)))

  /** go shows the position after n moves: an earlier one for review, or the live one. */
  function go(n) {
    if (!st.summary || n === undefined) return
    n = Math.max(0, Math.min(st.moves.length, n))
    if (n === st.moves.length) {
      backToLive()
      return
    }
    st.review = {ply: n, from: here(), seen: st.review ? st.review.seen : st.moves.length}
    positions.show(n)
    renderReview()
  }

  function backToLive() {
    const was = !!st.review
    positions.cancel()
    st.review = null
    renderReview()
    if (was) list.end()
    if (was && board) {
      board.props.interactive = st.seat >= 0
      board.set(boardState(false))
    }
  }

  function renderReview() {
    const n = here()
    steps.where.textContent = t('replay.at', {ply: n, total: st.moves.length})
    // Live, the list follows the newest move by itself (MoveList.set) and
    // leaves alone a list the player scrolled; looking back shows the row.
    list.mark(n, !!st.review)
    reviewBar.hidden = !st.review
    boardBox.classList.toggle('reviewing', !!st.review)
    if (!st.review) return
    // Renewed, not redrawn: each move that arrives while the player looks
    // back changes the bar, and "Back to live" must stay the button being
    // pressed (dom.js renew). The count of new moves keeps its place,
    // hidden while there are none, so the button never moves in the list.
    const fresh = st.moves.length - st.review.seen
    renew(reviewBar, h('div', {},
      h('span', {}, t('game.reviewing', {ply: n, total: st.moves.length})),
      h('strong', {class: 'new-moves', 'data-test': 'new-moves', hidden: fresh <= 0}, fresh > 0 ? t('game.newMoves', {n: fresh}) : ''),
      h('button', {type: 'button', class: 'primary', 'data-test': 'live', onclick: backToLive}, t('game.backToLive'))))
  }

  function openChannel() {
    channel = new GameChannel(id, {
      onState(s) {
        st.conn = s
        connNote.textContent = s === 'open' ? '' : t('game.conn.' + s)
      },
      onMessage,
    })
  }

  function onMessage(msg) {
    switch (msg.type) {
      case 'snapshot':
        st.summary = msg.game
        st.seat = msg.seat
        st.moves = msg.moves || []
        st.view = msg.view || null
        st.legal = msg.legal || null
        st.pending = null
        if (msg.room) st.chat = msg.room.chat || []
        if (st.review && st.review.ply >= st.moves.length) st.review = null
        setClocks(msg.clocks)
        room.snapshot(msg)
        render(false)
        if (myTurn()) premove.turn(st.legal, sendMove)
        break
      case 'move': {
        if (!st.summary || msg.ply !== st.moves.length) {
          channel.resync() // a gap: start again from a snapshot
          return
        }
        const before = st.view
        st.moves.push({ply: msg.ply, seat: msg.seat, move: msg.move, at: msg.at})
        st.view = msg.view || st.view
        renameSeats()
        st.legal = msg.legal || null
        st.summary.ply = st.moves.length
        st.summary.toMove = msg.toMove
        st.summary.deadline = msg.deadline || null
        if (st.pending && msg.seat === st.seat) st.pending = null
        setClocks(msg.clocks)
        room.moved(msg.seat)
        render(true)
        if (myTurn()) premove.turn(st.legal, sendMove)
        const g = games[st.summary.game]
        sound.play(g && g.isCapture && before && g.isCapture(msg.move, before, st.view) ? 'capture' : 'move')
        announce.textContent = t('game.announce', {who: moverNames(st.summary, st.moves).pop(), move: msg.move}) +
          (st.legal && st.legal.length ? ' ' + t('game.yourTurn') : '')
        break
      }
      case 'takeback': {
        if (!st.summary || msg.ply > st.moves.length) {
          channel.resync()
          return
        }
        st.moves = st.moves.slice(0, msg.ply)
        positions.forget(msg.ply)
        st.view = msg.view || st.view
        st.legal = msg.legal || null
        st.summary.ply = msg.ply
        st.summary.toMove = msg.toMove
        st.summary.deadline = msg.deadline || null
        renameSeats()
        st.pending = null
        premove.clear()
        if (st.review && st.review.ply >= st.moves.length) backToLive()
        else if (st.review) st.review.seen = Math.min(st.review.seen, st.moves.length)
        setClocks(msg.clocks)
        room.moved()
        render(true)
        announce.textContent = t('room.takenBack', {ply: msg.ply}) + (st.legal && st.legal.length ? ' ' + t('game.yourTurn') : '')
        break
      }
      case 'offer':
        room.offer(msg)
        break
      case 'presence':
        room.presence(msg)
        break
      case 'rematch':
        room.rematchEvent(msg)
        break
      case 'chat':
        if (!room.fresh(msg) || !msg.line) break
        st.chat.push(msg.line)
        if (chat) chat.add(msg.line)
        break
      case 'lobby':
        st.summary = msg.game
        render(false)
        break
      case 'end': {
        const wasLive = st.summary && st.summary.status === 'live'
        st.summary = msg.game
        st.legal = null
        premove.clear()
        setClocks(null)
        room.ended()
        render(false)
        if (wasLive) sound.play('end')
        break
      }
      case 'ack':
        if (st.pending === msg.id) st.pending = null
        if (room.ack(msg.id) && chat) chat.done(msg.id)
        break
      case 'error':
        if (msg.id && room.error(msg.id, msg.error, chat)) break
        if (msg.id && st.pending === msg.id) st.pending = null
        errBox.replaceChildren(h('p', {class: 'error', role: 'alert', 'data-test': 'move-error'}, errorText(msg.error)))
        if (msg.error && msg.error.code === 'stale_ply') channel.resync()
        else if (board && !st.review) board.set(boardState(false))
        break
    }
  }

  /** renameSeats names the seats by the sides they play now (a pie swap changes them). */
  function renameSeats() {
    const seatName = games[st.summary.game] && games[st.summary.game].seatName
    if (!seatName || !st.view) return
    st.summary.seats.forEach((se, i) => {
      se.name = seatName(st.view, i) || se.name
    })
  }

  function sendMove(text) {
    if (st.pending) return
    errBox.replaceChildren()
    const idMsg = channel.send({type: 'move', ply: st.moves.length, move: text})
    if (!idMsg) {
      errBox.replaceChildren(h('p', {class: 'error', role: 'alert'}, t('game.conn.closed')))
      if (board) board.set(boardState(false))
      return
    }
    st.pending = idMsg
  }

  function boardState(fresh) {
    const live = st.summary && st.summary.status === 'live'
    const offer = live && !(st.legal && st.legal.length) ? premove.offer() : null // premove candidates while waiting
    return {view: st.view, legal: live ? st.legal || offer : null, premoving: !!offer, premove: live ? premove.hint() : null, seat: st.seat,
      seats: st.summary ? st.summary.seats : [], moves: st.moves, status: st.summary && st.summary.status, fresh}
  }

  /**
   * setTitle names the game in the tab's title, and what waits for the
   * player there: an offer or takeback request to answer, a rematch to
   * accept, or their turn.
   */
  function setTitle() {
    const sum = st.summary
    if (!sum || gone) return
    const game = gameTitle(sum.game)
    const asked = room.asked()
    if (asked) document.title = t('game.tabAsked.' + asked, {game})
    else document.title = myTurn() ? t('game.tabTurn', {game}) : game + ' · Tabula'
  }

  function myTurn() {
    return !!(st.summary && st.summary.status === 'live' && st.seat >= 0 && st.legal && st.legal.length)
  }

  function setClocks(clocks) {
    st.clocks = clocks || null
    clockBase = performance.now()
    clearInterval(clockTimer)
    clockTimer = null
    const sum = st.summary
    if (sum && sum.status === 'live' && (st.clocks || (sum.clock.kind === 'correspondence' && sum.deadline))) clockTimer = setInterval(tick, 500)
  }

  /** clockOf is the time left for seat in ms and whether it is running, or null without a clock. */
  function clockOf(seat) {
    const sum = st.summary
    const running = sum.status === 'live' && sum.toMove === seat
    if (st.clocks) {
      const c = st.clocks.find((x) => x.seat === seat)
      if (!c) return null
      return {ms: Math.max(0, c.remainingMs - (running ? performance.now() - clockBase : 0)), running,
        low: Math.min(LOW_MS, (sum.clock.initialMs || LOW_MS * 5) / 5)}
    }
    if (sum.clock.kind === 'correspondence' && running && sum.deadline) {
      return {ms: Math.max(0, Date.parse(sum.deadline) - Date.now()), running, low: LOW_CORR_MS}
    }
    return null
  }

  function clockText(ms) {
    const sec = Math.floor(ms / 1000)
    if (sec >= 86400) return t('clock.days', {d: Math.floor(sec / 86400), h: Math.floor(sec % 86400 / 3600)})
    const mm = String(Math.floor(sec % 3600 / 60))
    const ss = String(sec % 60).padStart(2, '0')
    return sec >= 3600 ? `${Math.floor(sec / 3600)}:${mm.padStart(2, '0')}:${ss}` : `${mm}:${ss}`
  }

  /** tick brings the clocks up to date; the player's own running low clock sounds once a turn. */
  function tick() {
    for (const el of seatsBox.querySelectorAll('.clock')) {
      const seat = Number(el.dataset.seat)
      const c = clockOf(seat)
      el.textContent = c ? clockText(c.ms) : ''
      el.classList.toggle('running', !!(c && c.running))
      const low = !!(c && c.running && c.ms < c.low)
      el.classList.toggle('low', low)
      if (low && seat === st.seat && st.lowWarned !== st.moves.length) {
        st.lowWarned = st.moves.length
        sound.play('low')
      }
    }
  }

  // Renewed, not redrawn (dom.js renewTree): the rows are drawn at every
  // move, and a player's profile link pressed as a move arrives must stay.
  function renderSeats() {
    const sum = st.summary
    const fresh = h('ol')
    sum.seats.forEach((se, i) => {
      const side = sideName(sum.game, se)
      const toMove = sum.toMove === i && sum.status === 'live'
      const coloured = games[sum.game] && games[sum.game].swatches
      fresh.append(h('li', {class: 'seat' + (toMove ? ' to-move' : '') + (i === st.seat ? ' me' : ''), 'data-seat': i, 'data-key': 'seat' + i},
        h('span', {class: coloured && se.name ? 'swatch side-' + se.name : 'swatch none', 'aria-hidden': 'true'}),
        // A bot's name in a span of its own: bare text in the flex row could not end in "…" and was cut mid-letter on a phone.
        h('span', {class: 'who'}, se.user ? h('a', {href: '#/user/' + encodeURIComponent(se.user)}, se.user) : h('span', {class: 'seat-name'}, seatText(se, sum.seats)), botBadge(se.bot),
          ratingBadge(se), ratingChangeBadge(se), // the rating, and once a rated game is over its change (components/players.js)
          toMove ? h('span', {class: 'turn-dot', title: t('game.toMove')}, ' ●') : null),
        h('span', {class: 'clock', 'data-seat': i, 'data-test': 'clock-' + i}),
        h('span', {class: 'meta'}, side ? h('span', {class: 'side'}, side) : null,
          i === st.seat ? h('span', {class: 'you'}, t('game.you')) : null,
          sum.status === 'live' && room.isAway(i) ? h('span', {class: 'gone', 'data-test': 'seat-away'}, t('room.left')) : null)))
    })
    renewTree(seatsBox, fresh)
    // Whether the game is rated, and what "1500?" means, in words (components/players.js).
    const note = provisionalNote(sum.seats)
    seatNote.replaceChildren(...(sum.rated ? [h('p', {class: 'muted rated-note', 'data-test': 'rated-note'}, t('game.ratedNote'))] : []),
      ...(note ? [note] : []))
    seatNote.classList.toggle('live', sum.status === 'live')
    tick()
  }

  function iconButton(d, label, pressed, onclick, test) {
    const svg = s(null, 'svg', {viewBox: '0 0 16 16', width: 16, height: 16, 'aria-hidden': 'true', class: 'icon'})
    s(svg, 'path', {d, fill: 'currentColor'})
    return h('button', {type: 'button', class: 'icon-button', 'aria-label': label, title: label, 'aria-pressed': pressed ? 'true' : 'false',
      'data-test': test, onclick}, svg)
  }

  // The rows of buttons are drawn at every event of the game: built apart,
  // then given to the page only if they changed (dom.js renew).
  function renderButtons() {
    const freshButtons = h('div')
    const freshTools = h('div')
    fillButtons(freshButtons, freshTools)
    renew(buttons, freshButtons)
    renew(tools, freshTools)
  }

  /** fillButtons appends the game's actions to buttons and the page's settings to tools. */
  function fillButtons(buttons, tools) {
    const sum = st.summary
    const me = session.current()
    if (sum.status === 'live' && st.seat >= 0) {
      buttons.append(h('button', {type: 'button', 'data-test': 'resign', onclick: () => {
        if (confirm(t('game.resignConfirm'))) {
          const rid = channel.send({type: 'resign'})
          if (!rid) errBox.replaceChildren(h('p', {class: 'error'}, t('game.conn.closed')))
        }
      }}, t('game.resign')))
    }
    buttons.append(...room.buttons())
    buttons.append(...berserk.buttons(st)) // an arena's game (components/berserk.js)
    if (sum.status === 'finished' || sum.status === 'imported') {
      buttons.append(h('a', {href: '#/replay/' + sum.id, class: 'button', 'data-test': 'replay-link'}, t('game.replay')))
      buttons.append(h('a', {href: '#/review/' + sum.id, class: 'button', 'data-test': 'review-link'}, t('game.review')))
      buttons.append(h('a', {href: '/api/games/' + encodeURIComponent(sum.id) + '/record', download: `tabula-${sum.game}-${sum.id}.json`,
        class: 'button', 'data-test': 'export'}, t('game.export')))
      const humans = sum.seats.filter((se) => se.kind === 'human').length
      if (sum.status === 'finished' && st.seat >= 0 && humans === 1 && sum.seats.some((se) => se.kind === 'bot')) {
        buttons.append(h('button', {type: 'button', class: 'primary', 'data-test': 'again', onclick: playAgain}, t('game.again')))
      }
    }
    // The analysis board: a finished game, or a live one watched (never
    // one's own live game: the server refuses it too).
    if (catalog.analysable(sum.game) && (sum.status === 'finished' || sum.status === 'imported' || (sum.status === 'live' && st.seat < 0))) {
      // The ply is put in the address when the link is followed: in the
      // markup it would change at every move of a watched game, and renew
      // would replace the link being clicked.
      // (A middle click or the context menu's "copy link" takes it too.)
      const base = `#/analysis/${sum.game}?game=${encodeURIComponent(sum.id)}`
      const atPly = (ev) => { ev.currentTarget.href = `${base}&ply=${st.moves.length}` }
      buttons.append(h('a', {href: base, class: 'button', 'data-test': 'analysis-link',
        onclick: atPly, onauxclick: atPly, oncontextmenu: atPly}, t('game.analyse')))
    }
    if (sum.status === 'open') {
      const mine = me && sum.seats.some((se) => se.kind === 'human' && se.user === me.name)
      if (!mine && sum.seats.some((se) => se.kind === 'open' || (se.kind === 'invite' && me && se.user === me.name))) {
        buttons.append(h('button', {type: 'button', class: 'primary', 'data-test': 'join', onclick: async () => {
          // A kept deal: its creator may know the hidden cards; join only on consent.
          const accept = !!sum.start?.keepDeal
          if (accept && !confirm(t('lobby.keptDealConfirm'))) return
          try {
            await session.ensure()
            await api.join(sum.id, undefined, accept)
            channel.resync() // the new seat's snapshot
          } catch (e) {
            errBox.replaceChildren(errorBox(e))
          }
        }}, t('lobby.join')))
      }
      if (!mine && me && sum.seats.some((se) => se.kind === 'invite' && se.user === me.name)) {
        // an invitation (a rematch, say) is declined by aborting the game
        buttons.append(h('button', {type: 'button', 'data-test': 'decline-invite',
          onclick: () => api.abort(sum.id).catch((e) => errBox.replaceChildren(errorBox(e)))}, t('room.decline')))
      }
      if (mine && sum.creator === me.name) {
        buttons.append(h('button', {type: 'button', onclick: () => api.abort(sum.id).catch((e) => errBox.replaceChildren(errorBox(e)))}, t('game.abort')))
      }
    }
    tools.append(h('a', {href: '#/rules/' + sum.game, class: 'button subtle'}, t('game.rules')))
    const on = sound.on()
    tools.append(iconButton(on ? 'M2 6h3l4-3v10l-4-3H2zM11 5.5a3.5 3.5 0 0 1 0 5M12.5 3.5a6 6 0 0 1 0 9' : 'M2 6h3l4-3v10l-4-3H2zM11 6l4 4M15 6l-4 4',
      t(on ? 'game.soundOff' : 'game.soundOn'), on, () => {
        sound.setOn(!sound.on())
        renderButtons()
      }, 'sound'))
    tools.append(...boardPrefs.tools())
    const themes = theme.boardThemes[sum.game]
    if (themes) {
      tools.append(h('select', {class: 'board-theme', 'aria-label': t('game.boardTheme'), title: t('game.boardTheme'), 'data-test': 'board-theme',
        onchange: (ev) => {
          theme.setBoardTheme(sum.game, ev.target.value)
          boardBox.dataset.boardTheme = theme.boardTheme(sum.game)
        }}, themes.map((v) => h('option', {value: v, selected: v === theme.boardTheme(sum.game)}, t('theme.board.' + v)))))
    }
    if (sum.clock.kind === 'correspondence' && st.seat >= 0 && sum.status !== 'finished' && notify.supported() && !notify.enabled()) {
      buttons.append(h('button', {type: 'button', 'data-test': 'notify', onclick: async () => {
        await notify.enable()
        renderButtons()
      }}, t('notify.enable')))
    }
  }

  /**
   * renderChat shows the players' chat to the players of a game between
   * people, and the spectators' chat (issue 27) to everyone else — the
   * server sends each only theirs; lines may be said while the game is
   * open or live (by a spectator signed in).
   */
  function renderChat() {
    const sum = st.summary
    const people = sum.seats.filter((se) => se.kind === 'human').length
    const spectating = st.seat < 0
    const running = sum.status === 'open' || sum.status === 'live'
    const show = (spectating || people >= 2) && (running || st.chat.length > 0)
    if (chat && chat.spectators !== spectating) {
      chat = null // a spectator took a seat (or left it): the other chat
      chatBox.replaceChildren()
    }
    if (show && !chat) {
      chat = new Chat({send: (text) => room.chat(text), who: (seat) => room.who(seat), spectators: spectating, me: session.current()?.name || ''})
      chatBox.replaceChildren(chat.el)
    }
    if (!show && chat) {
      chat = null
      chatBox.replaceChildren()
    }
    chatBox.hidden = !show
    layout.classList.toggle('with-chat', show)
    if (chat) {
      chat.set(st.chat, st.seat)
      chat.open(sum.status === 'open' || sum.status === 'live')
    }
  }

  /** playAgain starts the same game against the same bots: same seats, options and clock. */
  async function playAgain() {
    const sum = st.summary
    try {
      const res = await api.createGame({game: sum.game, options: sum.options, clock: sum.clock,
        seats: sum.seats.map((se, i) => (i === st.seat ? {kind: 'me'} : {kind: 'bot', level: se.level}))})
      location.hash = '#/game/' + res.game.id
    } catch (e) {
      errBox.replaceChildren(errorBox(e))
    }
  }

  function render(fresh) {
    const sum = st.summary
    if (!sum) return
    title.textContent = gameTitle(sum.game) + ' · ' + t('status.' + sum.status)
    setTitle()
    renderSeats()
    list.set(sum, st.moves, true)
    renderReview()
    renderButtons()
    conditional.update()
    clear(lobbyBox)
    if (sum.status === 'open') {
      lobbyBox.append(h('p', {class: 'note', 'data-test': 'waiting'}, t('game.waiting')),
        h('p', {}, t('game.shareLink'), ' ', h('code', {}, location.href)))
    }
    if (sum.result || sum.status === 'aborted') {
      resultBox.hidden = false
      const scores = sum.result && sum.result.scores ? ' · ' + t('game.scores', {scores: sum.result.scores.join(' / ')}) : ''
      // A player's rating change in a rated game, as soon as it ends (the end message carries it).
      const change = myRatingChange(sum, st.seat)
      resultBox.replaceChildren(h('strong', {}, resultText(sum, st.seat)), scores, ...(change ? [h('br'), change] : []))
      resultBox.classList.toggle('won', !!(sum.result && sum.result.winners.includes(st.seat)))
    } else resultBox.hidden = true
    const legal = sum.status === 'live' ? st.legal || [] : []
    clear(datalist)
    for (const m of legal.slice(0, 400)) datalist.append(h('option', {value: m}))
    typedForm.hidden = st.seat < 0 || sum.status !== 'live'
    renderChat()
    room.draw()
    fit()
    if (!st.view) return
    if (!board || boardGame !== sum.game) {
      if (board) board.destroy()
      const Board = games[sum.game] && games[sum.game].Board
      if (!Board) {
        boardBox.replaceChildren(h('p', {}, t('game.unknown')))
        return
      }
      boardBox.dataset.game = sum.game
      if (theme.boardTheme(sum.game)) boardBox.dataset.boardTheme = theme.boardTheme(sum.game)
      board = new Board(boardBox, {interactive: st.seat >= 0, onMove: (text) => (myTurn() ? sendMove(text) : premove.choose(text)), infoHost: info,
        levels: true, decorate: (b) => premove.decorate(b)})
      boardGame = sum.game
    }
    if (st.review) return // the reviewed position stays; the bar tells of the new move
    board.props.interactive = st.seat >= 0
    board.set(boardState(fresh))
  }

  // The game channel opens once the game is known to exist: a missing game
  // says so once, instead of a channel that retries for ever. A game the
  // server makes (a tournament's wave, a ladder's pairing) is listed a
  // moment before it is stored, so a link followed at once may find none
  // yet: the page asks again for a few seconds before it says so.
  const lookAgain = [250, 500, 1000, 2000] // ms: about 4 s in all
  let lookTimer = 0
  function look(tries) {
    api.game(id).then(() => {
      connNote.textContent = ''
      if (!gone) openChannel()
    }, (e) => {
      if (gone) return
      if (e.status === 404 && tries < lookAgain.length) {
        connNote.textContent = t('game.looking')
        lookTimer = setTimeout(() => look(tries + 1), lookAgain[tries])
        return
      }
      if (e.status === 404) {
        pageBox.replaceChildren(h('h1', {}, t('game.missing')), errorBox(e))
        return
      }
      connNote.textContent = ''
      pageBox.prepend(errorBox(e))
      openChannel() // the server is away, not the game: keep trying
    })
  }
  look(0)

  function destroy() {
    gone = true
    clearTimeout(lookTimer)
    boardPrefs.destroy()
    premove.destroy()
    if (channel) channel.destroy()
    clearInterval(clockTimer)
    room.destroy()
    window.removeEventListener('resize', fit)
    if (refit) refit.disconnect()
    unkeys()
    list.destroy()
    positions.cancel()
    if (board) board.destroy()
    document.title = t('app.title')
  }

  return {
    destroy,
    relang() {
      destroy()
      board = null
      clear(main)
      const again = gamePage(main, [id])
      this.destroy = again.destroy
      this.relang = again.relang
    },
  }
}
