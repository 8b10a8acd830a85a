// The Skyjo table: every player's 3×4 grid (face-down cards as card backs,
// drawn from one <use> sprite), the deck and the discard pile, the held
// card, round and total scores, and the scoreboard at each round's end. A
// turn is guided: draw or take, then swap, or discard and flip.

import {s, svgRoot, h, clear, renew, scrollIntoList} from '../../dom.js'
import {t} from '../../i18n.js'
import {Board} from '../board.js'
import {posName, parseMove, visibleSum, faceDown, tone} from './model.js'

const CW = 52 // card width
const CH = 72
const GAP = 8
const COL = 100 // a column of the piles: a card and its label

export class SkyjoBoard extends Board {
  reset() {
    this.mode = 'swap' // after a draw: 'swap' or 'discard' (discard it, then flip)
  }

  cancel() {
    if (this.mode !== 'discard') return false
    this.mode = 'swap'
    return true
  }

  legalSet() {
    return new Set(this.state.legal || [])
  }

  hit(key) {
    const view = this.state.view
    if (key === 'close-scores') {
      this.scoreboard = null
      return
    }
    if (!this.myTurn) {
      this.warn(this.notYourTurn())
      return
    }
    const legal = this.legalSet()
    const seat = this.state.seat
    if (key === 'deck') {
      if (legal.has('draw')) this.play('draw')
      else this.warn(this.phaseHint())
      return
    }
    if (key === 'discard') {
      if (legal.has('take')) this.play('take')
      else if (view.phase === 'drawn') this.mode = this.mode === 'discard' ? 'swap' : 'discard'
      else this.warn(this.phaseHint())
      return
    }
    const m = /^p(\d+):([a-d][1-3])$/.exec(key)
    if (!m) return
    if (Number(m[1]) !== seat) {
      this.warn(t('skyjo.notYourGrid'))
      return
    }
    const pos = m[2]
    if (view.phase === 'initial_flips') {
      if (legal.has('flip ' + pos)) this.play('flip ' + pos)
      else this.warn(t('skyjo.alreadyUp'))
      return
    }
    if (view.phase === 'choose') {
      this.warn(t('skyjo.drawFirst'))
      return
    }
    if (view.phase === 'drawn' && this.mode === 'discard') {
      if (legal.has('flip ' + pos)) this.play('flip ' + pos)
      else this.warn(t('skyjo.flipFaceDown'))
      return
    }
    if (legal.has('swap ' + pos)) this.play('swap ' + pos)
    else this.warn(t('skyjo.removed'))
  }

  phaseHint() {
    const view = this.state.view
    if (view.phase === 'initial_flips') return t('skyjo.flipTwo')
    if (view.phase === 'took') return t('skyjo.tookHint')
    if (view.phase === 'drawn') return t('skyjo.drawnHint')
    return t('skyjo.drawFirst')
  }

  guide() {
    const view = this.state.view
    const buttons = []
    if (!this.myTurn) {
      if (this.state.status && this.state.status !== 'live') return {text: ''}
      return {text: t('skyjo.toMove', {player: this.seatLabel(view.toMove)}), buttons}
    }
    let text
    switch (view.phase) {
      case 'initial_flips':
        text = t('skyjo.flipTwo')
        break
      case 'choose':
        text = t('skyjo.choose')
        break
      case 'took':
        text = t('skyjo.tookHint')
        break
      case 'drawn':
        if (this.mode === 'discard') {
          text = t('skyjo.discardMode')
          buttons.push({label: t('skyjo.keepInstead'), run: () => {
            this.mode = 'swap'
            this.redraw()
          }})
        } else {
          text = t('skyjo.drawnHint')
          buttons.push({label: t('skyjo.discardIt'), primary: true, run: () => {
            this.mode = 'discard'
            this.redraw()
          }})
        }
        break
      default:
        text = ''
    }
    return {text, buttons}
  }

