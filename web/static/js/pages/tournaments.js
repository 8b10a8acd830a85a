// Tournaments (#/tournaments): the upcoming ones with a countdown to their
// start, the running ones, the latest finished ones, a link to the help
// page (#/help/tournaments), and for a registered user a form to create one
// (only the fields POST /api/tournaments takes: the game's options but its
// number of players, a round robin played once or twice, the minimum rated
// games; Skyjo tables offer only the games of 3 seats or more, with the
// most players at a table).

import {h, clear, renewTree} from '../dom.js'
import {t} from '../i18n.js'
import * as session from '../session.js'
import * as catalog from '../catalog.js'
import {gameTitle} from '../components/common.js'
import {pairClockLong} from '../components/pairing.js'
import {tournaments, countdown} from '../components/tournamentapi.js'
import {facts, problem} from '../components/tournamentview.js'

const SECTIONS = ['upcoming', 'running', 'finished']
const REFRESH_MS = 5000

export function tournamentsPage(main) {
  let lists = null
  let failed = null
  let createError = null
  let timer = null
  let poll = null
  const body = h('div', {'data-test': 'tn-lists'})

  function render() {
    clear(main)
    main.append(h('h1', {}, t('tournament.title')), h('p', {class: 'muted'}, t('tournament.lead')),
      h('p', {}, h('a', {href: '#/help/tournaments', 'data-test': 'tn-help'}, t('help.tournaments'))), body, createPanel())
    show()
  }

  /**
   * show draws the lists. Read again every 5 s, mostly the same: body is
   * renewed, not redrawn (dom.renewTree; a tournament's row matched by its
   * id), so a link pressed as they come again is released on the same
   * element. Nothing in them has a listener; tick finds the countdowns in
   * body each second, so it writes into the ones the page shows.
   */
  function show() {
    const fresh = h('div', {})
    if (failed) fresh.append(problem(failed))
    if (!lists) {
      if (!failed) fresh.append(h('p', {class: 'muted'}, t('tournament.loading')))
      renewTree(body, fresh)
      return
    }
    for (const s of SECTIONS) {
      const items = lists[s]
      fresh.append(h('section', {class: 'panel tn-list', 'data-test': 'tn-' + s, 'data-key': s},
        h('h2', {}, t('tournament.status.' + s)),
        items.length ? h('ul', {class: 'tn-items'}, items.map((tr) => h('li', {'data-id': tr.id, 'data-key': tr.id},
          h('a', {href: '#/tournament/' + encodeURIComponent(tr.id), class: 'tn-name', 'data-test': 'tn-link'}, tr.name),
          h('span', {class: 'muted tn-facts'}, facts(tr)),
          s === 'upcoming' ? h('span', {class: 'tn-countdown', 'data-start': tr.start}, t('tournament.startsIn', {time: countdown(Date.parse(tr.start))})) : null,
          s === 'finished' && tr.note ? h('span', {class: 'muted'}, tr.note) : null)))
          : h('p', {class: 'muted'}, t('tournament.none.' + s))))
    }
    renewTree(body, fresh)
  }

  function tick() {
    for (const el of body.querySelectorAll('.tn-countdown')) el.textContent = t('tournament.startsIn', {time: countdown(Date.parse(el.dataset.start))})
  }

  function load() {
    Promise.all(SECTIONS.map((s) => tournaments.list(s, s === 'finished' ? 20 : 50))).then((res) => {
      lists = {}
      SECTIONS.forEach((s, i) => (lists[s] = res[i].tournaments || []))
      failed = null
      show()
    }, (e) => {
      failed = e
      show()
    })
  }

  function createPanel() {
    const me = session.current()
    const panel = h('section', {class: 'panel tn-create'}, h('h2', {}, t('tournament.create')))
    if (!me || me.guest) {
      panel.append(h('p', {class: 'muted', 'data-test': 'tn-create-guest'}, t('tournament.registerToCreate')))
      return panel
    }
    const games = catalog.gameNames().filter((g) => {
      const s = catalog.game(g)?.seats
      return !s || (s.min <= 2 && s.max >= 2)
    })
    // Skyjo tables seat 3 to 8: the games with that many seats.
    const tableGames = catalog.gameNames().filter((g) => (catalog.game(g)?.seats?.max || 2) >= 3)
    const clocks = catalog.pairClocks()
    const start = new Date(Date.now() + 15 * 60000)
    start.setSeconds(0, 0)
    const local = new Date(start.getTime() - start.getTimezoneOffset() * 60000).toISOString().slice(0, 16)
    const field = (label, input) => h('label', {class: 'tn-field'}, h('span', {}, label), input)
    const f = {
      name: h('input', {name: 'name', required: true, maxlength: 80, 'data-test': 'tn-name'}),
      game: h('select', {name: 'game', 'data-test': 'tn-game'}, games.map((g) => h('option', {value: g}, gameTitle(g)))),
      clock: h('select', {name: 'clock', 'data-test': 'tn-clock'}, clocks.map(({name}, i) => h('option', {value: name, selected: i === Math.min(2, clocks.length - 1)}, pairClockLong(name)))),
      start: h('input', {name: 'start', type: 'datetime-local', step: 1, required: true, value: local, 'data-test': 'tn-start'}),
      format: h('select', {name: 'format', 'data-test': 'tn-format'}, ['swiss', 'roundrobin', 'arena', ...(tableGames.length ? ['tables'] : [])]
        .map((x) => h('option', {value: x}, t('tournament.format.' + x)))),
      rounds: h('input', {name: 'rounds', type: 'number', min: 1, max: 20, value: 5, 'data-test': 'tn-rounds'}),
      double: h('input', {name: 'double', type: 'checkbox', 'data-test': 'tn-double'}), // a round robin's: played twice
      rated: h('input', {name: 'rated', type: 'checkbox', checked: true, 'data-test': 'tn-rated'}),
      minRated: h('input', {name: 'minRatedGames', type: 'number', min: 0, max: 1000, value: 0, inputmode: 'numeric', 'data-test': 'tn-min-rated'}),
      bots: h('input', {name: 'bots', type: 'checkbox', 'data-test': 'tn-bots'}), // bot accounts admitted
      password: h('input', {name: 'password', type: 'text', maxlength: 100, autocomplete: 'off', 'data-test': 'tn-password'}),
      // an arena's: its length and berserk
      minutes: h('input', {name: 'minutes', type: 'number', min: 1, max: 720, value: 30, 'data-test': 'tn-minutes'}),
      berserk: h('input', {name: 'berserk', type: 'checkbox', checked: true, 'data-test': 'tn-berserk'}),
      // tables': the most players at a table
      maxTable: h('input', {name: 'maxTable', type: 'number', min: 3, max: 8, value: 4, 'data-test': 'tn-max-table'}),
    }
    const roundsField = field(t('tournament.rounds'), f.rounds)
    const minutesField = field(t('arena.minutes'), f.minutes)
    const berserkField = h('label', {class: 'tn-check'}, f.berserk, ' ', t('arena.berserkAllowed'))
    const maxTableField = field(t('tables.maxTable'), f.maxTable)
    const doubleField = h('label', {class: 'tn-check'}, f.double, ' ', t('tournament.double'))
    // The game's options, as the lobby offers them, but its number of
    // players: two in a pairing format, the most at a table in Skyjo tables.
    const options = h('fieldset', {class: 'tn-options', 'data-test': 'tn-options'})
    let optionInputs = []
    const showOptions = () => {
      const g = catalog.game(f.game.value)
      const word = (k, fallback) => (t(k) === k ? fallback : t(k))
      optionInputs = (g?.options || []).filter((o) => o.name !== 'players').map((o) => {
        const key = `opt.${g.name}.${o.name}`
        const rule = word(key, o.doc)
        const input = o.values && o.values.length
          ? h('select', {name: 'opt-' + o.name, title: rule, 'data-test': 'tn-opt-' + o.name},
            o.values.map((v) => h('option', {value: v, selected: v === o.default}, word(`${key}.v.${v}`, v))))
          : h('input', {name: 'opt-' + o.name, type: 'number', min: o.min, max: o.max, value: o.default, required: true, title: rule, 'data-test': 'tn-opt-' + o.name})
        input.option = o
        return input
      })
      options.replaceChildren(h('legend', {}, t('tournament.gameOptions')),
        ...optionInputs.map((input) => field(word(`opt.${g.name}.${input.option.name}.name`, input.option.name), input)))
      options.hidden = !optionInputs.length
    }
    let shownGames = games
    const showFormat = () => {
      const tables = f.format.value === 'tables'
      roundsField.hidden = f.format.value !== 'swiss' && !tables
      minutesField.hidden = berserkField.hidden = f.format.value !== 'arena'
      maxTableField.hidden = !tables
      doubleField.hidden = f.format.value !== 'roundrobin'
      const want = tables ? tableGames : games
      if (want !== shownGames) {
        const was = f.game.value
        shownGames = want
        f.game.replaceChildren(...want.map((g) => h('option', {value: g, selected: g === was}, gameTitle(g))))
        showOptions()
      }
    }
    f.format.addEventListener('change', showFormat)
    f.game.addEventListener('change', showOptions)
    showOptions()
    showFormat()
    const err = h('div', {'aria-live': 'polite'}, createError ? problem(createError) : null)
    const submit = h('button', {type: 'submit', class: 'primary', 'data-test': 'tn-submit'}, t('tournament.createButton'))
    const form = h('form', {class: 'tn-form', 'data-test': 'tn-form', onsubmit: (ev) => {
      ev.preventDefault()
      const when = new Date(f.start.value)
      const req = {name: f.name.value.trim(), format: f.format.value, game: f.game.value, start: isNaN(when) ? f.start.value : when.toISOString(), rated: f.rated.checked}
      const clock = catalog.pairClock(f.clock.value)
      if (clock) req.clock = clock
      if (req.format === 'swiss' || req.format === 'tables') req.rounds = Number(f.rounds.value)
      const opts = {}
      for (const input of optionInputs) if (input.value !== input.option.default) opts[input.option.name] = String(input.value)
      if (req.format === 'tables') opts.players = String(f.maxTable.value)
      if (Object.keys(opts).length) req.options = opts
      if (req.format === 'roundrobin' && f.double.checked) req.double = true
      const minRated = Number(f.minRated.value)
      if (minRated > 0) req.minRatedGames = minRated
      if (req.format === 'arena') {
        req.minutes = Number(f.minutes.value)
        if (f.berserk.checked) req.berserk = true
      }
      if (f.bots.checked) req.bots = true
      if (f.password.value) req.password = f.password.value
      submit.disabled = true
      tournaments.create(req).then((res) => {
        createError = null
        location.hash = '#/tournament/' + encodeURIComponent(res.tournament.id)
      }, (e) => {
        submit.disabled = false
        createError = e
        clear(err)
        err.append(problem(e))
      })
    }},
    field(t('tournament.name'), f.name), field(t('lobby.game'), f.game), field(t('lobby.clock'), f.clock),
    field(t('tournament.start'), f.start), field(t('tournament.formatLabel'), f.format), roundsField, doubleField, minutesField, berserkField, maxTableField,
    options,
    h('label', {class: 'tn-check'}, f.rated, ' ', t('tournament.rated')),
    field(t('tournament.minRatedGames'), f.minRated),
    h('label', {class: 'tn-check'}, f.bots, ' ', t('tournament.botsAllowed')),
    field(t('tournament.passwordOptional'), f.password), h('div', {class: 'tn-actions'}, submit), err)
    panel.append(form)
    return panel
  }

  render()
  load()
  timer = setInterval(tick, 1000)
  poll = setInterval(load, REFRESH_MS)
  return {
    relang: render,
    destroy() {
      clearInterval(timer)
      clearInterval(poll)
    },
  }
}
