// The application shell: header, language switch, hash routes
// (#/game/ID needs no server fallback route), and the page in <main>.

import {h, clear} from './dom.js'
import {t, languages, lang, setLang} from './i18n.js'
import * as session from './session.js'
import * as catalog from './catalog.js'
import {errorBox} from './components/common.js'
import * as theme from './theme.js'
import './accountprefs.js' // a registered player's board preferences follow the account (issue 27)
import './accountclosed.js' // a closed account's tab signs out and says why (the channels stop reconnecting)
import {start as startNotify} from './notify.js'
import {mountChallenges} from './components/challengebanner.js'
import {inboxBell} from './components/inboxbell.js'
import {moderationLink} from './pages/moderation.js'

// Each page's code is loaded when the page is first opened (the shell's
// modules are loaded with the application): a page load that fetched and
// compiled all eighty-one modules spent about 0.7 CPU seconds of the
// browser's on them (Chromium, measured), and the home page needs 39.
// lazyPage(file, name) is the loader of pages/FILE.js's page NAME.
function lazyPage(file, name) {
  return () => import(`./pages/${file}.js`).then((m) => m[name])
}

const routes = [
  [/^\/?$/, lazyPage('home', 'homePage')],
  [/^\/lobby$/, lazyPage('lobby', 'lobbyPage')],
  [/^\/game\/([\w-]+)$/, lazyPage('game', 'gamePage')],
  [/^\/replay\/([\w-]+)$/, lazyPage('replay', 'replayPage')],
  [/^\/user\/([\w-]+)$/, lazyPage('profile', 'profilePage')],
  [/^\/account$/, lazyPage('profile', 'accountPage')],
  [/^\/rules(?:\/(\w+))?$/, lazyPage('rules', 'rulesPage')],
  [/^\/help\/(\w+)$/, lazyPage('help', 'helpPage')], // players' help pages from docs/help: #/help/tournaments (issue 25)
  [/^\/learn(?:\/(\w+))?$/, lazyPage('learn', 'learnPage')],
  [/^\/puzzles(?:\/(\w+))?$/, lazyPage('puzzle', 'puzzlePage')],
  [/^\/analysis\/(\w+)$/, lazyPage('analysis', 'analysisPage')],
  [/^\/review\/([\w-]+)$/, lazyPage('analysisreview', 'reviewPage')],
  [/^\/leaderboard(?:\/(\w+))?$/, lazyPage('leaderboard', 'leaderboardPage')],
  [/^\/ladder(?:\/(\w+))?$/, lazyPage('ladder', 'ladderPage')], // the bot ladder (issue 26 item 5)
  [/^\/tournaments$/, lazyPage('tournaments', 'tournamentsPage')],
  [/^\/tournament\/([\w-]+)$/, lazyPage('tournament', 'tournamentPage')],
  [/^\/inbox$/, lazyPage('inbox', 'inboxPage')], // follows and the inbox (issue 24 items 5-6)
  [/^\/players$/, lazyPage('players', 'playersPage')], // find people (issue 24 item 3)
  [/^\/history\/([\w-]+)$/, lazyPage('history', 'historyPage')], // game history (issue 24 item 7)
  [/^\/tokens$/, lazyPage('tokens', 'tokensPage')], // API tokens and bot accounts (issue 24 item 8, issue 26)
  [/^\/moderation$/, lazyPage('moderation', 'moderationPage')], // moderators only (issue 24 item 9)
]

const main = document.getElementById('main')
const header = document.getElementById('top')
let page = null
// routed counts the routings: a page whose code comes after the next one
// began is not drawn.
let routed = 0

// The application lives at the site's root; the server answers any other
// path naming no file with this page and status 404 (server/routes.go),
// and the page then says so. Its links lead back to the root.
const lost = !['/', '/index.html'].includes(location.pathname)
const home = lost ? '/' : ''

function notFound(into = main) {
  into.append(h('h1', {}, t('notFound.title')), h('p', {}, t('notFound.lead')), h('p', {}, h('a', {href: home + '#/', 'data-test': 'not-found-home'}, t('nav.home'))))
}