  /**
   * roundTurn is the part of the last turn played in this round: the move
   * that ended a round is not marked on the next round's deal, nor taken for
   * one turn with the same player's first flips there. While the round's
   * cards are being turned, a player's face-up cards are their flips so far.
   */
  roundTurn() {
    const turn = this.lastTurn()
    const view = this.state.view
    if (view.phase !== 'initial_flips' || !turn.length) return turn
    const grid = (view.players[turn[0].seat] || {}).grid || []
    const up = grid.flat().filter((v) => v !== '?' && v !== 'x').length
    return turn.slice(Math.max(0, turn.length - up))
  }

  render() {
    const view = this.state.view
    this.trackScores(view)
    const legal = this.myTurn ? this.legalSet() : new Set()
    const turn = this.roundTurn()
    const lastSeat = turn.length ? turn[0].seat : -1
    const lastPos = new Set(turn.map((m) => parseMove(m.move).pos).filter(Boolean))
    const lastKinds = new Set(turn.map((m) => parseMove(m.move).kind))
    const fresh = this.state.fresh

    clear(this.host)
    this.host.append(sprite())
    // the middle of the table: deck, discard pile, held card, each in a
    // column of its own wide enough for its label (the held card's owner on
    // a line of its own, shortened to fit)
    const {svg: mid, layers} = svgRoot(`0 0 ${COL * 3} ${CH + 56}`, ['piles', 'marks'],
      {class: 'skyjo-piles', role: 'group', 'aria-label': t('skyjo.pilesLabel')})
    const colX = (i) => COL * i + (COL - CW) / 2
    const deck = s(layers.piles, 'g', {class: 'pile deck'})
    this.hitTarget(deck, 'deck', t('skyjo.deckLabel', {n: view.deck}), legal.has('draw'))
    back(deck, colX(0) + 4, 14)
    back(deck, colX(0) + 2, 12)
    back(deck, colX(0), 10)
    if (legal.has('draw')) s(deck, 'rect', {x: colX(0) - 3, y: 7, width: CW + 10, height: CH + 10, rx: 8, class: 'target-ring'})
    s(deck, 'text', {x: COL / 2, y: CH + 32, class: 'pile-label'}, t('skyjo.deckCount', {n: view.deck}))
    const disc = view.discard || []
    const top = disc.length ? disc[disc.length - 1] : null
    const dg = s(layers.piles, 'g', {class: 'pile discard' + (this.mode === 'discard' && view.phase === 'drawn' && this.myTurn ? ' armed' : '')})
    const discLegal = legal.has('take') || (this.myTurn && view.phase === 'drawn')
    this.hitTarget(dg, 'discard', top === null ? t('skyjo.discardEmpty') : t('skyjo.discardLabel', {v: top}), discLegal)
    if (top === null) s(dg, 'rect', {x: colX(1), y: 10, width: CW, height: CH, rx: 6, class: 'slot'})
    else card(dg, colX(1), 10, top, fresh && (lastKinds.has('flip') || lastKinds.has('swap')))
    if (discLegal) s(dg, 'rect', {x: colX(1) - 3, y: 7, width: CW + 6, height: CH + 6, rx: 8, class: 'target-ring'})
    s(dg, 'text', {x: COL * 1.5, y: CH + 32, class: 'pile-label'}, t('skyjo.discardCount', {n: disc.length}))
    const fits = []
    if (view.held !== null && view.held !== undefined) {
      const hg = s(layers.piles, 'g', {class: 'held'})
      card(hg, colX(2), 10, view.held, fresh)
      const who = this.seatLabel(view.toMove)
      s(hg, 'title', {}, t('skyjo.held', {player: who}))
      s(hg, 'text', {x: COL * 2.5, y: CH + 32, class: 'pile-label'}, t('skyjo.heldBy'))
      fits.push(s(hg, 'text', {x: COL * 2.5, y: CH + 48, class: 'pile-label'}, who))
    }
    if (lastKinds.has('draw') || lastKinds.has('take')) {
      const x = colX(lastKinds.has('draw') ? 0 : 1)
      s(layers.marks, 'rect', {x: x - 3, y: 7, width: CW + 6, height: CH + 6, rx: 8, class: 'last-card'})
    }
    // the turn's buttons stand beside the piles, not below every grid
    const table = h('div', {class: 'skyjo-table'}, h('div', {class: 'skyjo-mid'}, mid, this.actions))
    const grids = h('div', {class: 'skyjo-grids'})
    grids.style.setProperty('--cols', String(Math.min(4, view.players.length)))
    const order = [...view.players.keys()]
    if (this.state.seat >= 0) order.sort((a, b) => (a === this.state.seat ? -1 : b === this.state.seat ? 1 : a - b))
    for (const p of order) {
      const pl = view.players[p]
      const {svg, layers: gl} = svgRoot(`0 0 ${4 * (CW + GAP) + GAP + 14} ${3 * (CH + GAP) + GAP + 14}`, ['cards', 'marks'],
        {class: 'skyjo-grid', role: 'group', 'aria-label': t('skyjo.gridLabel', {player: this.seatLabel(p)})})
      for (let c = 0; c < 4; c++) s(gl.cards, 'text', {x: 14 + GAP + c * (CW + GAP) + CW / 2, y: 10, class: 'coord'}, String.fromCharCode(97 + c))
      for (let r = 0; r < 3; r++) s(gl.cards, 'text', {x: 5, y: 14 + GAP + r * (CH + GAP) + CH / 2 + 4, class: 'coord'}, String(r + 1))
      pl.grid.forEach((row, r) => row.forEach((v, c) => {
        const pos = posName(r, c)
        const x = 14 + GAP + c * (CW + GAP)
        const y = 14 + r * (CH + GAP)
        const g = s(gl.cards, 'g', {class: 'slot-g'})
        const mine = p === this.state.seat
        let target = false
        if (mine && this.myTurn) {
          if (view.phase === 'drawn' && this.mode === 'discard') target = legal.has('flip ' + pos)
          else target = legal.has('flip ' + pos) && view.phase === 'initial_flips' || legal.has('swap ' + pos)
        }
        const label = v === 'x' ? t('skyjo.cardRemoved', {pos}) : v === '?' ? t('skyjo.cardDown', {pos}) : t('skyjo.cardUp', {pos, v})
        this.hitTarget(g, `p${p}:${pos}`, label, target)
        const isLast = p === lastSeat && lastPos.has(pos)
        if (v === 'x') s(g, 'rect', {x, y, width: CW, height: CH, rx: 6, class: 'slot removed'})
        else if (v === '?') back(g, x, y)
        else card(g, x, y, v, fresh && isLast)
        if (target) s(g, 'rect', {x: x - 2, y: y - 2, width: CW + 4, height: CH + 4, rx: 8, class: 'target-ring'})
        if (isLast) s(gl.marks, 'rect', {x: x - 3, y: y - 3, width: CW + 6, height: CH + 6, rx: 8, class: 'last-card'})
      }))
      const status = []
      if (pl.ended) status.push(t('skyjo.ended'))
      if (view.toMove === p && this.live() && view.phase !== 'game_over') status.push(t('skyjo.moving'))
      grids.append(h('div', {class: 'skyjo-player' + (view.toMove === p && this.live() ? ' to-move' : '') + (p === this.state.seat ? ' mine' : ''), 'data-test': 'player-' + p},
        h('div', {class: 'skyjo-name'}, h('strong', {}, this.seatLabel(p)), status.length ? ' · ' + status.join(' · ') : ''),
        svg,
        h('div', {class: 'skyjo-score'}, t('skyjo.scoreLine', {shown: visibleSum(pl.grid), down: faceDown(pl.grid), total: pl.total}))))
    }
    table.append(grids)
    this.host.append(table)
    for (const el of fits) fitText(el, COL - 6)
    this.renderInfo()
  }

