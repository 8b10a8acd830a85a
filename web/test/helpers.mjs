// Shared by the browser tests: one headless Chromium, pages that record
// console errors (every test fails on any), a guest session, and a player
// that plays a game by clicking the board's highlighted targets.

import {createRequire} from 'node:module'
import {mkdirSync, readFileSync, readdirSync, readlinkSync} from 'node:fs'
import {fileURLToPath} from 'node:url'
import path from 'node:path'
import assert from 'node:assert/strict'
import {AsyncLocalStorage} from 'node:async_hooks'
import {after, beforeEach, afterEach} from 'node:test'

const require = createRequire(import.meta.url)
const {chromium} = require('playwright-core')

export const BASE = process.env.TABULA_URL || 'http://127.0.0.1:8080'
export const OUT = path.join(path.dirname(fileURLToPath(import.meta.url)), 'out')
mkdirSync(OUT, {recursive: true})
// The committed screenshots in docs/screenshots/ are rewritten only when
// asked (UPDATE_SCREENSHOTS=1 web/test/run); other runs write to out/.
export const SHOTS = process.env.UPDATE_SCREENSHOTS ? path.join(path.dirname(fileURLToPath(import.meta.url)), '..', '..', 'docs', 'screenshots') : OUT

// One Chromium serves every file of a run (suite.mjs runs them all in one
// process, a few at a time): a browser per file cost its start, and each
// file's first pages fresh contexts, which the pool below now hands on from
// the files that ended. launch gives a file its view of that browser: its
// close closes the contexts the file kept open and hands its pages on; the
// browser itself closes when the run ends (or, run file by file, the file).
let shared
function realBrowser() {
  shared ??= chromium.launch({
    // Chromium's headless shell (Debian's chromium-headless-shell, which
    // run installs), not the full browser run headless: the same engine
    // without the browser's own interface, which in headless mode still
    // ran a renderer of its own pages beside the tests'. The same two test
    // files, one after the other: 35 CPU seconds of Chromium against 46.
    executablePath: process.env.CHROMIUM || '/usr/lib/chromium/chromium-headless-shell',
    // Every request beyond this machine goes to a proxy that is not there
    // (port 9, discard, closed: Chromium sends loopback past a proxy by
    // itself), so it fails at once — and newPage's pages record the failure
    // as an error, failing the test. A route that vetted every request did
    // the same at the cost of a round trip through this process for each.
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
      '--disable-background-networking', '--disable-component-update', '--disable-sync',
      '--proxy-server=http://127.0.0.1:9'],
  }).then((browser) => {
    // A browser that crashed is started again for the files after.
    browser.on('disconnected', () => { shared = undefined })
    return browser
  })
  return shared
}
after(async () => {
  const browser = await shared
  spare.clear()
  await browser?.close()
})

export async function launch() {
  const browser = await realBrowser()
  const scope = currentScope()
  // Every page of this browser polls waitForFunction's condition on a timer
  // (POLL_MS) unless a call says otherwise. Playwright's default polls on
  // every animation frame, which keeps the renderer drawing frames at 60 a
  // second for as long as a test waits.
  const newContext = async (options) => {
    const context = await browser.newContext(options)
    own(scope, context)
    context.on('close', () => context.tabulaScope?.open.delete(context))
    const newContextPage = context.newPage.bind(context)
    context.newPage = async () => pollOnATimer(await newContextPage())
    return context
  }
  const close = async () => {
    // The file's pages waiting in its pool go to the spare pool, up to
    // MAX_SPARE; what the file kept open (contexts made outside a test,
    // keepOpen) closes.
    for (const [key, pages] of scope.pool) {
      for (const page of pages) {
        scope.open.delete(page.context())
        if (spareCount() < MAX_SPARE && page.context().tabulaScope === scope) {
          page.context().tabulaScope = undefined
          if (!spare.has(key)) spare.set(key, [])
          spare.get(key).push(page)
        } else {
          await page.context().tabulaClose().catch(() => {})
        }
      }
    }
    scope.pool.clear()
    await Promise.all([...scope.open].map((c) => (c.tabulaClose || c.close.bind(c))().catch(() => {})))
  }
  return new Proxy(browser, {
    get(target, prop) {
      if (prop === 'newContext') return newContext
      if (prop === 'close') return close
      if (prop === 'tabulaScope') return scope
      const v = Reflect.get(target, prop)
      return typeof v === 'function' ? v.bind(target) : v
    },
  })
}

