// Screenshots of issue 27's acceptance: the game review, each game mid-game
// (Sgolte, Sploof, Skjuub, Skyjo), the game room with the chat and a draw
// offer, and Home while pairing — at 1280×800 and 390×844, light and dark,
// in English and Korean: 7 scenes × 8 combinations, written as
// docs/screenshots/issue27/SCENE-LANG-WxH-THEME.png with UPDATE_SCREENSHOTS=1
// (web/test/out/issue27/ with TABULA_SCREENSHOTS=1). The games are made once
// and each combination is one browser context, signed in as the same
// players (their cookies), looking at the same games.
//
// It costs four bot games, a Skyjo review and 56 page loads — 7 minutes on
// the shared two-core machine at a load of 50, more than web/test/run's 8
// minutes a file at a load of 80 (then run it with node --test and a longer
// --test-timeout against a server of the same flags) — so the suite runs it
// only when asked: TABULA_SCREENSHOTS=1 or UPDATE_SCREENSHOTS=1. Beside the pictures it checks what a picture can
// hide: no sideways scroll on the phone, no untranslated key on the page,
// the page in the asked language and scheme, no console error.

import {test, before, after} from 'node:test'
import assert from 'node:assert/strict'
import path from 'node:path'
import {mkdirSync} from 'node:fs'
import {launch, newPage, assertNoErrors, guest, api, createGame, playByApi, settled, waitUntil, BASE, OUT, SHOTS} from './helpers.mjs'

const ASKED = !!(process.env.TABULA_SCREENSHOTS || process.env.UPDATE_SCREENSHOTS)
const DIR = path.join(process.env.UPDATE_SCREENSHOTS ? SHOTS : OUT, 'issue27')
// SCREENS27_LANGS=en (or ko) takes one language's half, so that two
// processes can share the work.
const LANGS = (process.env.SCREENS27_LANGS || 'en,ko').split(',')

let browser
before(async () => {
  if (ASKED) browser = await launch()
})
after(async () => {
  await browser?.close()
})

const clock = {kind: 'realtime', initialMs: 1800000, incrementMs: 5000}
const plies = {sgolte: 16, sploof: 14, skjuub: 14, skyjo: 24}

/** botGame makes a game of the page's user against a random bot some plies in, still live. */
async function botGame(page, game) {
  for (let tries = 0; ; tries++) {
    const g = await createGame(page, {game, options: game === 'skyjo' ? {players: '2'} : {},
      seats: [{kind: 'me'}, {kind: 'bot', level: 'random'}], clock})
    await playByApi(page, g.id, plies[game])
    if ((await api(page, 'GET', '/games/' + g.id)).body.game.status === 'live') return g.id
    assert.ok(tries < 5, `no live ${game} game after ${tries + 1} tries`)
  }
}

/** cookies is the context's sign-in, to open other contexts as the same user. */
async function cookies(page) {
  return {cookies: await page.context().cookies(), origins: []}
}

/** context opens a page in a new context of this size, scheme and language, signed in as who. */
async function open(who, {width, height, theme, lang}) {
  const context = await browser.newContext({viewport: {width, height}, colorScheme: theme,
    locale: lang === 'ko' ? 'ko-KR' : 'en-US', storageState: who})
  const page = await context.newPage()
  page.setDefaultTimeout(90000) // a busy machine: a page's first load took longer than 15 s
  page.errors = []
  page.on('console', (m) => {
    if (m.type() === 'error') page.errors.push('console: ' + m.text())
  })
  page.on('pageerror', (e) => page.errors.push('pageerror: ' + e.message))
  return page
}

/**
 * look checks the page as it stands and photographs it: the asked
 * language and scheme, no sideways scroll, no untranslated key shown.
 */
async function look(page, name, combo, {fullPage = false} = {}) {
  await page.evaluate(() => scrollTo(0, 0))
  await settled(page)
  const seen = await page.evaluate(async () => {
    const en = (await import('/js/lang/en.js')).default
    const text = document.body.innerText
    const bg = getComputedStyle(document.documentElement).backgroundColor.match(/\d+/g).map(Number)
    return {
      lang: document.documentElement.lang,
      wide: document.documentElement.scrollWidth - innerWidth,
      keys: Object.keys(en).filter((k) => /^[a-z]+\.[a-zA-Z.]+$/.test(k) && text.includes(k)),
      light: (bg[0] + bg[1] + bg[2]) / 3 > 128,
    }
  })
  const what = `${name} (${combo.lang}, ${combo.width}x${combo.height}, ${combo.theme})`
  assert.equal(seen.lang, combo.lang, what + ': the page language')
  assert.equal(seen.light, combo.theme === 'light', what + ': the page background follows the scheme')
  assert.ok(seen.wide <= 0, `${what}: ${seen.wide} px of sideways scroll`)
  assert.deepEqual(seen.keys, [], what + ': untranslated keys on the page')
  await page.screenshot({path: path.join(DIR, `${name}-${combo.lang}-${combo.width}x${combo.height}-${combo.theme}.png`), fullPage})
}