  /**
   * trackScores keeps the scoreboard of the round that ended between the
   * position shown before and this one. Its points are this round's only
   * when the two positions are that round and the next (or that round's end
   * of the game): totals change only when a round is scored. So a jump of
   * several rounds, or a step back (a replay, looking back in the game
   * room), shows no scoreboard rather than wrong or negative points. The
   * scoreboard stays while the position is still the one after its round —
   * through the next round's moves, not before its own end.
   */
  trackScores(view) {
    const totals = view.players.map((p) => p.total)
    const over = view.phase === 'game_over'
    const prev = this.prevScores
    this.prevScores = {round: view.round, over, totals}
    if (prev && prev.totals.length === totals.length && !prev.over &&
        (over ? view.round === prev.round : view.round === prev.round + 1)) {
      this.scoreboard = {round: prev.round, over, after: view.round,
        rows: totals.map((v, i) => ({seat: i, gained: v - prev.totals[i], total: v}))}
      return
    }
    const sb = this.scoreboard
    if (sb && (sb.after !== view.round || sb.over !== over)) this.scoreboard = null
  }

  // Renewed, not redrawn (dom.js renew): the board is drawn at every move,
  // and the round's scoreboard with its Close button stays up through the
  // next round's moves — a Close pressed as a move arrives must stay the
  // same button.
  renderInfo() {
    const fresh = h('div', {})
    this.fillInfo(fresh)
    renew(this.info, fresh)
    const sb = this.info.querySelector('.scoreboard')
    if (sb !== this.shownBoard) this.keepInView(sb)
    this.shownBoard = sb
  }