/** POLL_MS is how often a page's waitForFunction tests its condition by default. */
export const POLL_MS = 50

// pollOnATimer makes POLL_MS the default polling of waitForFunction for every
// page (the method lives on the pages' prototype, patched once).
function pollOnATimer(page) {
  const proto = Object.getPrototypeOf(page)
  if (!proto.tabulaPollsOnATimer) {
    const waitForFunction = proto.waitForFunction
    proto.waitForFunction = function (fn, arg, options) {
      // Playwright takes the Promise an async condition returns for a true
      // value and returns at once, without waiting for anything (a test
      // "waited" so for a save that had not happened, and failed later on
      // this machine only); waitUntil is for conditions that must await.
      if (fn?.constructor?.name === 'AsyncFunction') {
        return Promise.reject(new Error('waitForFunction with an async condition returns at once (a Promise is true): use waitUntil'))
      }
      return waitForFunction.call(this, fn, arg, {polling: POLL_MS, ...options})
    }
    proto.tabulaPollsOnATimer = true
  }
  return page
}

/**
 * newPage opens a page in a context of its own (its own cookies: its own
 * user) whose console errors and page errors are collected in page.errors.
 * The page may be one an earlier test of the file used, made new (below);
 * fresh: true asks for a new context, for a test of a first visit (an empty
 * HTTP cache).
 */
export async function newPage(browser, {locale = 'en-US', viewport = {width: 1280, height: 900}, fresh = false} = {}) {
  const scope = browser.tabulaScope || currentScope()
  const key = poolKey(locale, viewport)
  const reused = fresh ? undefined : (scope.pool.get(key)?.pop() || spare.get(key)?.pop())
  if (reused) {
    const context = reused.context()
    context.tabulaPooled = false
    own(scope, context)
    if (scope.inTest) scope.fileContexts.delete(context)
    await reused.setViewportSize(viewport)
    return reused
  }
  const context = await browser.newContext({locale, viewport})
  context.tabulaPool = {key}
  // A test's own close of the context makes it new for the pool, as the
  // end of the test does (most tests close what they open).
  context.tabulaClose = context.close.bind(context)
  context.close = () => recycle(context)
  const page = await context.newPage()
  page.errors = []
  page.on('console', (m) => {
    // "Failed to load resource" does not say which: the location does.
    const at = m.location()?.url
    if (m.type() === 'error') page.errors.push('console: ' + m.text() + (at ? ' (' + at + ')' : ''))
  })
  page.on('pageerror', (e) => page.errors.push('pageerror: ' + e.message))
  // The page must work with no network beyond the Tabula server: any other
  // request fails the test (launch's proxy refuses every request beyond
  // this machine, so nothing leaves it; one to another port here is named).
  const origin = new URL(BASE).origin
  page.on('request', (r) => {
    const u = r.url()
    if (!u.startsWith(origin + '/') && !u.startsWith('data:') && !u.startsWith('blob:')) page.errors.push('request beyond the Tabula server: ' + u)
  })
  page.on('requestfailed', (r) => {
    // Navigating away closes open WebSockets and aborts fetches; those are not faults.
    const f = r.failure()
    if (f && !/ERR_ABORTED/.test(f.errorText)) page.errors.push(`request failed: ${r.url()} ${f.errorText}`)
  })
  page.setDefaultTimeout(45000)
  // A whole page load waits for every module and the first answers; at the
  // start of a clean-clone .ci/run (load 40, Chromium starting three files'
  // browsers beside the Go race step) one took over 45 s.
  page.setDefaultNavigationTimeout(90000)
  return taintable(page)
}

