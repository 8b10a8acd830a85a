// The challenge dialog of a player's profile (docs/api.md, "Challenges"):
// the game, its options, the clock, your seat, rated or not — and for
// Skyjo up to six more players — sent as POST /api/challenges. The dialog
// then waits for the answer (the user channel's news, through
// challengebanner.js) and says it: accepted opens the game, declined
// shows the reason, and it says when the challenge expires.

import {h, clear} from '../dom.js'
import {t} from '../i18n.js'
import * as session from '../session.js'
import * as catalog from '../catalog.js'
import {errorText} from './common.js'
import {send, onChallengeNews, clockText, expiresText} from './challengebanner.js'

const MAX_MORE = 6 // Skyjo: the challenged player and up to six more

/** challengeButton adds the Challenge button to a profile's actions: signed in, registered, on another player's profile. */
export function challengeButton(actions, user) {
  const me = session.current()
  if (!me || me.guest || user.guest || me.name === user.name) return
  actions.append(h('button', {type: 'button', class: 'primary', 'data-test': 'challenge-user',
    onclick: () => openChallenge(user.name)}, t('challenge.button')), ' ')
}

function clockChoices() {
  const out = [['none', {kind: 'none'}, t('challenge.noClock')]]
  for (const c of catalog.pairClocks()) {
    if (c.clock.kind === 'realtime') out.push([c.name, c.clock, clockText(c.clock)])
  }
  for (const days of [1, 3]) {
    const clock = {kind: 'correspondence', days}
    out.push(['corr' + days, clock, clockText(clock)])
  }
  return out
}