function route() {
  // Before the catalog is here (start routes once it is), a change of
  // address or language has no page to draw yet.
  if (!catalog.loaded()) return
  const hash = location.hash
  if (hash && !hash.startsWith('#/')) return // an in-page anchor, not a route
  if (lost) {
    if (page && page.destroy) page.destroy()
    page = null
    clear(main)
    notFound()
    renderHeader()
    return
  }
  const [path, query] = decodeURIComponent(hash.slice(1) || '/').split('?')
  if (page && page.destroy) page.destroy()
  page = null
  clear(main)
  // Each page draws into an element of its own, not into main: a page left
  // before its data came (a profile, say, whose stats were still on their
  // way) then draws into an element no longer shown, not into the next
  // page.
  const view = h('div', {class: 'view'})
  main.append(view)
  const now = ++routed
  for (const [re, load] of routes) {
    const m = re.exec(path)
    if (m) {
      renderHeader()
      load().then((fn) => {
        if (now !== routed) return // left before its code came
        page = fn(view, m.slice(1), new URLSearchParams(query || '')) || null
        redrawHeader()
      }, () => {
        // The page's code did not come (the network, or a new release
        // whose files replaced this one's): the browser's own words for it
        // are English and technical.
        if (now !== routed) return
        view.append(errorBox({code: 'page_load'}),
          h('p', {}, h('button', {type: 'button', 'data-test': 'page-reload', onclick: () => location.reload()}, t('error.page_reload'))))
      })
      return
    }
  }
  notFound(view)
  renderHeader()
}

function navLink(href, label, test) {
  const here = (location.hash || '#/').split('?')[0]
  const current = !lost && (here === href || (href !== '#/' && here.startsWith(href)))
  return h('a', {href: home + href, 'aria-current': current ? 'page' : null, 'data-test': test}, label)
}

// The top menu: the site's pages, in order ([address, label key, data-test]).
// A new page adds its line here; the menu fits any width (on a phone the
// links fold into the Menu button's panel, on a wide screen they wrap).
const NAV = [
  ['#/', 'nav.home', 'nav-home'],
  ['#/lobby', 'nav.lobby', 'nav-lobby'],
  ['#/rules', 'nav.rules', 'nav-rules'],
  ['#/learn', 'nav.learn', 'nav-learn'],
  ['#/puzzles', 'nav.puzzles', 'nav-puzzles'],
  ['#/leaderboard', 'nav.leaderboard', 'nav-leaderboard'],
  ['#/tournaments', 'nav.tournaments', 'nav-tournaments'],
  ['#/players', 'nav.players', 'nav-players'],
]

// A click outside the open menu closes it (renderHeader sets the check).
let closeNavOnOutsideClick = null
document.addEventListener('click', (ev) => { if (closeNavOnOutsideClick) closeNavOnOutsideClick(ev) })