// poolKey names what a context is made with and keeps for every page it
// opens: a page is handed on only to a newPage that asks for the same. (By
// locale alone, a test at 1280 px that opened a second tab in its page's
// context got the phone's 390 px of the context's first test, in another
// file: players.test.mjs failed a clean-clone run on it.)
const poolKey = (locale, viewport) => `${locale} ${viewport.width}x${viewport.height}`

// listeners is what listens to the page and its context, by event.
function listeners(page) {
  const count = (e) => e.eventNames().map((n) => `${String(n)}:${e.listenerCount(n)}`).sort().join(' ')
  return count(page) + ' | ' + count(page.context())
}

// A test's contexts are not left open when it ends: their pages went on
// living to the end of the file (a live game's clocks and bots, the user
// channel) and their renderers drew beside the next tests. A context that
// newPage made, with its one page as newPage left it but for what a visit
// leaves (cookies, storage, history), is made new instead and kept for the
// file's next newPage: a fresh context and its first load cost Chromium
// about twice the CPU of a load in a context it has (1.05–1.13 against
// 0.49–0.60 CPU-s measured, the home page), and most tests are short.
// Made new: its storage cleared, the page sent to about:blank (the site's
// code ends, as on a visit's end), its cookies cleared; so the next test
// starts signed out on an empty page, as in a new context, but with the
// HTTP cache of a returning visitor. Any other change a test makes (routes,
// init scripts, listeners, emulated media, a fake clock, permissions, a
// second page) closes the context instead. A context opened outside a test
// (in before) or passed to keepOpen is the file's and is left alone.
// A scope is one test file's: the contexts it has open, those it keeps
// for all its tests (opened outside a test, or keepOpen), the pages it made
// new for its next test (its pool, by locale), and whether a test of it is
// running. suite.mjs runs each file in a scope of its own (fileScope), a few
// files at a time; a file run alone by node --test has the default scope.
class Scope {
  constructor(name) {
    this.name = name
    this.open = new Set()
    this.fileContexts = new Set()
    this.pool = new Map()
    this.inTest = false
  }
}
const scopes = new AsyncLocalStorage()
const defaultScope = new Scope('')
const currentScope = () => scopes.getStore() || defaultScope

// Pages whose files ended, made new, for any file's next newPage: each
// file's first pages would otherwise be fresh contexts. A file takes from
// its own pool first, so that a page it made new is the one its next test
// gets, whatever the files beside it do.
const spare = new Map()
const MAX_SPARE = 8
const spareCount = () => [...spare.values()].reduce((n, pages) => n + pages.length, 0)

// own makes context the scope's (a page from the spare pool changes files).
function own(scope, context) {
  context.tabulaScope?.open.delete(context)
  context.tabulaScope = scope
  scope.open.add(context)
}

let inSuite = false

/**
 * fileScope runs load (the import of one test file) in a scope of its own,
 * with the hooks that make each of its tests' pages new for the next: the
 * scope follows the file's tests and hooks wherever they run.
 */
export function fileScope(name, load) {
  inSuite = true
  const scope = new Scope(name)
  return scopes.run(scope, () => {
    beforeEach(() => testBegins(scope))
    afterEach(() => testEnds(scope))
    return load()
  })
}

const TAINTING = ['route', 'routeFromHAR', 'routeWebSocket', 'addInitScript', 'exposeFunction', 'exposeBinding', 'setExtraHTTPHeaders', 'emulateMedia', 'grantPermissions', 'setGeolocation', 'setOffline', 'addLocatorHandler']

// taintable marks the page's context as changed beyond what a visit leaves
// when the test calls one of TAINTING on the page or its context, or
// installs a fake clock; the listeners it has now are its own (a test's
// listener left on it closes it: playwright's own waits remove theirs).
function taintable(page) {
  const context = page.context()
  page.tabulaListeners = listeners(page)
  for (const target of [page, context, page.clock, context.clock]) {
    if (!target || target.tabulaWatched) continue
    target.tabulaWatched = true
    for (const name of [...TAINTING, 'install', 'setFixedTime', 'setSystemTime']) {
      if (typeof target[name] !== 'function') continue
      const original = target[name]
      target[name] = function (...args) {
        context.tabulaTainted = true
        return original.apply(this, args)
      }
    }
  }
  page.tabulaKeys = new Set(Object.keys(page)) // the watchers above among them
  return page
}

