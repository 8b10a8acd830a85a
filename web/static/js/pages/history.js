// A player's game history (#/history/NAME, issue 24.7): their finished games
// under filters that live in the address (so a filtered view can be shared
// or reloaded), a page at a time with the server's cursor, each with its
// replay and review; an export of the filtered games as JSON lines; and a
// form to import a record (pasted or from a file) that opens the imported
// game's replay. The API: GET /api/users/{name}/games(.jsonl) and
// POST /api/records (docs/api.md).

import {h, clear, fmtTime} from '../dom.js'
import {t, lang} from '../i18n.js'
import {ApiError} from '../api.js'
import * as session from '../session.js'
import * as catalog from '../catalog.js'
import {errorBox, gameTitle} from '../components/common.js'
import {clockText} from '../components/players.js'
import {userLink} from '../components/leaderboard.js'

/** The filters the page and the API share, in the order of the form. */
const FILTERS = ['game', 'result', 'opponent', 'rated', 'clock', 'from', 'to']
/** What the address keeps besides: the page size (no control; ?limit=N in a shared address) and the cursor. */
const KEPT = [...FILTERS, 'limit', 'cursor']

/** The import's size limit: the server's (maxImportBody, 1 MiB), told before a file is sent. */
const MAX_IMPORT = 1 << 20

/** getJSON reads an API answer: the body, or ApiError with the server's code and message. */
async function getJSON(path, opts = {}) {
  let res
  try {
    res = await fetch('/api' + path, {headers: {Accept: 'application/json', ...(opts.body ? {'Content-Type': 'application/json'} : {})}, credentials: 'same-origin', ...opts})
  } catch (e) {
    throw new ApiError(0, 'network', String(e.message || e))
  }
  const data = await res.json().catch(() => null)
  if (!res.ok) {
    const err = data && data.error
    throw new ApiError(res.status, (err && err.code) || 'http_' + res.status, (err && err.message) || res.statusText)
  }
  return data
}

/**
 * refusal shows an API error with the server's own words under it: they name
 * what is wrong (the filter, the record's bad move), which the translated
 * line for the error's code cannot.
 */
function refusal(err) {
  const box = errorBox(err)
  if (err && err.message && err.message !== box.textContent) box.append(h('br'), h('small', {class: 'hist-detail', 'data-test': 'error-detail'}, err.message))
  return box
}

/** historyHref is the page's address for a player, filters and cursor (empty values left out). */
function historyHref(name, params) {
  const u = new URLSearchParams()
  for (const k of KEPT) if (params[k]) u.set(k, params[k])
  const q = u.toString()
  return '#/history/' + encodeURIComponent(name) + (q ? '?' + q : '')
}

