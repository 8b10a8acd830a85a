// Challenging a bot account (issue 24 item 4, issue 26's browser
// acceptance): an account made a bot account in the test (POST /api/me/bot)
// with a bot:play token, connected by `tabula bot --engine easy` started
// from the test (the same binary as the server under test; killed by its
// PID afterwards), shows BOT on its profile; a person challenges it from
// there to a game its policy refuses and sees it declined, then to one it
// plays: the connector accepts, and the person plays the game to its end on
// the game page.

import {test, before, after} from 'node:test'
import assert from 'node:assert/strict'
import {spawn} from 'node:child_process'
import path from 'node:path'
import {mkdtempSync, writeFileSync, rmSync} from 'node:fs'
import os from 'node:os'
import {launch, newPage, assertNoErrors, BASE, OUT, api, registered, boardState, clickHit, clickMoveButton, waitUntil, serverProcess} from './helpers.mjs'

let browser
const children = []
const tmp = mkdtempSync(path.join(os.tmpdir(), 'botchallenge-'))
before(async () => {
  browser = await launch()
})
after(async () => {
  // The connectors started here, by their PIDs: a stop (it finishes its
  // games, over by now), and a kill if it has not exited in five seconds.
  for (const c of children) {
    if (c.exitCode !== null || c.signalCode !== null) continue
    const gone = new Promise((resolve) => c.once('exit', resolve))
    process.kill(c.pid, 'SIGTERM')
    const timer = setTimeout(() => process.kill(c.pid, 'SIGKILL'), 5000)
    await gone
    clearTimeout(timer)
  }
  await browser?.close()
  rmSync(tmp, {recursive: true, force: true})
})

/**
 * playToEnd clicks legal moves (board targets, else move buttons) until the
 * result shows; the bot answers at once, so a target read just before its
 * move may be gone when clicked: the state is then read again.
 */
async function playToEnd(page) {
  const ready = '[data-test=result]:not([hidden]), .board-svg [data-hit].hit, [data-test=actions] button[data-move]'
  let misses = 0
  for (let step = 0; step < 2000; step++) {
    await page.waitForSelector(ready, {timeout: 30000})
    const st = await boardState(page)
    if (st.over) return st
    try {
      if (st.hits.length) await clickHit(page, st.hits[Math.floor(Math.random() * st.hits.length)])
      else if (st.buttons.length) await clickMoveButton(page, st.buttons[Math.floor(Math.random() * st.buttons.length)])
    } catch (e) {
      if (++misses > 20) {
        await page.screenshot({path: path.join(OUT, 'botchallenge-stuck.png')})
        throw e
      }
    }
  }
  assert.fail('the game did not end')
}

/** startConnector runs `tabula bot` for the token and resolves once it is connected; its output is kept in .log. */
function startConnector(token, policy) {
  const config = path.join(tmp, 'policy.json')
  writeFileSync(config, JSON.stringify(policy))
  const child = spawn(process.env.TABULA_BIN || serverProcess().bin, ['bot', '--server', BASE, '--engine', 'easy', '--config', config], {
    env: {...process.env, TABULA_TOKEN: token}, stdio: ['ignore', 'pipe', 'pipe']})
  children.push(child)
  child.log = ''
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('tabula bot did not connect:\n' + child.log)), 20000)
    const read = (d) => {
      child.log += d
      if (/connected to/.test(child.log)) {
        clearTimeout(timer)
        resolve(child)
      }
    }
    child.stdout.on('data', read)
    child.stderr.on('data', read)
    child.once('exit', (code) => {
      clearTimeout(timer)
      reject(new Error(`tabula bot exited ${code}:\n${child.log}`)) // no-op once connected
    })
  })
}

test('a bot account: BOT on its profile, challenged from there, accepts, and the game is played to its end', async () => {
  // The bot's account: registered, made a bot account, given a bot:play token.
  const owner = await newPage(browser)
  const botName = await registered(owner, 'rb')
  assert.equal((await api(owner, 'POST', '/me/bot')).status, 200)
  const tok = await api(owner, 'POST', '/tokens', {name: 'connector', scopes: ['bot:play']})
  assert.equal(tok.status, 201)
  const bot = await startConnector(tok.body.token, {games: ['sgolte']})
  await owner.close()

  const u = await newPage(browser, {viewport: {width: 1280, height: 800}})
  await registered(u, 'bh')
  await u.goto(BASE + '/#/user/' + botName)
  assert.equal(await (await u.waitForSelector('h1 [data-test=bot-badge]')).textContent(), 'BOT')
  const challenge = async (game) => {
    await u.click('[data-test=challenge-user]')
    await u.waitForSelector('[data-test=challenge-dialog] [data-test=challenge-game]')
    await u.selectOption('[data-test=challenge-game]', game)
    await u.selectOption('[data-test=challenge-seat]', '0')
    await u.click('[data-test=challenge-send]')
  }
  // A game its policy does not play: declined, and the challenger's dialog says so.
  await challenge('sploof')
  await u.waitForFunction((name) => document.querySelector('[data-test=challenge-status]')?.textContent.startsWith(name + ' declined'), botName)
  await u.keyboard.press('Escape')
  await u.waitForSelector('[data-test=challenge-dialog]', {state: 'detached'})
  await challenge('sgolte')
  // The connector accepts; the challenger's page opens the game.
  await u.waitForURL(/#\/game\//, {timeout: 20000})
  await waitUntil(() => /challenge \S+ from bh\S* \(sgolte, clock none, unrated\): accepted/.test(bot.log), {what: 'the connector logs its accept'})
  await u.waitForSelector('.board-svg [data-hit]')
  const end = await playToEnd(u)
  assert.ok(end.moves > 2, 'moves played: ' + end.moves)
  assert.ok(end.result, 'a result is shown')
  assertNoErrors(u)
})