  /**
   * keepInView shows a scoreboard just come whole. In the game room the
   * facts sit below the move list in a side panel of the board's height,
   * where it began below the panel's fold — and the panel shrinks again just
   * after at a game's end (its buttons come above). So while it stands the
   * panel is scrolled to it whenever the panel changes size, until the
   * player scrolls the panel. Only that panel, never the page: a phone's
   * player keeps the board in view.
   */
  keepInView(sb) {
    if (this.inView) this.inView.disconnect()
    this.inView = null
    const panel = sb && sb.closest('.game-side')
    if (!panel || typeof ResizeObserver !== 'function') return
    let put = panel.scrollTop // where the panel was last scrolled to
    const show = () => {
      if (!sb.isConnected || panel.scrollTop !== put) {
        watch.disconnect() // closed, or the player scrolled: theirs now
        return
      }
      if (panel.scrollHeight > panel.clientHeight + 1 && getComputedStyle(panel).overflowY !== 'visible') scrollIntoList(panel, sb)
      put = panel.scrollTop
    }
    const watch = new ResizeObserver(show)
    watch.observe(panel)
    this.inView = watch
  }

  fillInfo(info) {
    const view = this.state.view
    // the options are strings: a number, so that 1 takes its plural form ('1 point', not '1 points')
    const facts = [t('skyjo.round', {n: view.round}), t('skyjo.target', {n: Number((view.options || {}).target || 100)})]
    if (view.finalLap) {
      const ender = view.players.findIndex((p) => p.ended)
      facts.push(t('skyjo.finalLap', {player: this.seatLabel(ender)}))
    }
    info.append(h('p', {class: 'note'}, facts.join(' · ')))
    if (this.scoreboard) {
      const sb = this.scoreboard
      const rows = sb.rows.map((r) => h('tr', {}, h('th', {scope: 'row'}, this.seatLabel(r.seat)), h('td', {}, String(r.gained)), h('td', {}, String(r.total))))
      const close = h('button', {type: 'button', onclick: () => {
        this.scoreboard = null
        this.redraw()
      }}, t('board.close'))
      // compact (the heading and its Close on one line): in the game room it
      // shares a side panel of the board's height with the move list
      info.append(h('div', {class: 'scoreboard', 'data-test': 'scoreboard'},
        h('div', {class: 'scoreboard-head'}, h('h3', {}, t('skyjo.roundOver', {n: sb.round})), close),
        h('table', {}, h('thead', {}, h('tr', {}, h('th', {}, t('skyjo.player')), h('th', {}, t('skyjo.thisRound')), h('th', {}, t('skyjo.total')))),
          h('tbody', {}, rows))))
    }
  }

  destroy() {
    if (this.inView) this.inView.disconnect()
    super.destroy()
  }

