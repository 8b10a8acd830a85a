// The analysis board's engine: it asks the server to search a position
// (POST /api/analysis, docs/api.md), reads the reports as Server-Sent
// Events, and draws them — the evaluation bar, the three best lines with
// their visit shares, Sploof's proofs — and stops on request. One search
// at a time: a new position replaces the search of the old one.

import {h, s, clear, renewTree} from '../dom.js'
import {t} from '../i18n.js'
import {api} from '../api.js'
import * as session from '../session.js'
import {sideName} from '../seats.js'
import {errorText} from './common.js'

/** pct writes a probability as a whole percentage. */
export const pct = (x) => Math.round(100 * x) + '%'

export class Engine {
  /**
   * @param {object} cb onReport(report), onState(state: 'idle'|'starting'|'queued'|'running'|'yielded'|'stopped'|'error', detail)
   */
  constructor(cb) {
    this.cb = cb
    this.job = null
    this.es = null
    this.want = null
    this.timer = null
    this.gen = 0
  }

  /** analyse searches position (its JSON) of game, soon: stepping fast starts only the last one. */
  analyse(game, position) {
    this.halt()
    this.want = {game, position}
    clearTimeout(this.timer)
    this.timer = setTimeout(() => this.begin(), 250)
    this.cb.onState('starting')
  }

  async begin() {
    const want = this.want
    if (!want) return
    const gen = ++this.gen
    try {
      await session.ensure()
      const st = await api.analyse({game: want.game, position: want.position})
      if (gen !== this.gen) {
        api.stopAnalysis(st.id).catch(() => {})
        return
      }
      this.job = st.id
      const es = new EventSource(st.events)
      this.es = es
      this.cb.onState('running')
      es.addEventListener('report', (ev) => {
        if (gen === this.gen) this.cb.onReport(JSON.parse(ev.data))
      })
      // Beyond the server's places a search waits in line, told its place.
      es.addEventListener('queued', (ev) => {
        if (gen === this.gen) this.cb.onState('queued', JSON.parse(ev.data))
      })
      es.addEventListener('end', (ev) => {
        es.close()
        if (gen === this.gen) {
          this.es = null
          // "yielded": the search gave its place to someone waiting; its last report stands.
          this.cb.onState(JSON.parse(ev.data).reason === 'yielded' ? 'yielded' : 'stopped')
        }
      })
      es.addEventListener('error', (ev) => {
        // A server event named "error" has data; a lost connection has none.
        es.close()
        if (gen !== this.gen) return
        this.es = null
        this.cb.onState('error', ev.data ? JSON.parse(ev.data) : {code: 'network'})
      })
    } catch (e) {
      if (gen === this.gen) this.cb.onState('error', e)
    }
  }

  /** halt stops the search without a word to the page. */
  halt() {
    this.gen++
    this.want = null
    clearTimeout(this.timer)
    if (this.es) this.es.close()
    this.es = null
    if (this.job) api.stopAnalysis(this.job).catch(() => {})
    this.job = null
  }

  /** stop stops the search (the stop button). */
  stop() {
    this.halt()
    this.cb.onState('stopped')
  }

  destroy() {
    this.halt()
  }
}

/**
 * evalBar draws seat 0's win probability as a bar (vertical beside the
 * board, horizontal on a phone: CSS turns it), its share from the bottom.
 */
export function evalBar(el, win0, names) {
  clear(el)
  const svg = s(el, 'svg', {viewBox: '0 0 20 100', preserveAspectRatio: 'none', 'aria-hidden': 'true'})
  s(svg, 'rect', {x: 0, y: 0, width: 20, height: 100, class: 'eval-side1'})
  if (win0 !== null) s(svg, 'rect', {x: 0, y: 100 - 100 * win0, width: 20, height: 100 * win0, class: 'eval-side0'})
  s(svg, 'line', {x1: 0, x2: 20, y1: 50, y2: 50, class: 'eval-mid'})
  el.setAttribute('role', 'img')
  el.setAttribute('aria-label', win0 === null ? t('analysis.noEval') : t('analysis.barLabel', {side: names[0], pct: pct(win0)}))
}

/** verdictText says a proof in words: "Black wins in 9 plies". */
export function verdictText(v) {
  return t('analysis.wins', {side: sideName(v.winnerName), plies: v.plies})
}

/**
 * renderReport draws the evaluation and the lines into box; play(moves)
 * puts moves of a line on the board. Reports come several times a second:
 * the box is renewed, not redrawn, so a button whose move is still shown
 * is the same button from one report to the next — a click pressed on it
 * is released on it. The buttons carry their moves (data-moves) for the
 * one listener on box.
 */
export function renderReport(box, rep, play) {
  box.onclick = (ev) => {
    const b = ev.target.closest('button[data-moves]')
    if (b && box.contains(b)) play(JSON.parse(b.dataset.moves))
  }
  const moves = (ms) => JSON.stringify(ms)
  const fresh = h('div', {})
  const side = sideName(rep.seat)
  fresh.append(h('p', {class: 'eval', 'data-test': 'engine-eval'},
    h('strong', {}, t('analysis.evaluation', {side, pct: pct(rep.win)}))))
  if (rep.exact) {
    fresh.append(h('p', {class: 'exact', 'data-test': 'engine-exact'}, t('analysis.proven', {verdict: verdictText(rep.exact)}), ' ',
      h('code', {}, rep.exact.line.join(' '))))
  }
  if (rep.solved && !rep.exact) {
    // Known ahead of time (Sploof's start: the proof in docs/solving.md).
    const p = h('p', {class: 'exact', 'data-test': 'engine-solved'}, t('analysis.solved', {side: sideName(rep.solved.winnerName)}))
    if (rep.solved.move) {
      p.append(' ', t('analysis.solvedMove'), ' ', h('button', {type: 'button', class: 'lmove', 'data-test': 'solved-move',
        'data-moves': moves([rep.solved.move])}, rep.solved.move))
    }
    fresh.append(p)
  }
  const list = h('ol', {class: 'engine-lines', 'data-test': 'engine-lines'})
  for (const l of rep.lines) {
    // The width through the CSS object model: the site's CSP refuses style attributes.
    const fill = h('span', {class: 'share-fill'})
    fill.style.width = (100 * l.share).toFixed(1) + '%'
    const bar = h('span', {class: 'share'}, fill)
    const pv = h('span', {class: 'pv'}, l.pv.map((m, i) => h('button', {type: 'button', class: 'pvmove',
      title: t('analysis.playLine'), 'data-moves': moves(l.pv.slice(0, i + 1))}, m)))
    list.append(h('li', {'data-test': 'engine-line'},
      h('button', {type: 'button', class: 'lmove', 'data-test': 'line-move', 'data-moves': moves([l.move])}, l.move),
      h('span', {class: 'lwin', title: t('analysis.winAfter', {side})}, pct(l.win)),
      bar, h('span', {class: 'lshare', title: t('analysis.shareTitle')}, pct(l.share)),
      l.exact ? h('span', {class: 'lexact'}, verdictText(l.exact)) : null,
      pv))
  }
  fresh.append(list)
  fresh.append(h('p', {class: 'engine-stats', 'data-test': 'engine-stats'},
    t('analysis.stats', {n: rep.iterations.toLocaleString(), s: (rep.ms / 1000).toFixed(1)})))
  renewTree(box, fresh)
}

/** engineError says why the engine stopped with an error. */
export function engineError(err) {
  return errorText(err)
}
