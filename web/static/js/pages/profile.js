// A player's profile (ratings and games) and the account page (sign in,
// register, which keeps a guest's games, sign out).

import {h, fmtTime} from '../dom.js'
import {t, lang} from '../i18n.js'
import {api, ApiError} from '../api.js'
import * as session from '../session.js'
import * as theme from '../theme.js'
import * as sound from '../sound.js'
import * as notify from '../notify.js'
import {errorBox, resultText, resultOf, gameTitle} from '../components/common.js'
import {playersLine, ratingChangeBadge, provisionalNote} from '../components/players.js'
import {ratingGraph} from '../components/ratinggraph.js'
import {userLink} from '../components/leaderboard.js'
import {challengeButton} from '../components/challengedialog.js'
import {followButton} from './inbox.js'
import {reportButton} from '../components/reportdialog.js'
import {botBadge} from '../components/botbadge.js'

/** getJSON calls the API (docs/api.md) for what api.js has no helper for yet: the body, null for 204, or ApiError. */
async function getJSON(path, method = 'GET') {
  const res = await fetch('/api' + path, {method, headers: {Accept: 'application/json'}, credentials: 'same-origin'})
  const data = res.status === 204 ? null : await res.json().catch(() => null)
  if (!res.ok) {
    const err = data && data.error
    throw new ApiError(res.status, (err && err.code) || 'http_' + res.status, (err && err.message) || res.statusText)
  }
  return data
}

/** opponents is "against alice, bob" in the page's language, each player's name leading to their profile (a server bot's has none). */
function opponents(names) {
  const [before, after] = t('profile.vs', {names: '\u0000'}).split('\u0000')
  const links = names.flatMap((n, i) => [i ? ', ' : null, n.startsWith('bot ') ? n : userLink(n)])
  return [before, ...links, after].filter((x) => x)
}

/** duration writes seconds played as minutes, or hours and minutes. */
function duration(sec) {
  const m = Math.round((sec || 0) / 60)
  if (m < 1) return t('profile.underMinute')
  if (m < 60) return t('profile.minutes', {m})
  return t('profile.hours', {h: Math.floor(m / 60), m: m % 60})
}