async function recycle(context) {
  if (context.tabulaRecycled || context.tabulaPooled) return
  const close = () => (context.tabulaClose || context.close.bind(context))().catch(() => {})
  const pages = context.pages()
  const page = pages[0]
  const origin = new URL(BASE).origin
  const blank = page?.url() === 'about:blank' // never loaded: nothing of the site's to end
  if (!context.tabulaPool || context.tabulaTainted || pages.length !== 1 || !(blank || page.url().startsWith(origin + '/')) || listeners(page) !== page.tabulaListeners) {
    await close()
    return
  }
  context.tabulaRecycled = true
  let timer
  try {
    // A page that does not answer (a hung script) is closed, not waited for.
    await Promise.race([
      (async () => {
        if (!blank) {
          await page.evaluate(() => {
            localStorage.clear()
            sessionStorage.clear()
          })
          await page.goto('about:blank')
        }
        await context.clearCookies()
      })(),
      new Promise((_, reject) => { timer = setTimeout(() => reject(new Error('recycle: no answer')), 10000) }),
    ])
  } catch {
    await close()
    return
  } finally {
    clearTimeout(timer)
  }
  page.errors = []
  // What a test kept on the page object (skjuubboard.test.mjs keeps its game
  // there) is not the next test's.
  for (const k of Object.keys(page)) {
    if (!k.startsWith('_') && !k.startsWith('tabula') && !page.tabulaKeys.has(k)) delete page[k]
  }
  context.tabulaRecycled = false
  context.tabulaPooled = true
  const scope = context.tabulaScope || defaultScope
  if (!scope.pool.has(context.tabulaPool.key)) scope.pool.set(context.tabulaPool.key, [])
  scope.pool.get(context.tabulaPool.key).push(page)
}

function testBegins(scope) {
  scope.fileContexts = new Set(scope.open)
  scope.inTest = true
}

async function testEnds(scope) {
  scope.inTest = false
  const mine = [...scope.open].filter((c) => !scope.fileContexts.has(c) && !c.tabulaPooled)
  await Promise.all(mine.map(recycle))
}

// A file run alone (node --test file.test.mjs) has these; under suite.mjs
// each file's scope has its own (fileScope).
beforeEach(() => { if (!inSuite) testBegins(defaultScope) })
afterEach(() => inSuite ? undefined : testEnds(defaultScope))

/**
 * keepOpen makes the context of page the file's: it stays as it is after
 * the test that opened it, for the file's later tests to share.
 */
export function keepOpen(page) {
  currentScope().fileContexts.add(page.context())
  return page
}

export function assertNoErrors(page) {
  assert.deepEqual(page.errors, [], 'console errors on the page')
}

