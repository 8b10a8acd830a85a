// The challenge dialog of a player's profile and of the players page
// (docs/api.md, "Challenges"):
// the game, its options, the clock, your seat, rated or not — and for
// Skyjo up to six more players and computer players (server bots of a
// level) in the seats left — sent as POST /api/challenges. The dialog
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

/**
 * challengeLink is the Challenge button of one player in a list (pages/players.js: the search's results and who is
 * online), or null where the server would refuse it: signed out, a guest (challenging needs an account), or yourself.
 * The button names its player (data-challenge) and carries no listener: the list's own (challengeClicks) opens the
 * dialog, so a list renewed in place (dom.renewTree) keeps the button and does what it says.
 */
export function challengeLink(name) {
  const me = session.current()
  if (!me || me.guest || me.name.toLowerCase() === name.toLowerCase()) return null
  return h('button', {type: 'button', class: 'link players-challenge', 'data-test': 'players-challenge', 'data-challenge': name,
    'aria-label': t('challenge.title', {name})}, t('challenge.button'))
}

/** challengeClicks makes a click on a challengeLink in box open the dialog for its player. */
export function challengeClicks(box) {
  box.addEventListener('click', (ev) => {
    const b = ev.target.closest('button[data-challenge]')
    if (b && box.contains(b)) openChallenge(b.dataset.challenge)
  })
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
  // Computer players (a game of more than two seats): server bots of one level take the seats left.
  const botCount = h('select', {'data-test': 'challenge-bots'})
  const botLevel = h('select', {'data-test': 'challenge-bot-level'},
    catalog.bots().map((l) => h('option', {value: l, selected: l === catalog.defaultBot()}, t('bot.' + l))))
  const botsField = h('div', {class: 'challenge-bots'},
    h('label', {class: 'report-field'}, h('span', {}, t('challenge.bots')), botCount),
    h('label', {class: 'report-field'}, h('span', {}, t('challenge.botLevel')), botLevel))
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
    botsField.hidden = !multi
    drawSeats()
  }
  function players() {
    const extra = moreField.hidden ? [] : more.value.split(/[\s,]+/).filter((x) => x).slice(0, MAX_MORE)
    return [name, ...extra]
  }
  function bots() {
    return botsField.hidden ? 0 : Number(botCount.value || 0)
  }
  // drawBots offers as many computer players as the seats left allow (none: the field hides its level).
  function drawBots() {
    const g = catalog.game(gameSel.value)
    const room = g ? g.seats.max - 1 - players().length : 0
    const keep = Math.min(bots(), Math.max(room, 0))
    clear(botCount)
    for (let i = 0; i <= Math.max(room, 0); i++) botCount.append(h('option', {value: String(i), selected: i === keep}, String(i)))
    botLevel.disabled = keep === 0
    // A game with bots is never rated (the server refuses it): the box says so by being off.
    rated.disabled = keep > 0
    if (keep > 0) rated.checked = false
  }
  function drawSeats() {
    drawBots()
    const n = players().length + 1 + bots()
    const keep = seatSel.value
    clear(seatSel)
    seatSel.append(h('option', {value: '-1'}, t('challenge.seatRandom')))
    for (let i = 0; i < n; i++) seatSel.append(h('option', {value: String(i)}, t('challenge.seatN', {n: i + 1})))
    if ([...seatSel.options].some((o) => o.value === keep)) seatSel.value = keep
  }
  gameSel.addEventListener('change', drawGame)
  more.addEventListener('input', drawSeats)
  botCount.addEventListener('change', drawSeats)

  const form = h('form', {method: 'dialog', class: 'report-form', onsubmit: async (ev) => {
    ev.preventDefault()
    err.hidden = true
    submit.disabled = true
    const body = {game: gameSel.value, players: players(), seat: Number(seatSel.value), rated: rated.checked, options: {}}
    for (const el of optionsBox.querySelectorAll('[name]')) body.options[el.name] = String(el.value)
    const clock = clocks.find(([k]) => k === clockSel.value)[1]
    if (clock.kind !== 'none') body.clock = clock
    if (bots() > 0) {
      body.bot = botLevel.value
      body.options.players = String(players().length + 1 + bots())
    }
    // A bot may answer before the POST does: the news heard meanwhile is kept for waiting() to read.
    const early = []
    const stopEarly = onChallengeNews((msg) => early.push(msg))
    try {
      const c = await send('POST', '/challenges', body)
      stopEarly()
      waiting(c, early)
    } catch (e) {
      stopEarly()
      // A quota here is the challenges waiting (or the open games): the general text speaks of games going.
      err.textContent = e.code === 'quota' ? t('challenge.quota') : errorText(e)
      err.hidden = false
      submit.disabled = false
    }
  }},
  h('label', {class: 'report-field'}, h('span', {}, t('challenge.game')), gameSel),
  optionsBox,
  moreField,
  botsField,
  h('label', {class: 'report-field'}, h('span', {}, t('challenge.clock')), clockSel),
  h('label', {class: 'report-field'}, h('span', {}, t('challenge.seat')), seatSel),
  h('label', {class: 'challenge-check'}, rated, ' ', t('challenge.ratedLabel')),
  h('p', {class: 'muted report-note'}, t('challenge.note')),
  err,
  h('p', {class: 'report-buttons'}, cancel, ' ', submit))

  let stop = null
  // waiting replaces the form by the challenge sent, until its answer (which may be among early, heard already).
  function waiting(c, early) {
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
    const hear = (msg) => {
      if (msg.challenge.id !== c.id) return
      clearInterval(timer)
      withdraw.hidden = true
      when.hidden = true
      if (msg.news === 'accepted') dlg.close() // the banner opens the game
      else if (msg.news === 'declined') status.textContent = t('challenge.declinedBy', {name: msg.by, reason: t('challenge.reason.' + msg.reason)})
      else status.textContent = t('challenge.' + msg.news)
    }
    stop = onChallengeNews(hear)
    early.forEach(hear)
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
