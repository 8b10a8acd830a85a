// The committed screenshots of issue 24's social pages (docs/screenshots/
// with UPDATE_SCREENSHOTS=1, else web/test/out/): the inbox with a few
// items of different kinds (an invitation already read, a challenge, a
// game where it is the reader's turn) and the challenge dialog, each at
// 1280×800 and 390×844, light and dark (the window as the user sees it,
// not the whole page) — with no sideways scroll, and the dark pages really
// dark.

import {test, before, after} from 'node:test'
import assert from 'node:assert/strict'
import path from 'node:path'
import {launch, newPage, assertNoErrors, BASE, SHOTS, apiPaced, registered, resize, settled} from './helpers.mjs'

let browser
before(async () => {
  browser = await launch()
})
after(async () => {
  await browser?.close()
})

const SIZES = [[1280, 800], [390, 844]]
const SCHEMES = ['light', 'dark']

/** shoot takes the page as it is now at every size and scheme, after ready() holds again. */
async function shoot(page, name, ready, {fullPage = false} = {}) {
  for (const [w, hgt] of SIZES) {
    for (const scheme of SCHEMES) {
      await page.emulateMedia({colorScheme: scheme})
      await resize(page, {width: w, height: hgt})
      await ready()
      await settled(page)
      const sideways = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth)
      assert.equal(sideways, 0, `${name} scrolls sideways at ${w}px (${scheme})`)
      // the page follows the scheme: a dark page's background is dark
      const bg = await page.evaluate(() => [document.body, document.documentElement].map((e) => getComputedStyle(e).backgroundColor)
      .find((c) => c !== 'rgba(0, 0, 0, 0)'))
      const [r, g, b] = bg.match(/\d+/g).map(Number)
      const light = (r + g + b) / 3 > 128
      assert.equal(light, scheme === 'light', `${name}: body background ${bg} in ${scheme}`)
      await page.screenshot({path: path.join(SHOTS, `${name}-${w}x${hgt}-${scheme}.png`), fullPage})
    }
  }
  await page.emulateMedia({colorScheme: 'light'})
  await resize(page, {width: 1280, height: 800})
}

test('screenshots: the inbox with a few items, and the challenge dialog', async () => {
  const alice = await newPage(browser, {viewport: {width: 1280, height: 800}})
  const bob = await newPage(browser)
  const carol = await newPage(browser)
  const an = await registered(alice, 'alice')
  const bn = await registered(bob, 'bob')
  await registered(carol, 'carol')

  // Bob invites alice to a game of Sploof (which she will have read).
  const inv = await apiPaced(bob, 'POST', '/games', {game: 'sploof', seats: [{kind: 'me'}, {kind: 'invite', user: an}]})
  assert.equal(inv.status, 201, JSON.stringify(inv.body))
  // A game without a clock where it is alice's turn.
  const turn = await apiPaced(bob, 'POST', '/games', {game: 'sgolte', seats: [{kind: 'invite', user: an}, {kind: 'me'}]})
  assert.equal(turn.status, 201, JSON.stringify(turn.body))
  assert.equal((await apiPaced(alice, 'POST', `/games/${turn.body.game.id}/join`, {})).status, 200)
  // Carol challenges alice to Sgolte.
  const ch = await apiPaced(carol, 'POST', '/challenges', {game: 'sgolte', players: [an]})
  assert.equal(ch.status, 201, JSON.stringify(ch.body))
  // Alice follows bob, and has read the invitation.
  assert.equal((await apiPaced(alice, 'POST', '/follows/' + bn, {})).status < 300, true)
  const box = (await apiPaced(alice, 'GET', '/inbox')).body
  assert.deepEqual(box.items.map((i) => i.kind).sort(), ['challenge', 'invitation', 'turn'])
  const invite = box.items.find((i) => i.kind === 'invitation')
  assert.equal((await apiPaced(alice, 'POST', '/inbox/read', {ids: [invite.id]})).status, 200)

  await alice.goto(BASE + '/#/inbox')
  // Carol's challenge arrives as a toast on every page (components/challengebanner.js): folded to its badge,
  // so that the toast does not hide the inbox in the pictures.
  await alice.click('[data-test=challenge-badge]')
  await alice.waitForSelector('[data-test=challenge-badge][aria-expanded=false]')
  await shoot(alice, 'inbox', async () => {
    await alice.waitForFunction(() => document.querySelectorAll('[data-test=inbox-item]').length === 3)
    await alice.waitForSelector('[data-test=inbox-item][data-read=true]')
    await alice.waitForFunction(() => Number(document.querySelector('[data-test=inbox-count]')?.textContent) === 2)
  })

  // The challenge dialog, from bob's profile.
  await alice.goto(BASE + '/#/user/' + bn)
  await alice.click('[data-test=challenge-user]')
  await alice.waitForSelector('[data-test=challenge-dialog] [data-test=challenge-game]')
  await alice.selectOption('[data-test=challenge-game]', 'sgolte')
  await shoot(alice, 'challenge-dialog', async () => {
    await alice.waitForSelector('[data-test=challenge-dialog] [data-test=challenge-send]')
    // the dialog's button within the window: it can be sent at every size
    const send = await alice.$eval('[data-test=challenge-send]', (b) => {
      const r = b.getBoundingClientRect()
      return r.bottom <= innerHeight && r.right <= innerWidth && r.left >= 0
    })
    assert.ok(send, 'the Send button lies within the window')
    // every option's select is as wide as its widest value: a copy of it
    // at its own width (auto: the browser's room for its longest option
    // and its arrow) is no wider than the select shown
    const cut = await alice.$$eval('[data-test=challenge-dialog] .challenge-options select', (sels) => sels.map((s) => {
      const copy = s.cloneNode(true)
      Object.assign(copy.style, {width: 'auto', position: 'absolute', visibility: 'hidden'})
      s.parentNode.append(copy)
      const need = copy.getBoundingClientRect().width
      copy.remove()
      const has = s.getBoundingClientRect().width
      return need > has + 0.5 ? `${s.name} needs ${Math.ceil(need)}px, has ${Math.floor(has)}px` : null
    }).filter(Boolean))
    assert.deepEqual(cut, [], "an option's value is cut off")
  })
  for (const p of [alice, bob, carol]) {
    assertNoErrors(p)
    await p.context().close()
  }
})
