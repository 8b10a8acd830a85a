// Tournaments (#/tournaments): the upcoming ones with a countdown to their
// start, the running ones, the latest finished ones, and for a registered
// user a form to create one (only the fields POST /api/tournaments takes).

import {h, clear} from '../dom.js'
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
    main.append(h('h1', {}, t('tournament.title')), h('p', {class: 'muted'}, t('tournament.lead')), body, createPanel())
    show()
  }

  function show() {
    clear(body)
    if (failed) body.append(problem(failed))
    if (!lists) {
      if (!failed) body.append(h('p', {class: 'muted'}, t('tournament.loading')))
      return
    }
    for (const s of SECTIONS) {
      const items = lists[s]
      body.append(h('section', {class: 'panel tn-list', 'data-test': 'tn-' + s},
        h('h2', {}, t('tournament.status.' + s)),
        items.length ? h('ul', {class: 'tn-items'}, items.map((tr) => h('li', {'data-id': tr.id},
          h('a', {href: '#/tournament/' + encodeURIComponent(tr.id), class: 'tn-name', 'data-test': 'tn-link'}, tr.name),
          h('span', {class: 'muted tn-facts'}, facts(tr)),
          s === 'upcoming' ? h('span', {class: 'tn-countdown', 'data-start': tr.start}, t('tournament.startsIn', {time: countdown(Date.parse(tr.start))})) : null,
          s === 'finished' && tr.note ? h('span', {class: 'muted'}, tr.note) : null)))
          : h('p', {class: 'muted'}, t('tournament.none.' + s))))
    }
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
      format: h('select', {name: 'format', 'data-test': 'tn-format'}, ['swiss', 'roundrobin', 'arena'].map((x) => h('option', {value: x}, t('tournament.format.' + x)))),
      rounds: h('input', {name: 'rounds', type: 'number', min: 1, max: 20, value: 5, 'data-test': 'tn-rounds'}),
      rated: h('input', {name: 'rated', type: 'checkbox', checked: true, 'data-test': 'tn-rated'}),
      password: h('input', {name: 'password', type: 'text', maxlength: 100, autocomplete: 'off', 'data-test': 'tn-password'}),
      // an arena's: its length and berserk
      minutes: h('input', {name: 'minutes', type: 'number', min: 1, max: 720, value: 30, 'data-test': 'tn-minutes'}),
      berserk: h('input', {name: 'berserk', type: 'checkbox', checked: true, 'data-test': 'tn-berserk'}),
    }
    const roundsField = field(t('tournament.rounds'), f.rounds)
    const minutesField = field(t('arena.minutes'), f.minutes)
    const berserkField = h('label', {class: 'tn-check'}, f.berserk, ' ', t('arena.berserkAllowed'))
    const showFormat = () => {
      roundsField.hidden = f.format.value !== 'swiss'
      minutesField.hidden = berserkField.hidden = f.format.value !== 'arena'
    }
    f.format.addEventListener('change', showFormat)
    showFormat()
    const err = h('div', {'aria-live': 'polite'}, createError ? problem(createError) : null)
    const submit = h('button', {type: 'submit', class: 'primary', 'data-test': 'tn-submit'}, t('tournament.createButton'))
    const form = h('form', {class: 'tn-form', 'data-test': 'tn-form', onsubmit: (ev) => {
      ev.preventDefault()
      const when = new Date(f.start.value)
      const req = {name: f.name.value.trim(), format: f.format.value, game: f.game.value, start: isNaN(when) ? f.start.value : when.toISOString(), rated: f.rated.checked}
      const clock = catalog.pairClock(f.clock.value)
      if (clock) req.clock = clock
      if (req.format === 'swiss') req.rounds = Number(f.rounds.value)
      if (req.format === 'arena') {
        req.minutes = Number(f.minutes.value)
        if (f.berserk.checked) req.berserk = true
      }
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
    field(t('tournament.start'), f.start), field(t('tournament.formatLabel'), f.format), roundsField, minutesField, berserkField,
    h('label', {class: 'tn-check'}, f.rated, ' ', t('tournament.rated')),
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
