// Conditional moves (issue 27, point 9): in a live two-player correspondence
// game of perfect information, while the opponent is to move, the player may
// leave lines "if they play X, I play Y (then if Z, W …)". The server keeps
// them (PUT/GET/DELETE /api/games/{id}/conditional), checks every line
// against the position, and plays the reply the moment the opponent plays
// the line's first move; the move then arrives on the game channel like any
// other. A line is typed as moves separated by ";" (a Skjuub turn has
// spaces, a Sgolte placement with flips has commas), the opponent's first.

import {h} from '../dom.js'
import {t} from '../i18n.js'
import {api} from '../api.js'
import * as catalog from '../catalog.js'
import {errorBox} from './common.js'

/** parseLine splits a typed line into its moves: ";" or a new line between them. */
export function parseLine(text) {
  return text.split(/[;\n]/).map((m) => m.trim()).filter(Boolean)
}

export class Conditional {
  /** props: id (the game's), game() (the page's state: summary, seat, moves). */
  constructor(props) {
    this.props = props
    this.lines = null
    this.loadedAt = -1 // the number of moves when the lines were last read
    this.busy = false
    this.list = h('ol', {class: 'cond-lines', 'data-test': 'cond-lines'})
    this.input = h('input', {type: 'text', id: 'cond-text', autocomplete: 'off', spellcheck: 'false', 'data-test': 'cond-text',
      placeholder: t('cond.placeholder')})
    this.err = h('div', {'aria-live': 'assertive', 'data-test': 'cond-error'})
    const form = h('form', {class: 'cond-form', onsubmit: (ev) => {
      ev.preventDefault()
      const line = parseLine(this.input.value)
      if (!line.length) return
      if (line.length % 2) {
        this.err.replaceChildren(h('p', {class: 'error', role: 'alert'}, t('cond.pairs')))
        return
      }
      this.save([...(this.lines || []), line], () => {
        this.input.value = ''
      })
    }}, h('label', {for: 'cond-text'}, t('cond.add')), this.input, h('button', {type: 'submit', 'data-test': 'cond-save'}, t('cond.save')))
    this.summary = h('summary', {}, t('cond.title')) // with the number of saved lines, seen while closed
    this.el = h('details', {class: 'conditional', 'data-test': 'conditional', hidden: true},
      this.summary, h('p', {class: 'cond-help'}, t('cond.help')), this.list, form, this.err)
  }

  /** allowed: the player may keep conditional moves now (their opponent to move in a correspondence game without hidden information). */
  allowed() {
    const st = this.props.game()
    const sum = st.summary
    return !!(sum && sum.status === 'live' && st.seat >= 0 && sum.seats.length === 2 && !catalog.hidden(sum.game) &&
      sum.clock?.kind === 'correspondence' && sum.toMove >= 0 && sum.toMove !== st.seat)
  }

  /** update shows or hides the panel, and reads the lines again after each move. */
  update() {
    const ok = this.allowed()
    this.el.hidden = !ok
    if (!ok) return
    const n = this.props.game().moves.length
    if (this.loadedAt !== n) {
      this.loadedAt = n
      api.conditional(this.props.id).then((r) => {
        if (this.loadedAt !== n) return // a newer read is under way
        this.lines = (r && r.lines) || []
        this.draw()
      }, (e) => this.err.replaceChildren(errorBox(e)))
    }
  }

  /** save stores lines (none: deletes them) and shows what the server kept. */
  save(lines, done) {
    if (this.busy) return
    this.busy = true
    this.err.replaceChildren()
    const req = lines.length ? api.setConditional(this.props.id, lines) : api.clearConditional(this.props.id)
    req.then((r) => {
      this.lines = (r && r.lines) || []
      this.draw()
      if (done) done()
    }, (e) => this.err.replaceChildren(errorBox(e))).finally(() => {
      this.busy = false
    })
  }

  draw() {
    const lines = this.lines || []
    this.summary.textContent = t('cond.title') + (lines.length ? ` (${lines.length})` : '')
    this.list.replaceChildren(...lines.map((line, i) => {
      const pairs = []
      for (let j = 0; j + 1 < line.length; j += 2) pairs.push(t('cond.pair', {their: line[j], mine: line[j + 1]}))
      return h('li', {'data-test': 'cond-line'}, h('span', {}, pairs.join(', ')), ' ',
        h('button', {type: 'button', class: 'link', 'data-test': 'cond-delete', 'aria-label': t('cond.delete'),
          onclick: () => this.save(lines.filter((_, k) => k !== i))}, t('cond.delete')))
    }))
    if (!lines.length) this.list.append(h('li', {class: 'muted', 'data-test': 'cond-none'}, t('cond.none')))
  }
}
