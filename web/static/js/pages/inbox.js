// #/inbox: the signed-in user's inbox — invitations, their turn in
// correspondence games, offers in their games, notices — newest first,
// read or not (kept on the server: the same in every tab and device), and
// the players they follow, online or not, with a link to watch each live
// game. The page follows the bell's notices: what changes elsewhere shows
// here without a reload. followButton is the profile's Follow/Unfollow.

import {h, renewTree, fmtTime} from '../dom.js'
import {t, lang} from '../i18n.js'
import * as session from '../session.js'
import {errorBox, gameTitle} from '../components/common.js'
import {userLink} from '../components/leaderboard.js'
import {social, onNotice, setUnread} from '../components/inboxbell.js'

const PAGE = 50

/** itemText is what an inbox item says, in the page's language. */
function itemText(it) {
  const game = gameTitle(it.game || '')
  switch (it.kind) {
    case 'invitation': return t('inbox.invitation', {from: it.from, game})
    case 'challenge': return t('inbox.challenge', {from: it.from, game})
    case 'turn': return it.from ? t('inbox.turn', {from: it.from, game}) : t('inbox.turnAlone', {game})
    case 'offer': return t(it.offer === 'takeback' ? 'inbox.offerTakeback' : 'inbox.offerDraw', {from: it.from, game})
    case 'notice': return it.topic === 'tournament' ? t('inbox.tournamentStarted', {name: it.title}) : it.title || ''
    default: return it.title || ''
  }
}