/** openChallenge shows the dialog for challenging name. */
export function openChallenge(name) {
  const games = catalog.gameNames()
  const gameSel = h('select', {'data-test': 'challenge-game'}, games.map((g) => h('option', {value: g}, t('game.' + g + '.title'))))
  const optionsBox = h('div', {class: 'challenge-options'})
  const more = h('input', {type: 'text', 'data-test': 'challenge-more', autocomplete: 'off', placeholder: t('challenge.moreHint')})
  const moreField = h('label', {class: 'report-field'}, h('span', {}, t('challenge.more')), more)
  const clocks = clockChoices()
  const clockSel = h('select', {'data-test': 'challenge-clock'}, clocks.map(([k, , label]) => h('option', {value: k}, label)))
  const seatSel = h('select', {'data-test': 'challenge-seat'})
  const rated = h('input', {type: 'checkbox', 'data-test': 'challenge-rated'})
  const err = h('p', {class: 'error', role: 'alert', 'data-test': 'challenge-error', hidden: true})
  const submit = h('button', {type: 'submit', class: 'primary', 'data-test': 'challenge-send'}, t('challenge.send'))
  const cancel = h('button', {type: 'button', onclick: () => dlg.close()}, t('challenge.close'))

  function drawGame() {
    clear(optionsBox)
    const g = catalog.game(gameSel.value)
    for (const o of (g && g.options) || []) {
      if (o.name === 'players' || o.house) continue
      // The options' words are the glossary's (lang files: opt.GAME.OPTION.name, .v.VALUE).
      const word = (k, fallback) => (t(k) === k ? fallback : t(k))
      const key = `opt.${g.name}.${o.name}`
      const input = o.values
        ? h('select', {name: o.name}, o.values.map((v) => h('option', {value: v, selected: v === o.default}, word(`${key}.v.${v}`, v))))
        : h('input', {name: o.name, type: 'number', min: o.min, max: o.max, value: o.default})
      optionsBox.append(h('label', {class: 'report-field'}, h('span', {}, word(key + '.name', o.name)), input))
    }
    const multi = g && g.seats.max > 2
    moreField.hidden = !multi
    drawSeats()
  }
  function players() {
    const extra = moreField.hidden ? [] : more.value.split(/[\s,]+/).filter((x) => x).slice(0, MAX_MORE)
    return [name, ...extra]
  }
  function drawSeats() {
    const n = players().length + 1
    const keep = seatSel.value
    clear(seatSel)
    seatSel.append(h('option', {value: '-1'}, t('challenge.seatRandom')))
    for (let i = 0; i < n; i++) seatSel.append(h('option', {value: String(i)}, t('challenge.seatN', {n: i + 1})))
    if ([...seatSel.options].some((o) => o.value === keep)) seatSel.value = keep
  }
  gameSel.addEventListener('change', drawGame)
  more.addEventListener('input', drawSeats)

  const form = h('form', {method: 'dialog', class: 'report-form', onsubmit: async (ev) => {
    ev.preventDefault()
    err.hidden = true
    submit.disabled = true
    const body = {game: gameSel.value, players: players(), seat: Number(seatSel.value), rated: rated.checked, options: {}}
    for (const el of optionsBox.querySelectorAll('[name]')) body.options[el.name] = String(el.value)
    const clock = clocks.find(([k]) => k === clockSel.value)[1]
    if (clock.kind !== 'none') body.clock = clock
    try {
      const c = await send('POST', '/challenges', body)
      waiting(c)
    } catch (e) {
      err.textContent = errorText(e)
      err.hidden = false
      submit.disabled = false
    }
  }},
  h('label', {class: 'report-field'}, h('span', {}, t('challenge.game')), gameSel),
  optionsBox,
  moreField,
  h('label', {class: 'report-field'}, h('span', {}, t('challenge.clock')), clockSel),
  h('label', {class: 'report-field'}, h('span', {}, t('challenge.seat')), seatSel),
  h('label', {class: 'challenge-check'}, rated, ' ', t('challenge.ratedLabel')),
  h('p', {class: 'muted report-note'}, t('challenge.note')),
  err,
  h('p', {class: 'report-buttons'}, cancel, ' ', submit))

  let stop = null
  // waiting replaces the form by the challenge sent, until its answer.
  function waiting(c) {
    const status = h('p', {'data-test': 'challenge-status', role: 'status'}, t('challenge.waiting', {names: c.to.join(', ')}))
    const when = h('p', {class: 'muted', 'data-test': 'challenge-expires'}, expiresText(c.expires))
    const withdraw = h('button', {type: 'button', 'data-test': 'challenge-cancel', onclick: async () => {
      withdraw.disabled = true
      try {
        await send('POST', `/challenges/${encodeURIComponent(c.id)}/cancel`)
      } catch (e) {
        status.textContent = errorText(e)
      }
    }}, t('challenge.cancel'))
    const close = h('button', {type: 'button', onclick: () => dlg.close()}, t('challenge.close'))
    const timer = setInterval(() => { when.textContent = expiresText(c.expires) }, 15000)
    form.replaceWith(h('div', {class: 'challenge-waiting', 'data-test': 'challenge-waiting'},
      h('p', {class: 'challenge-what'}, t('game.' + c.game.game + '.title') + ' · ' + clockText(c.game.clock) + ' · ' +
        (c.game.rated ? t('challenge.rated') : t('challenge.casual'))),
      status, when, h('p', {class: 'report-buttons'}, withdraw, ' ', close)))
    stop = onChallengeNews((msg) => {
      if (msg.challenge.id !== c.id) return
      clearInterval(timer)
      withdraw.hidden = true
      when.hidden = true
      if (msg.news === 'accepted') dlg.close() // the banner opens the game
      else if (msg.news === 'declined') status.textContent = t('challenge.declinedBy', {name: msg.by, reason: t('challenge.reason.' + msg.reason)})
      else status.textContent = t('challenge.' + msg.news)
    })
    dlg.addEventListener('close', () => clearInterval(timer))
  }

  const dlg = h('dialog', {class: 'report-dialog challenge-dialog', 'data-test': 'challenge-dialog', 'aria-labelledby': 'challenge-title'},
    h('h2', {id: 'challenge-title'}, t('challenge.title', {name})), form)
  dlg.addEventListener('close', () => {
    if (stop) stop()
    dlg.remove()
  })
  drawGame()
  document.body.append(dlg)
  dlg.showModal()
  gameSel.focus()
}