/** startBotGame opens the home page and starts a game against a bot with "Play a bot now". */
export async function startBotGame(page, game, level = 'random') {
  await page.goto(BASE + '/')
  await page.waitForSelector('[data-test=play-bot-' + game + ']')
  await page.selectOption('[data-test=bot-level]', level)
  await page.click('[data-test=play-bot-' + game + ']')
  await page.waitForURL(/#\/game\//)
  await page.waitForSelector('.board-svg [data-hit]')
}

/** boardState reads what the user can do now. */
export function boardState(page) {
  return page.evaluate(() => {
    const res = document.querySelector('[data-test=result]')
    const over = !!res && !res.hidden
    const hits = [...document.querySelectorAll('.board-svg [data-hit].hit')].map((e) => e.getAttribute('data-hit'))
    const buttons = [...document.querySelectorAll('[data-test=actions] button[data-move]')].map((b) => b.getAttribute('data-move'))
    const prompt = document.querySelector('[data-test=prompt]')?.textContent || ''
    const moves = document.querySelectorAll('[data-test=moves] li').length
    return {over, result: over ? res.textContent : '', hits, buttons, prompt, moves}
  })
}

/**
 * clickHit clicks the board target with this data-hit key with the mouse,
 * at a point where that target (not something drawn over it) is hit.
 */
export async function clickHit(page, key) {
  const pt = await hitPoint(page, key)
  await page.mouse.click(pt.x, pt.y)
}

/** hitPoint is a point of the page where the board target with this data-hit key is hit (scrolled into view). */
export async function hitPoint(page, key) {
  const pt = await page.evaluate((k) => {
    const el = document.querySelector(`.board-svg [data-hit="${CSS.escape(k)}"]`)
    if (!el) return null
    el.scrollIntoView({block: 'nearest'})
    const r = el.getBoundingClientRect()
    const order = [0.5, 0.4, 0.6, 0.3, 0.7, 0.2, 0.8]
    for (const fy of order) {
      for (const fx of order) {
        const x = r.left + r.width * fx
        const y = r.top + r.height * fy
        const at = document.elementFromPoint(x, y)
        if (at && at.closest('[data-hit]') === el) return {x, y}
      }
    }
    return null
  }, key)
  assert.ok(pt, `no clickable point for board target ${key}`)
  return pt
}

export async function clickMoveButton(page, move) {
  await page.click(`[data-test=actions] button[data-move="${move}"]`)
}

/**
 * playUntilOver plays random legal moves by clicking until the result is
 * shown. onMove(state) runs after each settled state (for screenshots).
 */
export async function playUntilOver(page, {maxSteps = 6000, onState} = {}) {
  for (let step = 0; step < maxSteps; step++) {
    const st = await boardState(page)
    if (st.over) return st
    if (onState) await onState(st)
    if (!st.hits.length && !st.buttons.length) {
      // the opponent's turn: wait until there is something to click or a result
      await page.waitForFunction(() => {
        const res = document.querySelector('[data-test=result]')
        return (res && !res.hidden) || document.querySelector('.board-svg [data-hit].hit, [data-test=actions] button[data-move]')
      }, null, {timeout: 60000}).catch(() => assert.fail('the game stalled: nothing to click and no result: ' + st.prompt))
      continue
    }
    if (st.buttons.length && (!st.hits.length || Math.random() < 0.4)) {
      await clickMoveButton(page, st.buttons[Math.floor(Math.random() * st.buttons.length)])
    } else {
      await clickHit(page, st.hits[Math.floor(Math.random() * st.hits.length)])
    }
  }
  assert.fail('the game did not end within ' + maxSteps + ' steps')
}

/** api calls the server's API from the page (with its session cookie). */
export function api(page, method, p, body) {
  return page.evaluate(async ([method, p, body]) => {
    const res = await fetch('/api' + p, {method, headers: body ? {'Content-Type': 'application/json'} : {}, body: body ? JSON.stringify(body) : undefined})
    return {status: res.status, body: await res.json().catch(() => null)}
  }, [method, p, body])
}

/**
 * apiPaced is api for tests that make many calls: a request the site's
 * rate limit refuses (429 rate_limited) waits as the server says and is
 * sent again. (Other 429s — quotas — are answers, returned as they are.)
 */
export function apiPaced(page, method, p, body) {
  return page.evaluate(async ([method, p, body]) => {
    for (;;) {
      const res = await fetch('/api' + p, {method, headers: body ? {'Content-Type': 'application/json'} : {}, body: body ? JSON.stringify(body) : undefined})
      const json = await res.json().catch(() => null)
      if (res.status === 429 && json?.error?.code === 'rate_limited') {
        await new Promise((r) => setTimeout(r, 1000 * Number(res.headers.get('Retry-After') || 1)))
        continue
      }
      return {status: res.status, body: json}
    }
  }, [method, p, body])
}

/**
 * registered makes the page's context a new registered user (its name
 * begins with prefix), opens the account page signed in and returns the
 * name. The account is made through the context's own request client,
 * which shares the page's cookies, so the site is loaded once: made from
 * the page, it was loaded twice (once to send the request, once more to
 * learn of the session), and a load is most of what a short test costs.
 */
export async function registered(page, prefix = 'u') {
  const name = prefix + Math.random().toString(36).slice(2, 9)
  const password = 'plum tree ' + Math.random().toString(36).slice(2)
  for (;;) {
    const res = await page.context().request.post(BASE + '/api/users', {data: {name, password}, headers: {Origin: new URL(BASE).origin}})
    const body = await res.json().catch(() => null)
    if (res.status() === 429 && body?.error?.code === 'rate_limited') {
      await new Promise((r) => setTimeout(r, 1000 * Number(res.headers()['retry-after'] || 1)))
      continue
    }
    if (res.status() !== 201) throw new Error('register: ' + res.status() + ' ' + JSON.stringify(body))
    break
  }
  // A page already on the site is loaded again, to learn of its session as
  // on any visit (going to another #route of it loads nothing).
  const loaded = page.url().startsWith(new URL(BASE).origin + '/')
  await page.goto(BASE + '/#/account')
  if (loaded) await page.reload()
  return name
}

/** userName is the name of the page's signed-in user. */
export async function userName(page) {
  return (await api(page, 'GET', '/session')).body.user.name
}

/** guest makes the page's context a guest through the UI's own session code. */
export async function guest(page) {
  await page.goto(BASE + '/#/account')
  await page.evaluate(() => import('/js/session.js').then((s) => s.ensure()))
}

/** createGame creates a game through the API as the page's user and returns its summary. */
export async function createGame(page, req) {
  const res = await api(page, 'POST', '/games', req)
  assert.equal(res.status, 201, JSON.stringify(res.body))
  return res.body.game
}

/** openGame creates a game and opens its page, waiting for the board. */
export async function openGame(page, req) {
  const g = await createGame(page, req)
  await page.goto(BASE + '/#/game/' + g.id)
  await page.waitForSelector('.board-svg [data-hit]')
  return g.id
}

/**
 * playByApi plays random legal moves for the page's user through the HTTP
 * API (bots answer on the server) until the game is over or `plies` moves
 * have been made; it returns the number of moves of the game. It keeps to
 * the server's rate limit (20 requests a second by default), waiting as
 * told when a request is refused with 429.
 */
export function playByApi(page, id, plies = Infinity) {
  return page.evaluate(async ([id, plies]) => {
    const pause = (ms) => new Promise((r) => setTimeout(r, ms))
    const call = async (path, init) => {
      for (;;) {
        await pause(70)
        const res = await fetch('/api/games/' + id + path, init)
        if (res.status !== 429) return res
        await pause(1000 * Number(res.headers.get('Retry-After') || 1))
      }
    }
    for (let i = 0; i < 5000; i++) {
      const res = await call('')
      if (!res.ok) throw new Error(`GET /api/games/${id}: ${res.status} ${await res.text()}`)
      const g = await res.json()
      if (g.game.status !== 'live' || g.moves.length >= plies) return g.moves.length
      if (!g.legal || !g.legal.length) continue
      const move = g.legal[Math.floor(Math.random() * g.legal.length)]
      await call('/moves', {method: 'POST', headers: {'Content-Type': 'application/json'}, body: JSON.stringify({ply: g.moves.length, move})})
    }
    throw new Error('the game did not end')
  }, [id, plies])
}

/** allowErrors drops the page's recorded errors that match re (an expected 404, say). */
export function allowErrors(page, re) {
  page.errors = page.errors.filter((e) => !re.test(e))
}

/** inViewport: the element's box lies within the viewport (to the pixel). */
export function inViewport(page, selector) {
  return page.$eval(selector, (el) => {
    const r = el.getBoundingClientRect()
    return r.width > 0 && r.height > 0 && r.left >= -0.5 && r.top >= -0.5 &&
      r.right <= innerWidth + 0.5 && r.bottom <= innerHeight + 0.5
  })
}

/**
 * twoPlayers: alice creates a game with a seat for anyone, bob takes it,
 * and both open its page. It returns the two pages, their names and the id.
 */
export async function twoPlayers(browser, req, viewport) {
  const alice = await newPage(browser, viewport ? {viewport} : undefined)
  const bob = await newPage(browser, viewport ? {viewport} : undefined)
  await guest(alice)
  await guest(bob)
  const g = await createGame(alice, {seats: [{kind: 'me'}, {kind: 'open'}], ...req})
  assert.equal((await api(bob, 'POST', `/games/${g.id}/join`, {})).status, 200)
  for (const p of [alice, bob]) {
    await p.goto(BASE + '/#/game/' + g.id)
    await p.waitForSelector('.board-svg [data-hit]')
  }
  return {alice, bob, an: await userName(alice), bn: await userName(bob), id: g.id}
}

/**
 * keptDealGame has the signed-in page create an open two-player Skyjo game
 * continued from a record whose deal its creator keeps (so a joiner must
 * consent), and returns its id.
 */
export async function keptDealGame(page, seed) {
  const record = {format: 'tabula-record/1', game: 'skyjo', options: {players: '2'}, seed: String(seed), moves: []}
  const res = await api(page, 'POST', '/records', {record, mode: 'continue', keepDeal: true, seats: [{kind: 'me'}, {kind: 'open'}]})
  if (res.status !== 201) throw new Error(`a kept-deal game: ${res.status} ${JSON.stringify(res.body)}`)
  return res.body.game.id
}

/**
 * clickDeclining clicks selector, dismisses the confirmation it raises and
 * returns the question asked ('' if none came).
 */
export async function clickDeclining(page, selector) {
  const asked = page.waitForEvent('dialog').then(async (d) => {
    const question = d.message()
    await d.dismiss()
    return question
  })
  await page.click(selector)
  return asked
}

/**
 * settled waits until no animation or transition with an end runs on the
 * page (a move's glide, a colour fading in; a spinner, which never ends,
 * does not count, nor a mark's three beckoning pulses, which change no
 * layout): what a screenshot or a measurement then sees is final.
 */
export async function settled(page) {
  await page.waitForFunction(() => document.getAnimations().every((a) =>
    a.playState !== 'running' || a.animationName === 'beckon' || !Number.isFinite(a.effect?.getComputedTiming().endTime)))
  // and a frame drawn: the pages leave some work to the next frame (the move
  // list's scroll to its newest row, the board's focus given back)
  await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => resolve())))
}

