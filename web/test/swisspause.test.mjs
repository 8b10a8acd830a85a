// Swiss pause (issue 25): a player in a Swiss pauses from the tournament's
// page and resumes from it; the API shows the pause in between. Only the
// player's own button: the other player's page still offers them Pause.

import {test, before, after} from 'node:test'
import assert from 'node:assert/strict'
import {launch, newPage, assertNoErrors, BASE, apiPaced, registered} from './helpers.mjs'

let browser
before(async () => {
  browser = await launch()
})
after(async () => {
  await browser?.close()
})

async function pausedOf(page, id) {
  const r = await apiPaced(page, 'GET', '/tournaments/' + id)
  assert.equal(r.status, 200, JSON.stringify(r.body))
  return Object.fromEntries(r.body.players.map((p) => [p.name, !!p.paused]))
}

test('a Swiss player pauses and resumes from the page', async () => {
  const pa = await newPage(browser)
  const pb = await newPage(browser)
  const [a, b] = [await registered(pa, 'sp'), await registered(pb, 'sp')]
  const created = await apiPaced(pa, 'POST', '/tournaments', {name: 'Pause ' + a, format: 'swiss', game: 'sgolte', rounds: 3,
    start: new Date(Date.now() + 3600e3).toISOString()})
  assert.equal(created.status, 201, JSON.stringify(created.body))
  const id = created.body.tournament.id
  for (const p of [pa, pb]) assert.equal((await apiPaced(p, 'POST', `/tournaments/${id}/join`)).status, 200)

  for (const p of [pa, pb]) await p.goto(BASE + '/#/tournament/' + id)
  await pb.click('[data-test=tn-pause]')
  await pb.waitForSelector('[data-test=tn-resume]')
  assert.deepEqual(await pausedOf(pa, id), {[a]: false, [b]: true})
  // a's page, reloaded, still offers a her own Pause.
  await pa.reload()
  await pa.waitForSelector('[data-test=tn-pause]')
  assert.equal(await pa.$('[data-test=tn-resume]'), null)

  await pb.click('[data-test=tn-resume]')
  await pb.waitForSelector('[data-test=tn-pause]')
  assert.deepEqual(await pausedOf(pa, id), {[a]: false, [b]: false})
  assertNoErrors(pa)
  assertNoErrors(pb)
})