export function profilePage(main, [name]) {
  const head = h('h1', {}, name)
  const actions = h('div', {class: 'profile-actions'})
  const stats = h('div', {class: 'profile-stats', 'data-test': 'ratings'})
  const recent = h('div', {'data-test': 'profile-recent'})
  const list = h('div', {'data-test': 'profile-games'})
  main.append(head, actions)
  // The player first: a name nobody has is one "not found", not two sections.
  getJSON('/users/' + encodeURIComponent(name) + '/stats').then((res) => {
    // Game history (issue 24 item 7): the player's games with filters, export and import (pages/history.js).
    actions.prepend(h('a', {href: '#/history/' + encodeURIComponent(name), class: 'button', 'data-test': 'history-link'}, t('history.link')), ' ')
    main.append(h('section', {class: 'panel'}, h('h2', {}, t('profile.ratings')), stats),
      h('section', {class: 'panel'}, h('h2', {}, t('profile.recent')), recent),
      h('section', {class: 'panel'}, h('h2', {}, t('profile.games')), list))
    if (res.user.guest) head.append(' ', h('small', {class: 'muted'}, t('account.guest')))
    if (res.user.bot) head.append(botBadge(true)) // a bot account (pages/tokens.js)
    challengeButton(actions, res.user) // challenges (components/challengedialog.js)
    blockButton(res.user)
    followButton(actions, res.user) // follows (pages/inbox.js)
    // Report to the moderators (components/reportdialog.js).
    const report = reportButton(res.user)
    if (report) actions.append(report, ' ')
    showStats(res)
    showRecent(res.recent || [])
    return api.games({user: name, status: ['live', 'finished', 'open'], limit: 50}).then(showGames, (e) => list.append(errorBox(e)))
  }, (e) => main.append(errorBox(e)))

  // Block / Unblock: only a signed-in registered user, on another registered user's profile.
  async function blockButton(user) {
    const me = session.current()
    if (!me || me.guest || user.guest || me.name === user.name) return
    const note = h('span', {class: 'muted', 'aria-live': 'polite'})
    let blocked = false
    try {
      blocked = ((await getJSON('/blocks')).blocks || []).some((b) => b.user === user.name)
    } catch (e) {
      actions.append(errorBox(e))
      return
    }
    const btn = h('button', {type: 'button', 'data-test': 'block-toggle', onclick: async () => {
      btn.disabled = true
      try {
        await getJSON('/blocks/' + encodeURIComponent(user.name), blocked ? 'DELETE' : 'POST')
        blocked = !blocked
        show()
      } catch (e) {
        note.replaceChildren(errorBox(e))
      }
      btn.disabled = false
    }})
    const show = () => {
      btn.textContent = blocked ? t('profile.unblock') : t('profile.block')
      btn.setAttribute('aria-pressed', blocked ? 'true' : 'false')
      note.textContent = blocked ? t('profile.blockedNote', {name: user.name}) : t('profile.blockHint')
    }
    show()
    actions.append(btn, ' ', note)
  }

  function showStats(res) {
    const games = res.games || []
    if (!games.length) {
      stats.append(h('p', {}, t('profile.noRatings')), h('p', {class: 'muted profile-empty', 'data-test': 'profile-empty'}, t('profile.empty', {name})))
      return
    }
    const limit = Math.round(res.provisionalAbove || 110)
    // Over every game, when there is more than one: the same figures summed.
    const all = res.total
    if (games.length > 1 && all) {
      stats.append(h('p', {class: 'profile-total', 'data-test': 'profile-total'}, h('strong', {}, t('profile.games')), ': ', t('profile.wdl', {won: all.won, drawn: all.drawn, lost: all.lost}), ' · ',
        t('profile.winRate', {pct: Math.round(all.winRate * 100)}), ' · ', t('profile.time', {time: duration(all.playedSeconds)})))
    }
    for (const g of games) {
      const r = g.rating
      const card = h('section', {class: 'profile-game', 'data-test': 'profile-game-' + g.game}, h('h3', {}, gameTitle(g.game)))
      card.append(h('p', {'data-test': 'profile-record'}, t('profile.wdl', {won: g.won, drawn: g.drawn, lost: g.lost}), ' · ',
        t('profile.winRate', {pct: Math.round(g.winRate * 100)})))
      if (r) {
        card.append(h('p', {'data-test': 'profile-rating'}, h('strong', {}, t('profile.ratingNow', {rating: Math.round(r.rating)})), ' ',
          h('span', {class: 'muted'}, '±' + Math.round(r.deviation)), ' · ', t('profile.best', {best: Math.round(r.best)}),
          r.provisional ? ' ' : null, r.provisional ? h('span', {class: 'profile-badge'}, t('profile.provisional')) : null))
        if (r.provisional) {
          card.append(h('p', {class: 'muted profile-why', 'data-test': 'profile-provisional'},
            t('profile.provisionalWhy', {deviation: Math.round(r.deviation), limit})))
        }
      } else {
        card.append(h('p', {class: 'muted'}, t('profile.unrated')))
      }
      card.append(h('p', {'data-test': 'profile-streak'}, t('profile.streak', {current: g.currentStreak, best: g.bestStreak}), ' · ',
        t('profile.time', {time: duration(g.playedSeconds)})))
      if (r && r.history && r.history.length) card.append(ratingGraph(r.history))
      stats.append(card)
    }
  }

  function showRecent(games) {
    if (!games.length) {
      recent.append(h('p', {class: 'muted'}, t('profile.noRecent')))
      return
    }
    recent.append(h('ul', {class: 'games profile-recent'}, games.map((g) => {
      return h('li', {class: 'game-row', 'data-test': 'recent-game', 'data-outcome': g.outcome},
        h('strong', {}, gameTitle(g.game)), ' ',
        h('span', {class: 'profile-outcome outcome-' + g.outcome}, t('profile.' + g.outcome)), ' ',
        g.opponents && g.opponents.length ? h('span', {'data-test': 'opponents'}, opponents(g.opponents)) : null, ' ',
        ratingChangeBadge(g) || h('small', {class: 'muted'}, t('profile.unratedGame')), ' ',
        h('small', {}, fmtTime(g.finished, lang())), ' ',
        h('a', {href: '#/replay/' + g.id, class: 'button'}, t('game.replay')))
    })))
  }

  function showGames(res) {
    if (!res.games.length) {
      list.append(h('p', {class: 'muted'}, t('profile.noGames')))
      return
    }
    // The result as the reader sees it: "You won" only on the reader's own games.
    const reader = session.current()
    list.append(h('ul', {class: 'games'}, res.games.map((g) => {
      const mine = reader && g.seats.findIndex((se) => se.user === reader.name)
      const result = reader && reader.name === name ? resultText(g, mine) : resultOf(g, name)
      // two lines: the game and its players; when, how it ended and its link (on a phone one run of text
      // broke its date in two and put the button anywhere)
      return h('li', {class: 'game-row'}, h('div', {}, h('strong', {}, gameTitle(g.game)), ' ', playersLine(g)),
        h('div', {class: 'game-row-meta'}, h('small', {class: 'when'}, fmtTime(g.created, lang())),
          g.result ? h('span', {}, result) : h('span', {}, t('status.' + g.status)),
          h('a', {href: (g.status === 'finished' ? '#/replay/' : '#/game/') + g.id, class: 'button'}, g.status === 'finished' ? t('game.replay') : t('lobby.openGame'))))
    })))
    // The players' ratings beside their names: what a "?" means, in words.
    const note = provisionalNote(res.games.flatMap((g) => g.seats))
    if (note) list.append(note)
  }
}

