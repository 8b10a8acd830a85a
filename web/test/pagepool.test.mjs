// helpers.mjs's newPage hands a later test a page an earlier test used,
// made new (the pool: a fresh context costs Chromium about twice a load).
// A test must not see what the one before it left: its user, its storage,
// its page's script, what it kept on the page object; and a page a test
// changed beyond a visit (an init script, a listener) is not handed on.
// The tests run in order, each checking what the one before left.

import {test, before, after} from 'node:test'
import assert from 'node:assert/strict'
import {launch, newPage, guest, api, BASE} from './helpers.mjs'

let browser
before(async () => {
  browser = await launch()
})
after(async () => {
  await browser?.close()
})

let first, firstUser
test('a page used by a test: a guest, storage, a value kept on the page object', async () => {
  first = await newPage(browser)
  await guest(first)
  firstUser = (await api(first, 'GET', '/session')).body?.user?.name
  assert.ok(firstUser)
  await first.evaluate(() => {
    localStorage.setItem('tabula.sound', 'on')
    sessionStorage.setItem('x', '1')
  })
  first.gameId = 'kept'
})

let second
test('the next test gets that page back signed out, empty, at about:blank, with nothing kept', async () => {
  second = await newPage(browser)
  assert.equal(second, first, 'the page is handed on')
  assert.equal(second.url(), 'about:blank')
  assert.equal(second.gameId, undefined)
  assert.deepEqual(second.errors, [])
  assert.deepEqual(await second.context().cookies(), [])
  assert.deepEqual(second.viewportSize(), {width: 1280, height: 900})
  await second.goto(BASE + '/#/account')
  assert.deepEqual(await second.evaluate(() => [localStorage.length, sessionStorage.length]), [0, 0])
  assert.notEqual((await api(second, 'GET', '/session')).body?.user?.name, firstUser, 'the last test\'s user')
  // changed beyond a visit: an init script (on a page handed on once already)
  await second.addInitScript(() => { window.marked = true })
})

test('a page changed beyond a visit is closed, not handed on; a fresh one is asked for by name', async () => {
  assert.equal(second.isClosed(), true)
  const third = await newPage(browser)
  assert.notEqual(third, second)
  await guest(third)
  const listened = await newPage(browser)
  listened.on('dialog', () => {})
  await listened.context().close() // a test's own close: closed, its listener with it
  assert.equal(listened.isClosed(), true)
  await third.context().close() // a test's own close of a clean page: handed on
  assert.equal(third.isClosed(), false)
  assert.equal(await newPage(browser), third)
  assert.notEqual(await newPage(browser, {fresh: true}), third)
})

test('a page is handed on only to a test that asks for its context\'s size and language', async () => {
  const phone = await newPage(browser, {viewport: {width: 390, height: 844}})
  await phone.context().close()
  assert.equal(phone.isClosed(), false, 'handed on')
  const laptop = await newPage(browser, {viewport: {width: 1280, height: 800}})
  assert.notEqual(laptop, phone, 'a phone\'s context for a laptop')
  // a second tab in the laptop's context is a laptop's too
  const tab = await laptop.context().newPage()
  assert.deepEqual(tab.viewportSize(), {width: 1280, height: 800})
  assert.notEqual(await newPage(browser, {locale: 'ko-KR', viewport: {width: 390, height: 844}}), phone)
  assert.equal(await newPage(browser, {viewport: {width: 390, height: 844}}), phone)
})
