// A player's profile (ratings and games) and the account page (sign in,
// register, which keeps a guest's games, sign out).

import {h, fmtTime} from '../dom.js'
import {t, lang} from '../i18n.js'
import {api} from '../api.js'
import * as session from '../session.js'
import * as theme from '../theme.js'
import * as sound from '../sound.js'
import * as notify from '../notify.js'
import {errorBox, resultText, resultOf, gameTitle} from '../components/common.js'
import {playersLine} from '../components/players.js'

export function profilePage(main, [name]) {
  const head = h('h1', {}, name)
  const ratings = h('div', {'data-test': 'ratings'})
  const list = h('div', {})
  main.append(head)
  // The player first: a name nobody has is one "not found", not two sections.
  api.user(name).then((res) => {
    main.append(h('section', {class: 'panel'}, h('h2', {}, t('profile.ratings')), ratings),
      h('section', {class: 'panel'}, h('h2', {}, t('profile.games')), list))
    if (res.user.guest) head.append(' ', h('small', {class: 'muted'}, t('account.guest')))
    showRatings(res.ratings)
    return api.games({user: name, status: ['live', 'finished', 'open'], limit: 50}).then(showGames, (e) => list.append(errorBox(e)))
  }, (e) => main.append(errorBox(e)))

  function showRatings(rs) {
    if (!rs || !rs.length) {
      ratings.append(h('p', {class: 'muted'}, t('profile.noRatings')))
      return
    }
    ratings.append(h('table', {class: 'ratings'},
      h('thead', {}, h('tr', {}, h('th', {}, t('profile.game')), h('th', {}, t('profile.rating')), h('th', {}, t('profile.deviation')), h('th', {}, t('profile.played')))),
      h('tbody', {}, rs.map((r) => h('tr', {}, h('td', {}, gameTitle(r.game)), h('td', {}, Math.round(r.rating)),
        h('td', {}, '±' + Math.round(r.deviation)), h('td', {}, r.games))))))
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
      return h('li', {class: 'game-row'}, h('strong', {}, gameTitle(g.game)), ' ', playersLine(g), ' ',
        h('small', {}, fmtTime(g.created, lang())), ' ', g.result ? h('span', {}, result) : h('span', {}, t('status.' + g.status)), ' ',
        h('a', {href: (g.status === 'finished' ? '#/replay/' : '#/game/') + g.id, class: 'button'}, g.status === 'finished' ? t('game.replay') : t('lobby.openGame')))
    })))
  }
}

export function accountPage(main) {
  const user = session.current()
  const msg = h('div', {'aria-live': 'polite'})
  main.append(h('h1', {}, t('account.title')), msg)
  if (user) {
    main.append(h('p', {}, t('account.signedInAs', {name: user.name}), user.guest ? ' (' + t('account.guest') + ')' : ''),
      h('p', {}, h('a', {href: '#/user/' + encodeURIComponent(user.name)}, t('nav.profile'))))
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