export function inboxPage(main) {
  const me = session.current()
  main.append(h('h1', {}, t('inbox.title')))
  if (!me) {
    main.append(h('p', {}, t('inbox.signIn'), ' ', h('a', {href: '#/account'}, t('nav.signIn'))))
    return null
  }
  const list = h('ul', {class: 'inbox-list', 'data-test': 'inbox-list'})
  const status = h('p', {class: 'muted', 'aria-live': 'polite', 'data-test': 'inbox-status'})
  const more = h('button', {type: 'button', hidden: true, 'data-test': 'inbox-more', onclick: () => load(shown)}, t('inbox.more'))
  const markAll = h('button', {type: 'button', 'data-test': 'inbox-mark-all', onclick: () => mark('all')}, t('inbox.markAll'))
  const following = h('ul', {class: 'follow-list', 'data-test': 'follow-list'})
  main.append(
    h('section', {class: 'panel inbox'}, h('div', {class: 'inbox-head'}, h('p', {class: 'muted'}, t('inbox.lead')), markAll), status, list, more),
    h('section', {class: 'panel'}, h('h2', {}, t('follow.title')), h('p', {class: 'muted'}, t('follow.hint')), following))

  // An item's link and its Mark read have one listener, the list's: an
  // unread item's link marks it read as it opens it. The rows carry their
  // item's id (data-key) and whether it is read (data-read).
  list.addEventListener('click', (ev) => {
    const li = ev.target.closest('li[data-key]')
    if (!li || !list.contains(li)) return
    if (ev.target.closest('[data-test=inbox-mark]') || (ev.target.closest('a.inbox-open') && li.dataset.read === 'false')) mark([li.dataset.key])
  })

  let shown = 0
  let busy = false
  // load draws the items from offset on (0: the whole list again, renewed:
  // an item already shown, unchanged, stays the same element — matched by
  // its id, as a new item comes in at the top — so a click on it as a
  // notice comes in is not lost).
  let pending = false
  async function load(offset = 0) {
    if (busy) {
      pending = pending || offset === 0 // the whole list again once this one is drawn
      return
    }
    busy = true
    try {
      const res = await social.inbox(offset, PAGE)
      if (offset === 0) renewTree(list, h('ul', {}, res.items.map(row)))
      else for (const it of res.items) list.append(row(it))
      shown = offset + res.items.length
      more.hidden = res.next == null
      setUnread(res.unread)
      markAll.disabled = res.unread === 0
      status.textContent = res.total ? t('inbox.count', {n: res.total, unread: res.unread}) : t('inbox.empty')
    } catch (e) {
      status.replaceChildren(errorBox(e))
    }
    busy = false
    if (pending) {
      pending = false
      load(0)
    }
  }

  function row(it) {
    const open = h('a', {href: it.link, class: 'inbox-open'}, itemText(it))
    const li = h('li', {class: 'inbox-item' + (it.read ? '' : ' unread'), 'data-test': 'inbox-item', 'data-kind': it.kind, 'data-read': String(it.read), 'data-key': it.id},
      h('span', {class: 'dot', 'aria-hidden': 'true'}),
      h('div', {class: 'inbox-text'}, open, h('small', {class: 'muted'}, (it.read ? '' : t('inbox.unread') + ' · ') + fmtTime(it.created, lang()))),
      it.read ? null : h('button', {type: 'button', class: 'small', 'data-test': 'inbox-mark'}, t('inbox.markRead')))
    return li
  }

  async function mark(ids) {
    try {
      const res = await social.read(ids)
      setUnread(res.unread)
      load(0)
    } catch (e) {
      status.replaceChildren(errorBox(e))
    }
  }

  // loadFollows draws the players followed again (a followed player's game
  // started): renewed, not redrawn, so their links stay the same elements.
  async function loadFollows() {
    try {
      const res = await social.follows()
      const fresh = h('ul', {})
      if (!res.follows.length) fresh.append(h('li', {class: 'muted'}, t('follow.none')))
      for (const f of res.follows) {
        const g = f.playing[0]
        fresh.append(h('li', {class: 'follow-row', 'data-test': 'follow-row', 'data-user': f.user, 'data-key': f.user},
          h('span', {class: 'online-dot' + (f.online ? ' on' : ''), role: 'img', 'aria-label': f.online ? t('follow.online') : t('follow.offline')}),
          userLink(f.user), ' ',
          h('span', {class: 'muted'}, g ? t('follow.playing', {game: gameTitle(g.game)}) : (f.online ? t('follow.online') : t('follow.offline'))),
          g ? h('a', {href: '#/game/' + encodeURIComponent(g.id), class: 'button small', 'data-test': 'follow-watch',
            'aria-label': t('follow.watchLabel', {name: f.user, game: gameTitle(g.game)})}, t('follow.watch')) : null))
      }
      renewTree(following, fresh)
    } catch (e) {
      following.replaceChildren(errorBox(e))
    }
  }

  // A burst of notices is one reload (a game's creation and start come
  // together, say).
  let again = null
  const soon = (fn) => {
    clearTimeout(again)
    again = setTimeout(fn, 300)
  }
  const stopNotices = onNotice((n) => {
    if (n.kind === 'inbox') soon(() => load(0))
    else if (n.kind === 'started') loadFollows()
  })
  const stop = () => {
    clearTimeout(again)
    stopNotices()
  }
  load(0)
  loadFollows()
  return {destroy: stop}
}

/** followButton adds Follow/Unfollow for a signed-in registered user on another registered user's profile. */
export async function followButton(actions, user) {
  const me = session.current()
  if (!me || me.guest || user.guest || me.name === user.name) return
  const note = h('span', {class: 'muted', 'aria-live': 'polite'})
  let following = false
  try {
    following = (await social.follows()).follows.some((f) => f.user === user.name)
  } catch (e) {
    actions.append(errorBox(e))
    return
  }
  const btn = h('button', {type: 'button', 'data-test': 'follow-toggle', onclick: async () => {
    btn.disabled = true
    try {
      await (following ? social.unfollow(user.name) : social.follow(user.name))
      following = !following
      show()
    } catch (e) {
      note.replaceChildren(errorBox(e))
    }
    btn.disabled = false
  }})
  const show = () => {
    btn.textContent = following ? t('follow.unfollow') : t('follow.follow')
    btn.setAttribute('aria-pressed', following ? 'true' : 'false')
    note.replaceChildren(following ? h('a', {href: '#/inbox'}, t('follow.seeList')) : '')
  }
  show()
  actions.append(h('span', {class: 'follow-action'}, btn, ' ', note))
}
