// The analysis board's position editor: a position is set up as the game's
// position JSON — with fields for what one changes most (Sgolte's stones,
// Sploof's levels and stocks, the side to move) — and every change is
// asked of the rules endpoint, which draws it or refuses it with the
// engine's reason. Only a position the rules accept can be analysed.

import {h, clear} from '../dom.js'
import {t} from '../i18n.js'
import {games} from '../games/registry.js'
import {ask} from '../lessons/rules.js'
import {errorText} from './common.js'

// fields: the quick fields of each game, each reading and writing one part
// of the position JSON.
const fields = {
  sgolte: [
    {key: 'black', label: 'editor.blackStones', get: (p) => (p.black || []).join(' '), set: (p, v) => {
      p.black = v.split(/[\s,]+/).filter(Boolean)
    }},
    {key: 'white', label: 'editor.whiteStones', get: (p) => (p.white || []).join(' '), set: (p, v) => {
      p.white = v.split(/[\s,]+/).filter(Boolean)
    }},
    {key: 'toMove', label: 'editor.toMove', options: ['black', 'white']},
  ],
  sploof: [
    ...[0, 1, 2, 3].map((i) => ({key: 'level' + i, label: 'editor.level', n: i + 1, get: (p) => (p.levels || [])[i] || '',
      set: (p, v) => {
        p.levels = p.levels || []
        p.levels[i] = v.trim()
      }})),
    {key: 'stockWhite', label: 'editor.stockWhite', get: (p) => p.stock?.white ?? '', set: (p, v) => {
      p.stock = {...p.stock, white: Number(v)}
    }},
    {key: 'stockBlack', label: 'editor.stockBlack', get: (p) => p.stock?.black ?? '', set: (p, v) => {
      p.stock = {...p.stock, black: Number(v)}
    }},
    {key: 'toMove', label: 'editor.toMove', options: ['black', 'white']},
  ],
  skjuub: [
    {key: 'toMove', label: 'editor.toMove', options: [0, 1], number: true},
  ],
}

/**
 * openEditor shows the editor in box, starting from position; use(answer)
 * is called with the rules endpoint's answer when the user analyses the
 * position; close() when the editor is left.
 */
export function openEditor(box, game, position, {use, close}) {
  clear(box)
  let pos = structuredClone(position)
  let good = null
  let board = null
  let seq = 0
  const text = h('textarea', {class: 'editor-json', rows: 8, spellcheck: 'false', 'data-test': 'editor-json', 'aria-label': t('editor.json')})
  const verdict = h('p', {class: 'editor-verdict', role: 'status', 'aria-live': 'polite', 'data-test': 'editor-verdict'})
  const preview = h('div', {class: 'editor-board board-box'})
  const useBtn = h('button', {type: 'button', class: 'primary', 'data-test': 'editor-use', disabled: true,
    onclick: () => good && use(good)}, t('editor.use'))
  const inputs = h('div', {class: 'editor-fields'})
  const controls = []
  for (const f of fields[game] || []) {
    let input
    if (f.options) {
      input = h('select', {'data-test': 'editor-' + f.key, onchange: () => {
        pos[f.key] = f.number ? Number(input.value) : input.value
        sync(true)
      }}, f.options.map((o) => h('option', {value: o}, typeof o === 'number' ? t('seat.player', {n: o + 1}) : t('colour.' + o))))
    } else {
      input = h('input', {type: 'text', 'data-test': 'editor-' + f.key, spellcheck: 'false', autocomplete: 'off', oninput: () => {
        f.set(pos, input.value)
        sync(true)
      }})
    }
    controls.push({f, input})
    inputs.append(h('label', {class: 'editor-field'}, h('span', {}, t(f.label, {n: f.n})), input))
  }
  text.addEventListener('input', () => {
    try {
      pos = JSON.parse(text.value)
    } catch (e) {
      verdict.textContent = t('editor.badJSON', {reason: e.message})
      verdict.className = 'editor-verdict refused'
      good = null
      useBtn.disabled = true
      return
    }
    sync(false)
  })
  box.append(h('div', {class: 'editor'},
    h('h2', {}, t('editor.title')),
    h('p', {class: 'muted'}, t('editor.lead')),
    inputs,
    h('details', {class: 'editor-raw', open: !(fields[game] || []).length || game === 'skjuub'}, h('summary', {}, t('editor.json')), text),
    verdict, preview,
    h('div', {class: 'editor-actions'}, useBtn, h('button', {type: 'button', 'data-test': 'editor-close', onclick: close}, t('editor.cancel')))))

  // sync writes the position to the fields and the text (fromFields: the
  // text follows the fields) and asks the rules about it.
  function sync(fromFields) {
    if (fromFields) text.value = JSON.stringify(pos, null, 1)
    for (const {f, input} of controls) {
      if (document.activeElement === input) continue
      input.value = f.get ? f.get(pos) : String(pos[f.key] ?? '')
    }
    check()
  }

  async function check() {
    const mine = ++seq
    useBtn.disabled = true
    good = null
    try {
      const ans = await ask(game, {position: pos})
      if (mine !== seq) return
      if (ans.status !== 'ongoing') {
        verdict.textContent = t('editor.over')
        verdict.className = 'editor-verdict refused'
      } else {
        good = ans
        useBtn.disabled = false
        verdict.textContent = t('editor.ok')
        verdict.className = 'editor-verdict ok'
      }
      if (!board) board = new games[game].Board(preview, {interactive: false, levels: true})
      board.set({view: ans.view, legal: null, seat: -1, seats: [], moves: [], status: 'replay'})
    } catch (e) {
      if (mine !== seq) return
      // the engine's reason without its "sploof: invalid position: " (the line says the position is refused)
      const reason = String(e.message || errorText(e)).replace(/^[a-z]+: invalid position: /, '')
      verdict.textContent = t('editor.refused', {reason})
      verdict.className = 'editor-verdict refused'
    }
  }

  text.value = JSON.stringify(pos, null, 1)
  sync(false)
  return {
    destroy() {
      if (board) board.destroy()
    },
  }
}
