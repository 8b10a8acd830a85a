// A game, live: the game channel keeps the board, seats, clocks, move list
// and result current; the board offers the user's legal moves. Spectators
// see the same without the moves.

import {h, clear} from '../dom.js'
import {t} from '../i18n.js'
import {api} from '../api.js'
import * as session from '../session.js'
import {GameChannel} from '../channel.js'
import {games} from '../games/registry.js'
import {errorBox, errorText, seatText, sideName, moverNames, resultText, gameTitle} from './common.js'

export function gamePage(main, [id]) {
  const st = {summary: null, seat: -1, moves: [], view: null, legal: null, clocks: null, pending: null, conn: 'connecting'}
  let board = null
  let boardGame = null
  let clockTimer = null
  let clockBase = 0

  const title = h('h1', {class: 'game-title'})
  const connNote = h('span', {class: 'conn', 'aria-live': 'polite', 'data-test': 'conn'})
  const seatsBox = h('ol', {class: 'seat-list', 'data-test': 'seats'})
  const resultBox = h('div', {class: 'result', role: 'status', 'aria-live': 'polite', 'data-test': 'result', hidden: true})
  const lobbyBox = h('div', {class: 'lobby-box'})
  const boardBox = h('div', {class: 'board-box', 'data-test': 'board'})
  const movesList = h('ol', {class: 'move-list', start: 1, 'data-test': 'moves'})
  const errBox = h('div', {'aria-live': 'assertive'})
  // screen readers hear each move as it arrives
  const announce = h('p', {class: 'sr-only', 'aria-live': 'polite', 'data-test': 'announce'})
  const controls = h('div', {class: 'game-controls'})
  const typed = h('input', {type: 'text', id: 'move-text', list: 'legal-moves', autocomplete: 'off', spellcheck: 'false', 'data-test': 'move-text'})
  const datalist = h('datalist', {id: 'legal-moves'})
  const typedForm = h('form', {class: 'typed-move', onsubmit: (ev) => {
    ev.preventDefault()
    const mv = typed.value.trim()
    if (!mv) return
    if (!st.legal || !st.legal.length) {
      errBox.replaceChildren(h('p', {class: 'error'}, t('board.waitTurn')))
      return
    }
    if (!st.legal.includes(mv)) {
      errBox.replaceChildren(h('p', {class: 'error'}, t('board.notLegal', {move: mv})))
      return
    }
    typed.value = ''
    sendMove(mv)
  }}, h('label', {for: 'move-text'}, t('game.typeMove')), typed, datalist, h('button', {type: 'submit'}, t('game.play')))

  main.append(
    h('div', {class: 'game-head'}, title, connNote),
    announce,
    lobbyBox,
    resultBox,
    h('div', {class: 'game-layout'},
      h('div', {class: 'game-main'}, boardBox, errBox, typedForm),
      h('aside', {class: 'game-side'},
        h('h2', {}, t('game.players')), seatsBox,
        controls,
        h('h2', {}, t('game.moves')), movesList)))

  // The game channel opens once the game is known to exist: a missing game
  // says so once, instead of a channel that retries for ever.
  let channel = null
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
        setClocks(msg.clocks)
        render(false)
        break
      case 'move':
        if (!st.summary || msg.ply !== st.moves.length) {
          channel.resync() // a gap: start again from a snapshot
          return
        }
        st.moves.push({ply: msg.ply, seat: msg.seat, move: msg.move, at: msg.at})
        st.view = msg.view || st.view
        renameSeats()
        st.legal = msg.legal || null
        st.summary.ply = st.moves.length
        st.summary.toMove = msg.toMove
        st.summary.deadline = msg.deadline || null
        if (st.pending && msg.seat === st.seat) st.pending = null
        setClocks(msg.clocks)
        render(true)
        {
          announce.textContent = t('game.announce', {who: moverNames(st.summary, st.moves).pop(), move: msg.move}) +
            (st.legal && st.legal.length ? ' ' + t('game.yourTurn') : '')
        }
        break
      case 'lobby':
        st.summary = msg.game
        render(false)
        break
      case 'end':
        st.summary = msg.game
        st.legal = null
        setClocks(null)
        render(false)
        break
      case 'ack':
        if (st.pending === msg.id) st.pending = null
        break
      case 'error':
        if (msg.id && st.pending === msg.id) st.pending = null
        errBox.replaceChildren(h('p', {class: 'error', role: 'alert', 'data-test': 'move-error'}, errorText(msg.error)))
        if (msg.error && msg.error.code === 'stale_ply') channel.resync()
        else if (board) board.set(boardState(false))
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
    return {view: st.view, legal: st.summary && st.summary.status === 'live' ? st.legal : null, seat: st.seat,
      seats: st.summary ? st.summary.seats : [], moves: st.moves, status: st.summary && st.summary.status, fresh}
  }

  function setClocks(clocks) {
    st.clocks = clocks || null
    clockBase = performance.now()
    clearInterval(clockTimer)
    if (st.clocks && st.summary && st.summary.status === 'live') clockTimer = setInterval(renderSeats, 1000)
  }

  function clockText(seat) {
    if (!st.clocks) return ''
    const c = st.clocks.find((x) => x.seat === seat)
    if (!c) return ''
    let ms = c.remainingMs
    if (st.summary.status === 'live' && st.summary.toMove === seat) ms -= performance.now() - clockBase
    ms = Math.max(0, ms)
    const sec = Math.floor(ms / 1000)
    return `${Math.floor(sec / 60)}:${String(sec % 60).padStart(2, '0')}`
  }

  function renderSeats() {
    const sum = st.summary
    clear(seatsBox)
    sum.seats.forEach((se, i) => {
      const side = sideName(sum.game, se)
      seatsBox.append(h('li', {class: (sum.toMove === i ? 'to-move' : '') + (i === st.seat ? ' me' : '')},
        h('span', {class: 'who'}, se.user ? h('a', {href: '#/user/' + encodeURIComponent(se.user)}, se.user) : seatText(se, sum.seats)),
        side ? h('span', {class: 'side'}, ' · ' + side) : null,
        i === st.seat ? h('span', {class: 'you'}, ' · ' + t('game.you')) : null,
        sum.toMove === i ? h('span', {class: 'turn-dot', title: t('game.toMove')}, ' ●') : null,
        st.clocks ? h('span', {class: 'clock'}, ' ' + clockText(i)) : null))
    })
  }

  function renderMoves() {
    clear(movesList)
    const sum = st.summary
    const names = moverNames(sum, st.moves)
    st.moves.forEach((m, i) => {
      movesList.append(h('li', {value: m.ply + 1}, h('span', {class: 'mv-seat'}, names[i]), ' ', h('code', {}, m.move)))
    })
    movesList.scrollTop = movesList.scrollHeight
  }

  function renderControls() {
    clear(controls)
    const sum = st.summary
    const me = session.current()
    if (sum.status === 'live' && st.seat >= 0) {
      controls.append(h('button', {type: 'button', 'data-test': 'resign', onclick: () => {
        if (confirm(t('game.resignConfirm'))) {
          const rid = channel.send({type: 'resign'})
          if (!rid) errBox.replaceChildren(h('p', {class: 'error'}, t('game.conn.closed')))
        }
      }}, t('game.resign')))
    }
    if (sum.status === 'finished' || sum.status === 'imported') {
      controls.append(h('a', {href: '#/replay/' + sum.id, class: 'button', 'data-test': 'replay-link'}, t('game.replay')))
    }
    controls.append(h('a', {href: '#/rules/' + sum.game, class: 'button subtle'}, t('game.rules')))
    if (sum.status === 'open') {
      const mine = me && sum.seats.some((se) => se.kind === 'human' && se.user === me.name)
      if (!mine && sum.seats.some((se) => se.kind === 'open' || (se.kind === 'invite' && me && se.user === me.name))) {
        controls.append(h('button', {type: 'button', class: 'primary', 'data-test': 'join', onclick: async () => {
          try {
            await session.ensure()
            await api.join(sum.id)
            channel.resync() // the new seat's snapshot
          } catch (e) {
            errBox.replaceChildren(errorBox(e))
          }
        }}, t('lobby.join')))
      }
      if (mine && sum.creator === me.name) {
        controls.append(h('button', {type: 'button', onclick: () => api.abort(sum.id).catch((e) => errBox.replaceChildren(errorBox(e)))}, t('game.abort')))
      }
    }
  }

  function render(fresh) {
    const sum = st.summary
    if (!sum) return
    title.textContent = gameTitle(sum.game) + ' · ' + t('status.' + sum.status)
    document.title = gameTitle(sum.game) + ' · Tabula'
    renderSeats()
    renderMoves()
    renderControls()
    clear(lobbyBox)
    if (sum.status === 'open') {
      lobbyBox.append(h('p', {class: 'note', 'data-test': 'waiting'}, t('game.waiting')),
        h('p', {}, t('game.shareLink'), ' ', h('code', {}, location.href)))
    }
    if (sum.result || sum.status === 'aborted') {
      resultBox.hidden = false
      const scores = sum.result && sum.result.scores ? ' · ' + t('game.scores', {scores: sum.result.scores.join(' / ')}) : ''
      resultBox.replaceChildren(h('strong', {}, resultText(sum, st.seat)), scores)
      resultBox.classList.toggle('won', !!(sum.result && sum.result.winners.includes(st.seat)))
    } else resultBox.hidden = true
    const legal = sum.status === 'live' ? st.legal || [] : []
    clear(datalist)
    for (const m of legal.slice(0, 400)) datalist.append(h('option', {value: m}))
    typedForm.hidden = st.seat < 0 || sum.status !== 'live'
    if (!st.view) return
    if (!board || boardGame !== sum.game) {
      if (board) board.destroy()
      const Board = games[sum.game] && games[sum.game].Board
      if (!Board) {
        boardBox.replaceChildren(h('p', {}, t('game.unknown')))
        return
      }
      board = new Board(boardBox, {interactive: st.seat >= 0, onMove: sendMove})
      boardGame = sum.game
    }
    board.props.interactive = st.seat >= 0
    board.set(boardState(fresh))
  }

  let gone = false
  api.game(id).then(() => {
    if (!gone) openChannel()
  }, (e) => {
    if (gone) return
    if (e.status === 404) {
      main.replaceChildren(h('h1', {}, t('game.missing')), errorBox(e))
      return
    }
    main.prepend(errorBox(e))
    openChannel() // the server is away, not the game: keep trying
  })

  return {
    destroy() {
      gone = true
      if (channel) channel.destroy()
      clearInterval(clockTimer)
      if (board) board.destroy()
    },
    relang() {
      const keep = main.scrollTop
      if (board) board.destroy()
      board = null
      clear(main)
      const again = gamePage(main, [id])
      gone = true
      if (channel) channel.destroy()
      this.destroy = again.destroy
      this.relang = again.relang
      main.scrollTop = keep
    },
  }
}