  describe() {
    const view = this.state.view
    const lines = [t('skyjo.describeTable', {round: view.round, deck: view.deck, top: (view.discard || []).slice(-1)[0] ?? '-',
      held: view.held ?? '-'})]
    view.players.forEach((pl, p) => {
      const rows = pl.grid.map((row, r) => row.map((v, c) => `${posName(r, c)} ${v === '?' ? t('skyjo.down') : v === 'x' ? t('skyjo.gone') : v}`).join(', '))
      lines.push(t('skyjo.describePlayer', {player: this.seatLabel(p), cards: rows.join('; '), total: pl.total}))
    })
    const turn = this.lastTurn()
    if (turn.length) lines.push(t('board.lastMove', {move: this.seatLabel(turn[0].seat) + ': ' + turn.map((m) => m.move).join(' ')}))
    return lines
  }
}

/**
 * fitText shortens an SVG text (with an ellipsis) until it is at most width
 * wide. Each measure makes the browser lay the page out, and the board is
 * drawn anew at every move with the same names: the shortened text is
 * remembered (fitted) once the page's fonts are in, and found by halving.
 */
function fitText(el, width) {
  const full = el.textContent
  const key = width + '\u0000' + full
  const known = fitted.get(key)
  if (known !== undefined) {
    el.textContent = known
    return
  }
  if (full.length > 1 && el.getComputedTextLength() > width) {
    // the longest prefix that fits with its ellipsis, at least one character
    let lo = 1, hi = full.length - 1
    while (lo < hi) {
      const mid = Math.ceil((lo + hi) / 2)
      el.textContent = full.slice(0, mid) + '…'
      if (el.getComputedTextLength() > width) hi = mid - 1
      else lo = mid
    }
    el.textContent = full.slice(0, lo) + '…'
  }
  if (document.fonts && document.fonts.status !== 'loaded') return
  if (fitted.size >= 256) fitted.clear()
  fitted.set(key, el.textContent)
}

/** fitted maps a width and a text to the text fitText made of it. */
const fitted = new Map()

/** card draws a face-up card. */
function card(parent, x, y, v, animate) {
  const g = s(parent, 'g', {class: 'card ' + tone(v) + (animate ? ' flip' : '')})
  s(g, 'rect', {x, y, width: CW, height: CH, rx: 6, class: 'face'})
  s(g, 'text', {x: x + CW / 2, y: y + CH / 2 + 9, class: 'value'}, String(v))
  s(g, 'text', {x: x + 7, y: y + 14, class: 'corner'}, String(v))
  return g
}

/** back draws a face-down card: a <use> of the card-back sprite. */
function back(parent, x, y) {
  return s(parent, 'use', {href: '#sk-back-sym', x, y, width: CW, height: CH, class: 'card-back'})
}

/** sprite is the hidden SVG holding the card back every face-down card uses. */
function sprite() {
  const {svg} = svgRoot('0 0 0 0', [], {width: 0, height: 0, class: 'sprite', 'aria-hidden': 'true'})
  const defs = s(svg, 'defs')
  const pat = s(defs, 'pattern', {id: 'sk-diamonds', width: 10, height: 10, patternUnits: 'userSpaceOnUse', patternTransform: 'rotate(45)'})
  s(pat, 'rect', {width: 10, height: 10, fill: '#2a4d8f'})
  s(pat, 'rect', {width: 5, height: 5, fill: '#3a63ad'})
  const sym = s(defs, 'symbol', {id: 'sk-back-sym', viewBox: `0 0 ${CW} ${CH}`})
  s(sym, 'rect', {x: 0.5, y: 0.5, width: CW - 1, height: CH - 1, rx: 6, fill: '#1d3566', stroke: '#0d1b36'})
  s(sym, 'rect', {x: 5, y: 5, width: CW - 10, height: CH - 10, rx: 4, fill: 'url(#sk-diamonds)'})
  s(sym, 'text', {x: CW / 2, y: CH / 2 + 5, 'text-anchor': 'middle', fill: '#f2d16b', 'font-size': 13, 'font-weight': 700}, 'S')
  return svg
}
