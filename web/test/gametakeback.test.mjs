// Takebacks on the game page (issue 17; docs/api.md, "The game room"):
// against a bot at once (my move and its reply), never in Skyjo; between
// two players a request, declined, refused when asked again at the same
// move (the page says why), then accepted.

import {test, before, after} from 'node:test'
import assert from 'node:assert/strict'
import {launch, newPage, assertNoErrors, guest, api, createGame, playByApi, twoPlayers, BASE} from './helpers.mjs'

let browser
before(async () => {
  browser = await launch()
})
after(async () => {
  await browser?.close()
})

const moveCount = (page) => page.$$eval('[data-test=moves] li', (els) => els.length)
const waitMoves = (page, n) => page.waitForFunction((k) => document.querySelectorAll('[data-test=moves] li').length === k, n)

async function close(...pages) {
  for (const p of pages) {
    assertNoErrors(p)
    await p.context().close()
  }
}

test('takeback against a bot: at once, my move and the bot reply; never in Skyjo', async () => {
  const page = await newPage(browser)
  await guest(page)
  const g = await createGame(page, {game: 'sgolte', seats: [{kind: 'me'}, {kind: 'bot', level: 'random'}]})
  await playByApi(page, g.id, 6)
  await page.goto(BASE + '/#/game/' + g.id)
  await page.waitForSelector('.board-svg [data-hit].hit') // my turn, after the bot's reply
  assert.equal(await moveCount(page), 6)
  assert.equal(await page.textContent('[data-test=takeback]'), 'Take back')
  assert.equal(await page.isVisible('[data-test=offer-draw]'), false, 'no draw offers to a bot')
  await page.click('[data-test=takeback]')
  await waitMoves(page, 4)
  await page.waitForSelector('.board-svg [data-hit].hit')
  assert.equal((await api(page, 'GET', '/games/' + g.id)).body.moves.length, 4)
  await page.click('[data-test=takeback]')
  await waitMoves(page, 2)
  await page.waitForSelector('.board-svg [data-hit].hit')
  // the moves after a takeback are new ones: the list and the board follow
  await playByApi(page, g.id, 4)
  await waitMoves(page, 4)
  assert.equal(await page.isVisible('[data-test=room-error]'), false)

  // Skyjo reveals a card with nearly every action: no takebacks there
  const s = await createGame(page, {game: 'skyjo', options: {players: '2'}, seats: [{kind: 'me'}, {kind: 'bot', level: 'random'}]})
  await playByApi(page, s.id, 4)
  await page.goto(BASE + '/#/game/' + s.id)
  await page.waitForSelector('[data-test=resign]')
  assert.equal(await page.isVisible('[data-test=takeback]'), false)
  await close(page)
})

test('a takeback request between two players: declined, asked again at once (refused), then accepted', async () => {
  const {alice, bob, an, bn, id} = await twoPlayers(browser, {game: 'sploof', options: {first: 'white'}})
  await playByApi(alice, id, 1)
  await playByApi(bob, id, 2)
  await playByApi(alice, id, 3)
  for (const p of [alice, bob]) await waitMoves(p, 3)
  assert.match(await alice.getAttribute('[data-test=takeback]', 'title'), /Ask the other players/)
  await alice.click('[data-test=takeback]')
  await alice.waitForSelector('[data-test=offer-takeback] >> text=You asked to take back your last move.')
  await bob.waitForSelector(`[data-test=offer-takeback] >> text=${an} asks to take back their last move.`)
  await bob.click('[data-test=offer-takeback] [data-test=decline]')
  await alice.waitForSelector(`[data-test=offer-note] >> text=Takeback declined by: ${bn}.`)
  await bob.waitForSelector('[data-test=offer-takeback]', {state: 'detached'})
  // asked again at the same move: the server refuses, the page says why
  await alice.click('[data-test=takeback]')
  await alice.waitForSelector('[data-test=room-error] >> text=You made that offer at this move already; wait for the next move.')
  assert.equal(await moveCount(alice), 3)

  // bob plays on; alice asks again after her next move and bob accepts
  await playByApi(bob, id, 4)
  await playByApi(alice, id, 5)
  for (const p of [alice, bob]) await waitMoves(p, 5)
  await alice.click('[data-test=takeback]')
  await bob.waitForSelector('[data-test=offer-takeback] [data-test=accept]')
  await bob.click('[data-test=offer-takeback] [data-test=accept]')
  for (const p of [alice, bob]) await waitMoves(p, 4)
  const g = (await api(alice, 'GET', '/games/' + id)).body
  assert.equal(g.moves.length, 4)
  assert.equal(g.game.toMove, 0, "alice's move again")
  await alice.waitForSelector('.board-svg [data-hit].hit')
  for (const p of [alice, bob]) assert.equal(await p.isVisible('[data-test=offer-takeback]'), false)
  await close(alice, bob)
})