test('issue 27 screenshots: review, four games, the room with an offer, Home while pairing; both sizes, light and dark, English and Korean',
  // up to 25 minutes (web/test/run's per-file limit of 8 still applies under it)
  {skip: !ASKED && 'set TABULA_SCREENSHOTS=1 (or UPDATE_SCREENSHOTS=1) to take them', timeout: 1500000}, async () => {
    mkdirSync(DIR, {recursive: true})
    // One (A) plays Sgolte, Sploof and Skjuub against bots and pairs from
    // Home; the other (B) has a Skyjo game against a bot, a finished one to
    // review (a guest may have three bot games going), and the room's game
    // against A, in which A offered a draw after a chat.
    const a = await newPage(browser, {viewport: {width: 1280, height: 800}})
    const b = await newPage(browser, {viewport: {width: 1280, height: 800}})
    for (const p of [a, b]) p.setDefaultTimeout(90000)
    await guest(a)
    await guest(b)
    const games = {}
    for (const game of ['sgolte', 'sploof', 'skjuub']) games[game] = await botGame(a, game)
    games.skyjo = await botGame(b, 'skyjo')
    // the review: one round of Skyjo against the easy bot, reviewed once here (the site keeps it)
    const r = await createGame(b, {game: 'skyjo', options: {players: '2', target: '1'}, seats: [{kind: 'me'}, {kind: 'bot', level: 'easy'}]})
    await playByApi(b, r.id)
    await b.goto(BASE + '/#/review/' + r.id)
    await b.waitForSelector('[data-test=review-counts] tr + tr th', {timeout: 200000})

    const room = await createGame(a, {game: 'sgolte', clock, seats: [{kind: 'me'}, {kind: 'open'}]})
    assert.equal((await api(b, 'POST', `/games/${room.id}/join`, {})).status, 200)
    await playByApi(a, room.id, 1)
    await playByApi(b, room.id, 2)
    await playByApi(a, room.id, 3)
    for (const p of [a, b]) {
      await p.goto(BASE + '/#/game/' + room.id)
      await p.waitForSelector('[data-test=chat-input]')
    }
    const an = (await api(a, 'GET', '/session')).body.user.name
    for (const [p, line] of [[a, 'gl hf'], [b, 'you too!'], [a, '좋은 게임 하세요 — draw?']]) {
      await p.fill('[data-test=chat-input]', line)
      await p.press('[data-test=chat-input]', 'Enter')
      await (p === a ? b : a).waitForSelector(`[data-test=chat-log] >> text=${line}`)
    }
    await a.click('[data-test=offer-draw]')
    await b.waitForSelector('[data-test=offer-draw] [data-test=accept]')
    const A = await cookies(a)
    const B = await cookies(b)

    for (const lang of LANGS) {
      for (const [width, height] of [[1280, 800], [390, 844]]) {
        for (const theme of ['light', 'dark']) {
          const combo = {width, height, theme, lang}
          const pa = await open(A, combo)
          for (const game of ['sgolte', 'sploof', 'skjuub']) {
            await pa.goto(BASE + '/#/game/' + games[game])
            await pa.waitForSelector('.board-svg [data-hit]')
            await pa.waitForFunction(() => /\d:\d\d/.test(document.querySelector('[data-test=seats] .clock')?.textContent))
            await look(pa, 'game-' + game, combo)
          }
          // Home while pairing (Sploof at 3+2 blitz: no other test asks for it), then cancelled
          await pa.goto(BASE + '/')
          await pa.waitForSelector('[data-test=pair-sploof]')
          await pa.selectOption('[data-test=pair-clock]', 'blitz')
          await pa.click('[data-test=pair-sploof]')
          await pa.waitForSelector('[data-test=pair-waiting]')
          await look(pa, 'home-pairing', combo)
          await pa.click('[data-test=pair-cancel]')
          await pa.waitForSelector('[data-test=pair-waiting]', {state: 'detached'})
          assertNoErrors(pa)
          await pa.context().close()

          const pb = await open(B, combo)
          await pb.goto(BASE + '/#/game/' + games.skyjo)
          await pb.waitForSelector('.board-svg [data-hit]')
          await look(pb, 'game-skyjo', combo)
          await pb.goto(BASE + '/#/game/' + room.id)
          await pb.waitForSelector('[data-test=offer-draw] [data-test=accept]')
          await pb.waitForSelector(`[data-test=chat-log] >> text=${an}`)
          await waitUntil(() => pb.$$eval('[data-test=chat-log] .chat-text', (els) => els.length >= 3), {what: 'the chat\'s three lines'})
          await look(pb, 'game-room-offer', combo)
          await pb.goto(BASE + '/#/review/' + r.id)
          await pb.waitForSelector('[data-test=review-counts] tr + tr th')
          await look(pb, 'review-skyjo', combo, {fullPage: width < 500})
          assertNoErrors(pb)
          await pb.context().close()
        }
      }
    }
    for (const p of [a, b]) {
      assertNoErrors(p)
      await p.context().close()
    }
  })