/**
 * resize sets the page's viewport and waits until the page has had its
 * resize event (pages fit their board to the window on it) and settled.
 */
export async function resize(page, size) {
  const now = page.viewportSize()
  if (now && now.width === size.width && now.height === size.height) return
  await page.evaluate(() => {
    window.__resized = new Promise((resolve) => addEventListener('resize', () => requestAnimationFrame(() => resolve()), {once: true}))
  })
  await page.setViewportSize(size)
  await page.evaluate(() => window.__resized)
  await settled(page)
}

/**
 * waitUntil asks check() again and again (more and more seldom, up to four
 * times a second) until it returns something true, which it returns, or
 * fails after timeout ms saying what it waited for.
 */
export async function waitUntil(check, {timeout = 15000, what = 'a condition'} = {}) {
  const end = Date.now() + timeout
  for (let wait = 20; ; wait = Math.min(2 * wait, 250)) {
    const v = await check()
    if (v) return v
    if (Date.now() > end) assert.fail(`waited ${timeout} ms for ${what}`)
    await new Promise((resolve) => setTimeout(resolve, wait))
  }
}

/**
 * waitGameLive waits until game id is live and returns the API's answer for
 * it. A tournament's round is stored with its boards' game ids before the
 * director creates the games, so such an id can answer 404 for a moment:
 * the wait asks through the page's context's request client (its cookies,
 * its rate limit), whose answers the page's console does not log — a fetch
 * from the page logs that 404 as a console error, which then failed a
 * tournament test's check for console errors on a loaded machine.
 */
