// The game room's rows (components/room.js) are drawn again at every offer,
// presence and move; a row that did not change keeps its elements, so an
// Accept being pressed as another offer comes in is still the button that
// was pressed (dom.js renew).

import {test, before, after} from 'node:test'
import assert from 'node:assert/strict'
import {launch, assertNoErrors, api, playByApi, twoPlayers} from './helpers.mjs'

let browser
before(async () => {
  browser = await launch()
})
after(async () => {
  await browser?.close()
})

test('a pending draw offer keeps its Accept button when a takeback offer comes in, and that button still answers', async () => {
  const {alice, bob, id} = await twoPlayers(browser, {game: 'sgolte'})
  await playByApi(alice, id, 1)
  await playByApi(bob, id, 2)
  await bob.click('button[data-test=offer-draw]')
  const accept = await alice.waitForSelector('div[data-test=offer-draw] [data-test=accept]')
  await bob.click('[data-test=takeback]')
  await alice.waitForSelector('div[data-test=offer-takeback] [data-test=accept]')
  assert.ok(await accept.evaluate((el) => el.isConnected), 'the draw offer\'s Accept is the same element after the takeback offer came')
  await accept.click()
  await alice.waitForSelector('[data-test=result]:not([hidden])')
  const r = (await api(alice, 'GET', '/games/' + id)).body.game.result
  assert.deepEqual([r.status, r.reason], ['drawn', 'agreed'])
  for (const p of [alice, bob]) {
    assertNoErrors(p)
    await p.context().close()
  }
})