export function accountPage(main) {
  const user = session.current()
  const msg = h('div', {'aria-live': 'polite'})
  main.append(h('h1', {}, t('account.title')), msg)
  if (user) {
    main.append(h('p', {}, t('account.signedInAs', {name: user.name}), user.guest ? ' (' + t('account.guest') + ')' : ''),
      h('p', {}, h('a', {href: '#/user/' + encodeURIComponent(user.name)}, t('nav.profile'))))
    // API tokens and becoming a bot account (pages/tokens.js).
    if (!user.guest) main.append(h('p', {}, h('a', {href: '#/tokens', 'data-test': 'tokens-link'}, t('tokens.title'))))
  }
  const form = (kind) => {
    const nameIn = h('input', {id: kind + '-name', autocomplete: 'username', required: true, minlength: 3, maxlength: 24})
    const passIn = h('input', {id: kind + '-pass', type: 'password', autocomplete: kind === 'login' ? 'current-password' : 'new-password', required: true, minlength: 8})
    return h('form', {class: 'panel', onsubmit: async (ev) => {
      ev.preventDefault()
      try {
        await (kind === 'login' ? session.login : session.register)(nameIn.value, passIn.value)
        location.hash = '#/'
      } catch (e) {
        msg.replaceChildren(errorBox(e))
      }
    }}, h('h2', {}, t('account.' + kind)),
    kind === 'register' && user && user.guest ? h('p', {class: 'muted'}, t('account.keepGames')) : null,
    h('div', {class: 'field'}, h('label', {for: kind + '-name'}, t('account.name')), nameIn),
    h('div', {class: 'field'}, h('label', {for: kind + '-pass'}, t('account.password')), passIn),
    h('button', {type: 'submit', class: 'primary'}, t('account.' + kind)))
  }
  if (!user || user.guest) main.append(h('div', {class: 'lobby-cols'}, form('register'), form('login')))
  main.append(settings(user))
  if (user) {
    main.append(h('button', {type: 'button', onclick: async () => {
      await session.logout()
      location.hash = '#/'
    }}, t('account.logout')))
  } else {
    main.append(h('p', {}, h('button', {type: 'button', onclick: async () => {
      try {
        await session.ensure()
        location.hash = '#/'
      } catch (e) {
        msg.replaceChildren(errorBox(e))
      }
    }}, t('account.playAsGuest'))))
  }
}

/** settings: colours, sounds and notifications, kept in this browser. */
function settings(user) {
  const box = h('section', {class: 'panel settings', 'aria-labelledby': 'settings-h'})
  const toggle = (test, on, label, flip) => h('button', {type: 'button', 'data-test': test, 'aria-pressed': on ? 'true' : 'false',
    onclick: async () => {
      await flip(!on)
      box.replaceWith(settings(user))
    }}, label)
  const scheme = h('select', {id: 'scheme', 'data-test': 'scheme-select', onchange: (ev) => theme.setScheme(ev.target.value)},
    theme.schemes.map((v) => h('option', {value: v, selected: v === theme.scheme()}, t('theme.' + v))))
  const notes = !notify.supported() ? h('p', {class: 'muted'}, t('settings.noNotify')) :
    !user ? h('p', {class: 'muted'}, t('settings.notifySignIn')) :
      h('div', {class: 'field inline'}, toggle('notify-toggle', notify.enabled(), notify.enabled() ? t('settings.on') : t('settings.off'),
        (v) => (v ? notify.enable() : notify.disable())), h('span', {}, t('settings.notify')))
  box.append(h('h2', {id: 'settings-h'}, t('settings.title')),
    h('div', {class: 'field inline'}, h('label', {for: 'scheme'}, t('theme.label')), scheme),
    h('div', {class: 'field inline'}, toggle('sound-toggle', sound.on(), sound.on() ? t('settings.on') : t('settings.off'), (v) => sound.setOn(v)),
      h('span', {}, t('settings.sound'))),
    notes)
  return box
}