export async function waitGameLive(page, id, {timeout = 60000} = {}) {
  return waitUntil(async () => {
    const r = await page.context().request.get(BASE + '/api/games/' + id)
    if (r.status() !== 200) return null
    const body = await r.json()
    return body.game?.status === 'live' ? body : null
  }, {timeout, what: 'game ' + id + ' live'})
}

/**
 * nextRead waits for a page that reads a list on a timer to read it once
 * more, without waiting the timer out: it moves the page's clock (which
 * the test has installed, page.clock.install()) on by every ms until the
 * page has asked for a response that match(response) accepts, and returns
 * that response once it has come whole. (A page that sets its next timer
 * only once an answer is drawn may not have set it yet: the clock is moved
 * on again until it asks.)
 */
export async function nextRead(page, match, every) {
  let done = false
  const answer = page.waitForResponse(match)
  answer.then(() => { done = true }, () => { done = true })
  while (!done) {
    await page.clock.fastForward(every)
    await Promise.race([answer.catch(() => {}), new Promise((resolve) => setTimeout(resolve, 250))])
  }
  const res = await answer
  await res.finished()
  return res
}

/**
 * serverProcess finds the tabula serve process listening on BASE's port
 * (through /proc: Linux only, as web/test/run is): its binary and its --db
 * — for tests that run `tabula admin` on the server's database or start
 * `tabula bot` from the same binary.
 */
