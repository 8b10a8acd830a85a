// The game channel survives a dropped connection: the page reconnects by
// itself, resynchronises from the new snapshot, and play goes on.

import {test, before, after} from 'node:test'
import assert from 'node:assert/strict'
import {launch, newPage, assertNoErrors, startBotGame, boardState, clickHit} from './helpers.mjs'

let browser
before(async () => {
  browser = await launch()
})
after(async () => {
  await browser?.close()
})

test('a dropped game channel reconnects and the game goes on', async () => {
  const page = await newPage(browser)
  const sockets = []
  await page.routeWebSocket(/\/api\/games\/[^/]+\/ws$/, (ws) => {
    const server = ws.connectToServer()
    sockets.push({ws, server})
  })
  await startBotGame(page, 'sploof', 'random')
  await page.waitForFunction(() => document.querySelectorAll('.board-svg [data-hit].hit').length > 0)
  let st = await boardState(page)
  await clickHit(page, st.hits[0])
  await page.waitForFunction(() => document.querySelectorAll('[data-test=moves] li').length >= 2 &&
    document.querySelectorAll('.board-svg [data-hit].hit').length > 0)
  const before = (await boardState(page)).moves
  assert.equal(sockets.length, 1)

  // the network drops the connection
  sockets[0].server.close()
  sockets[0].ws.close({code: 1006, reason: 'network gone'})
  await page.waitForFunction(() => document.querySelector('[data-test=conn]').textContent !== '', null, {timeout: 5000}).catch(() => {})
  await page.waitForFunction(() => document.querySelector('[data-test=conn]').textContent === '', null, {timeout: 10000})
  assert.equal(sockets.length, 2, 'the page opened a second connection')

  // the snapshot of the new connection holds the same game, and play goes on
  await page.waitForFunction(() => document.querySelectorAll('.board-svg [data-hit].hit').length > 0)
  st = await boardState(page)
  assert.equal(st.moves, before)
  await clickHit(page, st.hits[0])
  await page.waitForFunction((n) => document.querySelectorAll('[data-test=moves] li').length > n, before)
  assertNoErrors(page)
  await page.context().close()
})