// The header: the brand, then the menu — a disclosure on a phone (the
// button says whether it is open; Escape, or a click or focus elsewhere,
// closes it), always open on a wider screen, where the button is hidden.
function renderHeader(menuOpen = false) {
  clear(header)
  document.getElementById('skip').textContent = t('nav.skip')
  document.querySelector('.foot p').textContent = t('app.footer')
  const user = session.current()
  const select = h('select', {id: 'lang', 'aria-label': t('nav.language'), 'data-test': 'lang',
    onchange: (ev) => setLang(ev.target.value)},
  languages.map((l) => h('option', {value: l.code, selected: l.code === lang()}, l.name)))
  const links = NAV.map(([href, key, test]) => navLink(href, t(key), test))
  if (user) links.push(navLink('#/user/' + encodeURIComponent(user.name), t('nav.profile'), 'nav-profile'))
  const account = navLink('#/account', user ? user.name + (user.guest ? ' (' + t('account.guest') + ')' : '') : t('nav.signIn'), 'nav-account')
  account.classList.add('account')
  const navList = h('ul', {class: 'nav-links'}, links.map((a) => h('li', {}, a)))
  if (user && !user.guest) moderationLink(navList, navLink) // moderators only (pages/moderation.js)
  const menu = h('div', {id: 'nav-menu', class: 'nav-menu', 'data-test': 'nav-menu'},
    navList,
    account,
    h('div', {class: 'tools'}, schemeButton(),
      h('label', {class: 'lang'}, h('span', {class: 'sr-only'}, t('nav.language')), select)))
  const toggle = h('button', {type: 'button', class: 'nav-toggle', 'aria-expanded': 'false', 'aria-controls': 'nav-menu', 'data-test': 'nav-toggle',
    onclick: () => setOpen(toggle.getAttribute('aria-expanded') !== 'true')},
  h('span', {class: 'nav-toggle-icon', 'aria-hidden': 'true'}, '☰'), ' ', t('nav.menu'))
  const nav = h('nav', {'aria-label': t('nav.main'), class: 'site-nav'}, toggle, menu)
  function setOpen(open, focusToggle) {
    toggle.setAttribute('aria-expanded', String(open))
    nav.classList.toggle('open', open)
    if (!open && focusToggle) toggle.focus()
  }
  nav.addEventListener('keydown', (ev) => {
    if (ev.key === 'Escape' && nav.classList.contains('open')) {
      ev.preventDefault()
      setOpen(false, true)
    }
  })
  nav.addEventListener('focusout', (ev) => {
    if (ev.relatedTarget && !nav.contains(ev.relatedTarget)) setOpen(false)
  })
  closeNavOnOutsideClick = (ev) => { if (!nav.contains(ev.target)) setOpen(false) }
  header.append(
    h('a', {href: home + '#/', class: 'brand', 'aria-label': t('nav.home')}, h('span', {class: 'logo', 'aria-hidden': 'true'}, '◆'), h('span', {class: 'name'}, ' Tabula')),
    inboxBell(home), // the inbox's unread count, signed in (components/inboxbell.js)
    nav)
  if (menuOpen === true) setOpen(true) // not a session listener's argument
}

// The colour scheme: automatic (the system's), light or dark, in turn.
const SCHEME_ICONS = {auto: '◐', light: '☀', dark: '☾'}
function schemeButton() {
  const now = theme.scheme()
  const next = theme.schemes[(theme.schemes.indexOf(now) + 1) % theme.schemes.length]
  return h('button', {type: 'button', class: 'scheme', 'data-test': 'scheme', 'data-scheme': now,
    title: t('theme.switch', {next: t('theme.' + next)}), 'aria-label': t('theme.label') + ': ' + t('theme.' + now),
    onclick: () => {
      theme.setScheme(next)
      // Drawn again with its new icon, the menu it is in kept open.
      renderHeader(true)
      header.querySelector('[data-test=scheme]').focus()
    }}, h('span', {'aria-hidden': 'true'}, SCHEME_ICONS[now]), h('span', {class: 'label'}, t('theme.' + now)))
}

// redrawHeader draws the header again as it stands: the phone's menu stays
// open if it was, and the focus stays on the control it was on. A page's
// code can arrive just after a tap on Menu, and a change of session draws
// the header again too: neither should close the menu.
function redrawHeader() {
  const open = header.querySelector('[data-test=nav-toggle]')?.getAttribute('aria-expanded') === 'true'
  const focused = header.contains(document.activeElement) ? document.activeElement.dataset.test : undefined
  renderHeader(open)
  if (focused) header.querySelector(`[data-test="${focused}"]`)?.focus()
}

window.addEventListener('hashchange', route)
window.addEventListener('tabula:lang', () => {
  document.title = t('app.title')
  if (page && page.relang) {
    page.relang()
    renderHeader()
  } else route()
})
session.onChange(() => redrawHeader())
mountChallenges() // the challenge badge and toasts on every page (components/challengebanner.js)

document.getElementById('skip').addEventListener('click', (ev) => {
  ev.preventDefault()
  main.focus()
})

// The pages read the site's facts from the catalog: no page is drawn
// before it is here. Should it fail to come, the page says so and offers
// to ask again.
function start() {
  Promise.all([catalog.load(), session.load().catch(() => null)]).then(() => {
    route()
    startNotify()
  }, (e) => {
    clear(main)
    main.append(h('h1', {}, t('app.title')), errorBox(e),
      h('p', {}, h('button', {type: 'button', 'data-test': 'retry', onclick: start}, t('app.retry'))))
    renderHeader()
  })
}

document.title = t('app.title')
start()
