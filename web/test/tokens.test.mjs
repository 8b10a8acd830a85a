// API tokens and bot accounts (issue 24 item 8, issue 26 item 1): from the
// account page to #/tokens, a read-only token is made, its secret shown
// once, used (last use in the list; a write refused), and revoked; then a
// fresh account becomes a bot account after the irreversible warning and
// its profile shows BOT; the leaderboard's Bots tab. Screenshots at 1280×800 and 390×844.

import {test, before, after} from 'node:test'
import assert from 'node:assert/strict'
import path from 'node:path'
import {launch, newPage, assertNoErrors, allowErrors, BASE, OUT, registered, resize} from './helpers.mjs'

let browser
before(async () => {
  browser = await launch()
})
after(async () => {
  await browser?.close()
})

/** withToken calls the API from the page with a bearer token instead of the session. */
function withToken(page, token, method, p, body) {
  return page.evaluate(async ([token, method, p, body]) => {
    const headers = {Authorization: 'Bearer ' + token}
    if (body) headers['Content-Type'] = 'application/json'
    const res = await fetch('/api' + p, {method, headers, credentials: 'omit', body: body ? JSON.stringify(body) : undefined})
    return {status: res.status, body: await res.json().catch(() => null)}
  }, [token, method, p, body])
}

test('a token is made with a scope, shown once, listed with its last use and revoked; an account becomes a bot', async () => {
  const page = await newPage(browser, {viewport: {width: 1280, height: 800}})
  const name = await registered(page, 'tk')
  await page.click('[data-test=tokens-link]')
  await page.waitForURL(/#\/tokens$/)
  await page.waitForSelector('[data-test=tokens-empty]')

  await page.fill('[data-test=token-name]', 'my script')
  await page.check('[data-test="scope-read"]')
  await page.click('[data-test=token-create]')
  const secret = await page.inputValue('[data-test=token-secret]')
  assert.match(secret, /^tbl_/)
  await page.waitForSelector('[data-test=token-row][data-token="my script"]')
  await page.screenshot({path: path.join(OUT, 'tokens-1280.png'), fullPage: true})

  // Used once: a read works, a write is refused with a clear error.
  assert.equal((await withToken(page, secret, 'GET', '/me')).status, 200)
  const write = await withToken(page, secret, 'POST', '/games', {game: 'sgolte'})
  assert.equal(write.status, 403)
  assert.equal(write.body.error.code, 'scope')

  // Shown once: after "I have copied it" (and on any later visit) only the list remains.
  await page.click('[data-test=token-done]')
  assert.equal(await page.locator('[data-test=token-secret]').count(), 0)
  await page.reload()
  const row = page.locator('[data-test=token-row][data-token="my script"]')
  await row.waitFor()
  assert.match(await row.textContent(), /read/)
  assert.match(await row.locator('[data-test=token-used]').textContent(), /last used/)
  assert.equal(await page.locator('[data-test=token-secret]').count(), 0)
  assert.ok(!(await page.content()).includes(secret), 'the secret is on the page again')

  page.once('dialog', (d) => d.accept())
  await row.locator('[data-test=token-revoke]').click()
  await page.waitForSelector('[data-test=tokens-empty]')
  assert.equal((await withToken(page, secret, 'GET', '/me')).status, 401)

  // Becoming a bot: a warning first, then the account is a bot for good.
  await resize(page, {width: 390, height: 844})
  await page.click('[data-test=become-bot]')
  await page.waitForSelector('[data-test=bot-warning]')
  await page.screenshot({path: path.join(OUT, 'tokens-390.png'), fullPage: true})
  const wide = await page.evaluate(() => document.documentElement.scrollWidth)
  assert.ok(wide <= 390, 'sideways scroll at 390 px: ' + wide)
  await page.click('[data-test=become-bot-confirm]')
  await page.waitForSelector('[data-test=bot-already] [data-test=bot-badge]')

  await page.goto(BASE + '/#/user/' + name)
  await page.waitForSelector('h1 [data-test=bot-badge]')
  assert.equal(await page.textContent('h1 [data-test=bot-badge]'), 'BOT')
  // The bots' leaderboard is a tab of its own.
  await page.goto(BASE + '/#/leaderboard/sgolte')
  await page.click('[data-test=lb-bots]')
  await page.waitForURL(/#\/leaderboard\/sgolte\?bots=1$/)
  await page.waitForSelector('[data-test=lb-bots][aria-current=page]')
  await page.waitForSelector('[data-test=lb-empty]')
  allowErrors(page, /status of (401|403)/) // the refused write and the revoked token, above
  assertNoErrors(page)
  await page.context().close()
})
