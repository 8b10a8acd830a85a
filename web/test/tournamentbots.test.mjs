// Bots in tournaments (issues 25 and 26): a Swiss created through the form
// with "Bot accounts may join" says so in its facts; a bot account joins it
// through the API; the page shows BOT beside the bot's name in the players,
// the round's pairing, the standings and the podium, and beside nobody
// else's. Screenshots at 1280×800 and 390×844.

import {test, before, after} from 'node:test'
import assert from 'node:assert/strict'
import path from 'node:path'
import {launch, newPage, assertNoErrors, apiPaced, registered, resize, SHOTS, waitGameLive} from './helpers.mjs'

let browser
before(async () => {
  browser = await launch()
})
after(async () => {
  await browser?.close()
})

test('a bot account in a Swiss that admits bots is marked BOT', async () => {
  const pa = await newPage(browser, {viewport: {width: 1280, height: 800}})
  const pb = await newPage(browser)
  const ann = await registered(pa, 'tb')
  const robo = await registered(pb, 'bot')
  assert.equal((await apiPaced(pb, 'POST', '/me/bot', {})).status, 200)

  await pa.goto(pa.url().replace(/#.*$/, '#/tournaments'))
  await pa.waitForSelector('[data-test=tn-form]')
  await pa.fill('[data-test=tn-name]', 'Bots welcome ' + ann)
  const start = await pa.evaluate(() => {
    const d = new Date(Date.now() + 12000) // time for both to join, on a loaded machine too
    return new Date(d.getTime() - d.getTimezoneOffset() * 60000).toISOString().slice(0, 19)
  })
  await pa.fill('[data-test=tn-start]', start)
  await pa.selectOption('[data-test=tn-format]', 'swiss')
  await pa.fill('[data-test=tn-rounds]', '1')
  await pa.check('[data-test=tn-bots]')
  await pa.click('[data-test=tn-submit]')
  await pa.waitForURL(/#\/tournament\/[\w-]+$/)
  const id = pa.url().split('/').pop()
  assert.match(await pa.textContent('[data-test=tn-facts]'), /Bots allowed/)
  const joined = await apiPaced(pb, 'POST', `/tournaments/${id}/join`, {})
  assert.equal(joined.status, 200, JSON.stringify(joined.body))
  await pa.click('[data-test=tn-join]')
  await pa.waitForSelector('[data-test=tn-withdraw]')

  const badge = (where, who) => `${where} [data-user="${who}"] [data-test=bot-badge]`
  await pa.waitForSelector(badge('[data-test=tn-players]', robo))
  assert.equal(await pa.$(badge('[data-test=tn-players]', ann)), null, 'a person is marked BOT')

  // Round 1: the pairing shows BOT beside the bot alone.
  await pa.waitForSelector('[data-test=tn-round][data-round="1"] .tn-pair [data-test=bot-badge]', {timeout: 60000})
  assert.equal(await pa.$$eval('[data-test=tn-round][data-round="1"] .tn-pair [data-test=bot-badge]', (l) => l.length), 1)
  const href = await pa.getAttribute('[data-test=tn-round][data-round="1"] a[data-test=tn-game]', 'href')
  const game = decodeURIComponent(href.split('/').pop())
  await waitGameLive(pa, game, {timeout: 30000})
  const resigned = await apiPaced(pa, 'POST', `/games/${game}/resign`, {})
  assert.equal(resigned.status, 200, JSON.stringify(resigned.body))

  // The end: standings and podium mark the bot, the winner.
  await pa.waitForSelector('[data-test=tn-podium] [data-test=bot-badge]', {timeout: 60000})
  await pa.waitForSelector(badge('[data-test=tn-standings]', robo))
  assert.equal(await pa.$(badge('[data-test=tn-standings]', ann)), null, 'a person is marked BOT in the standings')
  await pa.screenshot({path: path.join(SHOTS, 'tournament-bots-1280.png'), fullPage: true})
  await resize(pa, {width: 390, height: 844})
  await pa.waitForSelector(badge('[data-test=tn-standings]', robo))
  await pa.screenshot({path: path.join(SHOTS, 'tournament-bots-390.png'), fullPage: true})
  assertNoErrors(pa)
  assertNoErrors(pb)
})