export function historyPage(main, [name], query) {
  // The state is the address: every change of a filter is a new address.
  const params = {}
  for (const k of KEPT) params[k] = (query && query.get(k)) || ''
  // An exact control's "+" (clock=5+3) comes out of the address's query as
  // a space; no clock value has one, so it is put back.
  params.clock = params.clock.replace(/ /g, '+')
  let answer = null
  let failed = null
  const list = h('div', {'data-test': 'history-list', 'aria-live': 'polite'})
  const importMsg = h('div', {'aria-live': 'polite', 'data-test': 'import-msg'})

  const go = (changes) => {
    location.hash = historyHref(name, {...params, cursor: '', ...changes})
  }

  function select(key, options) {
    return h('select', {id: 'hist-' + key, 'data-test': 'filter-' + key, onchange: (ev) => go({[key]: ev.target.value})},
      options.map(([value, label]) => h('option', {value, selected: params[key] === value ? true : null}, label)))
  }

  function field(key, control) {
    return h('div', {class: 'hist-field'}, h('label', {for: 'hist-' + key}, t('history.f.' + key)), control)
  }

  // The clock menu: the kinds and speeds, and an address's exact control
  // ("5+3", from a profile's link or typed) as an option of its own, so the
  // menu shows what the list is filtered by instead of "Any".
  function clockOptions(any) {
    const opts = [any, ['none', t('history.clock.none')], ['realtime', t('history.clock.realtime')],
      ...['bullet', 'blitz', 'rapid', 'classical'].map((sp) => [sp, t('history.clock.' + sp)]), ['correspondence', t('history.clock.correspondence')]]
    if (params.clock && !opts.some(([v]) => v === params.clock)) opts.push([params.clock, t('history.clock.exact', {clock: params.clock})])
    return opts
  }

  function filters() {
    const opponent = h('input', {id: 'hist-opponent', 'data-test': 'filter-opponent', value: params.opponent, maxlength: 40, autocomplete: 'off',
      placeholder: t('history.anyone'), onchange: (ev) => go({opponent: ev.target.value.trim()})})
    const date = (key) => h('input', {id: 'hist-' + key, type: 'date', 'data-test': 'filter-' + key, value: /^\d{4}-\d\d-\d\d$/.test(params[key]) ? params[key] : '',
      onchange: (ev) => go({[key]: ev.target.value})})
    const any = ['', t('history.any')]
    const active = FILTERS.some((k) => params[k])
    return h('form', {class: 'panel hist-filters', 'data-test': 'history-filters', onsubmit: (ev) => ev.preventDefault()},
      field('game', select('game', [any, ...catalog.gameNames().map((g) => [g, gameTitle(g)])])),
      field('result', select('result', [any, ['win', t('profile.win')], ['draw', t('profile.draw')], ['loss', t('profile.loss')]])),
      field('opponent', opponent),
      field('rated', select('rated', [any, ['true', t('history.rated')], ['false', t('history.unrated')]])),
      field('clock', select('clock', clockOptions(any))),
      field('from', date('from')),
      field('to', date('to')),
      h('div', {class: 'hist-field hist-clear'}, active ?
        h('a', {href: historyHref(name, {limit: params.limit}), class: 'button', 'data-test': 'filter-clear'}, t('history.clear')) : null))
  }

  function exportLink() {
    const u = new URLSearchParams()
    for (const k of FILTERS) if (params[k]) u.set(k, params[k])
    u.set('limit', '200')
    return h('p', {class: 'hist-export'},
      h('a', {href: '/api/users/' + encodeURIComponent(name) + '/games.jsonl?' + u, download: 'tabula-' + name + '-games.jsonl', class: 'button', 'data-test': 'history-export'}, t('history.export')),
      ' ', h('small', {class: 'muted'}, t('history.exportNote')))
  }

  function row(e) {
    const g = e.game
    const d = e.ratingChange && Math.round(e.ratingChange.delta)
    const clock = clockText(g.clock)
    return h('li', {class: 'hist-row', 'data-test': 'history-game', 'data-id': g.id, 'data-outcome': e.outcome, 'data-game': g.game},
      h('span', {class: 'hist-what'}, h('strong', {}, gameTitle(g.game)), ' ',
        h('span', {class: 'profile-outcome outcome-' + e.outcome}, t('profile.' + e.outcome)), ' ',
        e.ratingChange ? h('span', {class: 'profile-delta' + (d > 0 ? ' up' : d < 0 ? ' down' : ''), title: Math.round(e.ratingChange.before) + ' → ' + Math.round(e.ratingChange.after)},
          d > 0 ? '+' + d : d < 0 ? '\u2212' + -d : '±0') : h('small', {class: 'muted'}, t('profile.unratedGame'))),
      h('span', {class: 'hist-who'}, opponentsOf(e.opponents)),
      h('small', {class: 'hist-when'}, fmtTime(g.finished, lang()), clock ? ' · ' + clock : ''),
      h('span', {class: 'hist-links'},
        h('a', {href: '#/replay/' + g.id, class: 'button', 'data-test': 'history-replay'}, t('game.replay')),
        catalog.analysable(g.game) ? h('a', {href: '#/review/' + g.id, class: 'button', 'data-test': 'history-review'}, t('game.review')) : null))
  }

  function opponentsOf(names) {
    if (!names || !names.length) return null
    const [before, after] = t('profile.vs', {names: '\u0000'}).split('\u0000')
    const links = names.flatMap((n, i) => [i ? ', ' : null, n.startsWith('bot ') ? n : userLink(n)])
    return [before, ...links, after].filter((x) => x)
  }

  function show() {
    clear(list)
    if (failed) {
      list.append(refusal(failed))
      if (params.cursor || FILTERS.some((k) => params[k])) list.append(h('p', {}, h('a', {href: historyHref(name, {}), class: 'button'}, t('history.clear'))))
      return
    }
    if (!answer) {
      list.append(h('p', {class: 'muted'}, t('history.loading')))
      return
    }
    if (!answer.games.length) {
      list.append(h('p', {class: 'muted', 'data-test': 'history-empty'}, params.cursor ? t('history.noMore') : t('history.none')))
    } else {
      list.append(h('ul', {class: 'hist-list'}, answer.games.map(row)))
    }
    const nav = h('nav', {class: 'hist-pages', 'aria-label': t('history.pages')},
      params.cursor ? h('a', {href: historyHref(name, {...params, cursor: ''}), class: 'button', 'data-test': 'history-first'}, t('history.first')) : null,
      answer.next ? h('a', {href: historyHref(name, {...params, cursor: answer.next}), class: 'button primary', 'data-test': 'history-next'}, t('history.next')) : null)
    if (nav.childNodes.length) list.append(nav)
  }

  function importForm() {
    const text = h('textarea', {id: 'hist-record', rows: 5, 'data-test': 'import-text', spellcheck: 'false', placeholder: t('history.import.placeholder')})
    const file = h('input', {id: 'hist-file', type: 'file', accept: '.json,.jsonl,.txt,application/json,text/plain', 'data-test': 'import-file', onchange: async () => {
      importMsg.replaceChildren()
      const f = file.files && file.files[0]
      if (!f) return
      if (f.size > MAX_IMPORT) {
        importMsg.replaceChildren(h('p', {class: 'error', role: 'alert'}, t('history.import.tooLarge')))
        file.value = ''
        return
      }
      text.value = await f.text()
    }})
    const button = h('button', {type: 'submit', class: 'primary', 'data-test': 'import-submit'}, t('history.import.submit'))
    return h('form', {class: 'panel hist-import', 'data-test': 'import-form', onsubmit: async (ev) => {
      ev.preventDefault()
      importMsg.replaceChildren()
      const raw = text.value.trim()
      let record = raw
      if (!raw) {
        importMsg.replaceChildren(h('p', {class: 'error', role: 'alert'}, t('history.import.empty')))
        return
      }
      if (new Blob([raw]).size > MAX_IMPORT) {
        importMsg.replaceChildren(h('p', {class: 'error', role: 'alert'}, t('history.import.tooLarge')))
        return
      }
      if (raw.startsWith('{')) {
        // A JSON record; an export's file holds one per line, and one is imported at a time.
        const lines = raw.split('\n').filter((l) => l.trim())
        if (lines.length > 1 && lines.every((l) => l.trim().startsWith('{'))) {
          importMsg.replaceChildren(h('p', {class: 'error', role: 'alert'}, t('history.import.many', {n: lines.length})))
          return
        }
        try {
          record = JSON.parse(raw)
        } catch {
          importMsg.replaceChildren(h('p', {class: 'error', role: 'alert'}, t('history.import.badJSON')))
          return
        }
      }
      button.disabled = true
      try {
        await session.ensure()
        const res = await getJSON('/records', {method: 'POST', body: JSON.stringify({record})})
        location.hash = '#/replay/' + res.game.id
      } catch (e) {
        importMsg.replaceChildren(refusal(e))
      }
      button.disabled = false
    }}, h('h2', {}, t('history.import.title')), h('p', {class: 'muted'}, t('history.import.lead')),
    h('div', {class: 'hist-field'}, h('label', {for: 'hist-record'}, t('history.import.paste')), text),
    h('div', {class: 'hist-field'}, h('label', {for: 'hist-file'}, t('history.import.file')), file),
    importMsg, h('p', {}, button))
  }

  function render() {
    clear(main)
    main.append(h('h1', {}, t('history.title', {name})),
      h('p', {}, h('a', {href: '#/user/' + encodeURIComponent(name)}, t('history.profile', {name}))),
      filters(), h('section', {class: 'panel'}, exportLink(), list), importForm())
    show()
  }

  render()
  const q = {}
  for (const k of KEPT) if (params[k]) q[k] = params[k]
  const u = new URLSearchParams(q).toString()
  getJSON('/users/' + encodeURIComponent(name) + '/games' + (u ? '?' + u : '')).then((res) => {
    answer = res
    show()
  }, (e) => {
    failed = e
    show()
  })
  return {relang: render}
}