export function serverProcess() {
  const port = Number(new URL(BASE).port)
  const inodes = new Set()
  for (const f of ['/proc/net/tcp', '/proc/net/tcp6']) {
    let text = ''
    try {
      text = readFileSync(f, 'utf8')
    } catch {
      continue
    }
    for (const line of text.split('\n').slice(1)) {
      const cols = line.trim().split(/\s+/)
      if (cols.length > 9 && cols[3] === '0A' && parseInt(cols[1].split(':')[1], 16) === port) inodes.add(cols[9])
    }
  }
  for (const pid of readdirSync('/proc').filter((d) => /^\d+$/.test(d))) {
    let fds = []
    try {
      fds = readdirSync(`/proc/${pid}/fd`)
    } catch {
      continue
    }
    for (const fd of fds) {
      let link = ''
      try {
        link = readlinkSync(`/proc/${pid}/fd/${fd}`)
      } catch {
        continue
      }
      const m = /^socket:\[(\d+)\]$/.exec(link)
      if (!m || !inodes.has(m[1])) continue
      const args = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0')
      if (args.includes('serve') && args.indexOf('--db') > 0) return {bin: readlinkSync(`/proc/${pid}/exe`), db: args[args.indexOf('--db') + 1]}
    }
  }
  throw new Error(`no tabula serve with --db listening on port ${port}`)
}

/** testCall is one API request from the test itself (no browser; token: a session's), paced as the site's rate limit says. */
async function testCall(method, p, body, token) {
  for (;;) {
    const headers = {Accept: 'application/json'}
    if (body) headers['Content-Type'] = 'application/json'
    if (token) headers.Authorization = 'Bearer ' + token
    const res = await fetch(BASE + '/api' + p, {method, headers, body: body ? JSON.stringify(body) : undefined})
    const json = await res.json().catch(() => null)
    if (res.status === 429 && json?.error?.code === 'rate_limited') {
      await new Promise((r) => setTimeout(r, 1000 * Number(res.headers.get('Retry-After') || 1)))
      continue
    }
    return {status: res.status, body: json}
  }
}

/** joiners registers n players (their names begin with prefix) and has each join the tournament id; it returns their names. */
export async function joiners(id, n, prefix) {
  const names = []
  const one = async (i) => {
    const name = prefix + String(i).padStart(3, '0') + Math.random().toString(36).slice(2, 6)
    const reg = await testCall('POST', '/users', {name, password: 'plum tree ' + Math.random().toString(36).slice(2)})
    assert.equal(reg.status, 201, JSON.stringify(reg.body))
    const joined = await testCall('POST', `/tournaments/${id}/join`, {}, reg.body.token)
    assert.equal(joined.status, 200, JSON.stringify(joined.body))
    names[i] = name
  }
  // A few at a time (the password hashing is the slow part), in joining order by the index.
  for (let i = 0; i < n; i += 6) await Promise.all(Array.from({length: Math.min(6, n - i)}, (_, k) => one(i + k)))
  return names
}
