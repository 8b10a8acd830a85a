// Lobby: quick pairing (a game and a time control: play whoever waits for
// the same, or wait), the players online, create a game with any options
// of /api/catalog and any seats (open, invited, bots), join open games,
// watch live ones; ratings beside the players' names.

import {h, clear, renewTree, fmtTime} from '../dom.js'
import {t, lang} from '../i18n.js'
import {api} from '../api.js'
import * as session from '../session.js'
import * as catalog from '../catalog.js'
import {errorBox, gameTitle} from '../components/common.js'
import {playersLine, clockText, provisionalNote} from '../components/players.js'
import {Seeker, statusBox, onlineCount, pairClockShort, pairClockLong} from '../components/pairing.js'
import {quickGame, savedLevel, levelLabel} from '../components/quickgame.js'

export function lobbyPage(main, _params, query) {
  let timer = null
  let lists = {open: null, live: null}
  const formBox = h('section', {class: 'panel create', 'aria-labelledby': 'create-h'})
  const pairBox = h('section', {class: 'panel pair', 'aria-labelledby': 'pair-h', 'data-test': 'pairing'})
  const openList = h('div', {'data-test': 'open-games'})
  const liveList = h('div', {'data-test': 'live-games'})
  // What a "1500?" means, in words once below both lists (a tooltip is not seen on a phone).
  const ratingNote = h('div', {'data-test': 'lobby-rating-note'})
  const listBox = h('section', {class: 'panel lists'})
  const msg = h('div', {'aria-live': 'polite'})
  const online = onlineCount()
  const seeker = new Seeker({onChange: (st) => {
    renderPairing()
    // one's own waiting game shows in the list at once (and leaves it when cancelled)
    if (st.phase === 'waiting' || (st.phase === 'idle' && st.game)) refresh()
  }, playBot: (game, clock) => quickGame(game, savedLevel(), catalog.pairClock(clock))})
  const title = h('h1', {})
  main.append(h('div', {class: 'page-head'}, title, online.node), msg,
    h('div', {class: 'lobby-grid'}, pairBox, listBox, formBox))

  function renderStatic() {
    title.textContent = t('lobby.title')
    listBox.replaceChildren(h('h2', {}, t('lobby.open')), openList, h('h2', {}, t('lobby.live')), liveList, ratingNote)
  }

  /**
   * renderPairing: a button per game and time control, or, while a search
   * runs, what it is doing (with Cancel and "Play a bot instead").
   */
  function renderPairing() {
    pairBox.replaceChildren(h('h2', {id: 'pair-h'}, t('pair.title')))
    if (!seeker.busy()) {
      pairBox.append(h('p', {class: 'note'}, t('pair.lead')),
        h('div', {class: 'pair-grid'}, catalog.gameNames().map((g) => h('div', {class: 'pair-row', role: 'group', 'aria-label': gameTitle(g)},
          h('span', {class: 'pair-game'}, gameTitle(g)),
          catalog.pairClocks().map(({name: c}) => {
            // the name holds the button's own words ("5+3"), then the long ones
            const short = pairClockShort(c)
            const long = pairClockLong(c)
            const label = t('pair.ask', {game: gameTitle(g), clock: short.toLowerCase() === long.toLowerCase() ? short : `${short} (${long})`})
            return h('button', {type: 'button', class: 'pair-btn', 'data-test': `pair-${g}-${c}`, title: label, 'aria-label': label,
              onclick: () => seeker.ask(g, c)}, pairClockShort(c))
          })))))
    }
    const box = statusBox(seeker)
    if (box) pairBox.append(box)
  }
  const state = {game: catalog.gameNames().includes(query.get('game')) ? query.get('game') : catalog.gameNames()[0]}
  renderStatic()
  renderPairing()

  /**
   * optionField is one option of the game: its name and values in words
   * (keyed by game and option id, the catalog's id where a word is
   * missing), and the rule it changes as a tooltip and behind a ⓘ button.
   */
  function optionField(o, values) {
    const id = 'opt-' + o.name
    const key = `opt.${state.game}.${o.name}`
    const word = (k, fallback) => (t(k) === k ? fallback : t(k))
    const rule = word(key, o.doc)
    let input
    if (o.values && o.values.length) {
      input = h('select', {id, name: o.name, title: rule},
        o.values.map((v) => h('option', {value: v, selected: v === (values[o.name] ?? o.default)}, word(`${key}.v.${v}`, v))))
    } else {
      input = h('input', {id, name: o.name, type: 'number', min: o.min, max: o.max, value: values[o.name] ?? o.default, required: true, title: rule})
    }
    input.addEventListener('change', () => {
      const changed = values[o.name] !== input.value
      values[o.name] = input.value
      if (o.name === 'players' && changed) queueMicrotask(renderForm)
    })
    const ruleText = h('small', {id: id + '-rule', class: 'rule', 'data-test': 'rule-' + o.name, hidden: true}, rule)
    input.setAttribute('aria-describedby', ruleText.id)
    const info = h('button', {type: 'button', class: 'info', title: rule, 'aria-label': t('lobby.ruleOf', {option: word(key + '.name', o.name)}),
      'aria-expanded': 'false', 'aria-controls': ruleText.id, 'data-test': 'info-' + o.name, onclick: () => {
        ruleText.hidden = !ruleText.hidden
        info.setAttribute('aria-expanded', ruleText.hidden ? 'false' : 'true')
      }}, 'ⓘ')
    return h('div', {class: 'field', 'data-option': o.name},
      h('span', {class: 'option-head'}, h('label', {for: id, title: rule}, word(key + '.name', o.name),
        o.house ? h('span', {class: 'house'}, ' ' + t('lobby.house')) : null), info),
      input, ruleText)
  }

  const values = {}
  let seatKinds = []

  function seatCount(g) {
    if (g.seats.max > g.seats.min) return Number(values.players ?? g.options.find((o) => o.name === 'players')?.default ?? g.seats.default)
    return g.seats.default
  }

  // renderForm rebuilds the form; removing a focused field fires its change
  // event, so a rebuild never starts while another is running.
  let rendering = false
  function renderForm() {
    if (rendering) return
    rendering = true
    try {
      buildForm()
    } finally {
      rendering = false
    }
  }

  function buildForm() {
    clear(formBox)
    const g = catalog.game(state.game)
    const n = seatCount(g)
    while (seatKinds.length < n) seatKinds.push(seatKinds.length === 0 ? {kind: 'me'} : {kind: 'open'})
    seatKinds = seatKinds.slice(0, n)
    const gameSel = h('select', {id: 'create-game', 'data-test': 'create-game', onchange: (ev) => {
      state.game = ev.target.value
      for (const k of Object.keys(values)) delete values[k]
      seatKinds = []
      renderForm()
    }}, catalog.gameNames().map((x) => h('option', {value: x, selected: x === state.game}, gameTitle(x))))
    const seatRows = seatKinds.map((sk, i) => {
      const kind = h('select', {'aria-label': t('lobby.seatN', {n: i + 1}), 'data-test': 'seat-kind-' + i, onchange: (ev) => {
        sk.kind = ev.target.value
        if (sk.kind === 'me') seatKinds.forEach((o, j) => { if (j !== i && o.kind === 'me') o.kind = 'open' })
        renderForm()
      }}, ['me', 'open', 'bot', 'invite'].map((k) => h('option', {value: k, selected: k === sk.kind}, t('lobby.kind.' + k))))
      const extra = sk.kind === 'bot' ?
        h('select', {'aria-label': t('lobby.botLevel'), 'data-test': 'seat-level-' + i, onchange: (ev) => { sk.level = ev.target.value }},
          catalog.bots().map((b) => h('option', {value: b, selected: b === (sk.level || catalog.defaultBot())}, levelLabel(b, state.game)))) :
        sk.kind === 'invite' ? h('input', {type: 'text', 'aria-label': t('lobby.inviteUser'), value: sk.user || '',
          placeholder: t('lobby.inviteUser'), oninput: (ev) => { sk.user = ev.target.value }}) : null
      return h('div', {class: 'seat-row'}, h('span', {}, t('lobby.seatN', {n: i + 1})), kind, extra)
    })
    const clock = h('select', {id: 'clock', 'data-test': 'clock'},
      catalog.pairClocks().map(({name}) => h('option', {value: name}, pairClockLong(name))))
    const rated = h('input', {type: 'checkbox', id: 'rated'})
    const err = h('div', {'aria-live': 'polite'})
    const form = h('form', {onsubmit: async (ev) => {
      ev.preventDefault()
      clear(err)
      const req = {game: state.game, options: {}, seats: seatKinds.map((sk) => {
        if (sk.kind === 'bot') return {kind: 'bot', level: sk.level || catalog.defaultBot()}
        if (sk.kind === 'invite') return {kind: 'invite', user: sk.user || ''}
        return {kind: sk.kind}
      }), rated: rated.checked}
      for (const o of g.options) {
        const v = values[o.name]
        if (v !== undefined && v !== o.default) req.options[o.name] = String(v)
      }
      const spec = catalog.pairClock(clock.value)
      if (spec) req.clock = spec
      try {
        await session.ensure()
        const res = await api.createGame(req)
        location.hash = '#/game/' + res.game.id
      } catch (e) {
        err.replaceChildren(errorBox(e))
      }
    }},
    h('div', {class: 'field'}, h('label', {for: 'create-game'}, t('lobby.game')), gameSel),
    h('fieldset', {}, h('legend', {}, t('lobby.options')), g.options.map((o) => optionField(o, values))),
    h('fieldset', {}, h('legend', {}, t('lobby.seats')), seatRows),
    h('div', {class: 'field'}, h('label', {for: 'clock'}, t('lobby.clock')), clock),
    h('div', {class: 'field inline'}, rated, h('label', {for: 'rated'}, t('lobby.rated'))),
    err,
    h('button', {type: 'submit', class: 'primary', 'data-test': 'create'}, t('lobby.create')))
    formBox.append(h('h2', {id: 'create-h'}, t('lobby.create')), form)
  }

  function row(sum, action) {
    const clock = clockText(sum.clock)
    return h('li', {class: 'game-row lobby-row', 'data-id': sum.id, 'data-key': sum.id},
      h('div', {class: 'row-main'},
        h('div', {class: 'row-title'}, h('strong', {}, gameTitle(sum.game)),
          clock ? h('span', {class: 'tag', title: t('lobby.clock')}, clock) : null,
          sum.rated ? h('span', {class: 'tag rated'}, t('lobby.ratedTag')) : null,
          sum.start ? h('span', {class: 'tag', title: t('lobby.startNote'), 'data-test': 'start-tag'},
            t(sum.start.from === 'record' ? 'lobby.fromRecord' : 'lobby.fromPosition')) : null,
          sum.start?.keepDeal ? h('span', {class: 'tag warn', title: t('lobby.keptDealTitle'), 'data-test': 'kept-deal'}, t('lobby.keptDeal')) : null,
          h('small', {class: 'muted'}, fmtTime(sum.created, lang()))),
        playersLine(sum)),
      action)
  }

  /**
   * showLists draws the open and live games. Every 5 s, mostly the same
   * games: the lists are renewed, not redrawn (dom.renewTree, each row
   * matched by its game), so a Join, Open or Watch pressed as the lists
   * come again is released on the same element, and does its work. The
   * rows carry no listeners: Join's is the open list's own, below.
   */
  function showLists() {
    const {open, live} = lists
    if (!open) return
    const me = session.current()
    const openFresh = h('div', {})
    if (!open.games.length) openFresh.append(h('p', {class: 'muted'}, t('lobby.noneOpen')))
    openFresh.append(h('ul', {class: 'games'}, open.games.map((g) => {
      const mine = me && g.seats.some((se) => se.user === me.name)
      const act = mine ? h('a', {href: '#/game/' + g.id, class: 'button'}, t('lobby.openGame')) :
        h('button', {type: 'button', 'data-test': 'join-' + g.id, 'data-join': g.id, 'data-keep-deal': g.start?.keepDeal ? 'true' : null}, t('lobby.join'))
      return row(g, act)
    })))
    renewTree(openList, openFresh)
    const liveFresh = h('div', {})
    if (!live.games.length) liveFresh.append(h('p', {class: 'muted'}, t('lobby.noneLive')))
    liveFresh.append(h('ul', {class: 'games'}, live.games.map((g) => row(g, h('a', {href: '#/game/' + g.id, class: 'button'}, t('lobby.watch'))))))
    renewTree(liveList, liveFresh)
    renewTree(ratingNote, h('div', {}, provisionalNote([...open.games, ...live.games].flatMap((g) => g.seats))))
  }

  // Join (an open game's button, its game in data-join): a kept deal, whose
  // creator may know the hidden cards (data-keep-deal), is joined only on consent.
  openList.addEventListener('click', async (ev) => {
    const b = ev.target.closest('button[data-join]')
    if (!b || !openList.contains(b)) return
    const id = b.dataset.join
    const accept = b.hasAttribute('data-keep-deal')
    if (accept && !confirm(t('lobby.keptDealConfirm'))) return
    try {
      await session.ensure()
      await api.join(id, undefined, accept)
      location.hash = '#/game/' + id
    } catch (e) {
      msg.replaceChildren(errorBox(e))
    }
  })

  // The lists every 5 s while the page is seen (two requests, three signed in), at once when it is seen again.
  let last = 0
  async function refresh() {
    if (document.hidden) return
    last = Date.now()
    try {
      // The public list leaves out games for invited players only: one's
      // own (made, or inviting one) come from one's own list.
      const me = session.current()
      const [open, live, mine] = await Promise.all([api.games({status: 'open', limit: 50}), api.games({status: 'live', limit: 50}),
        me ? api.games({status: 'open', user: me.name, limit: 50}) : {games: []}])
      const ids = new Set(open.games.map((g) => g.id))
      const games = [...open.games, ...mine.games.filter((g) => !ids.has(g.id))]
      games.sort((a, b) => Date.parse(b.created) - Date.parse(a.created)) // newest first, as the lists
      lists = {open: {games}, live}
      showLists()
    } catch (e) {
      msg.replaceChildren(errorBox(e))
    }
  }
  const onVisible = () => {
    if (!document.hidden && Date.now() - last >= 5000) refresh()
  }
  document.addEventListener('visibilitychange', onVisible)

  renderForm()
  refresh()
  timer = setInterval(refresh, 5000)
  return {
    relang() {
      renderStatic()
      renderPairing()
      showLists()
      online.relang()
      renderForm()
    },
    destroy() {
      clearInterval(timer)
      document.removeEventListener('visibilitychange', onVisible)
      online.destroy()
      seeker.destroy()
    },
  }
}
