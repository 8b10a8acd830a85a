// dom.js renewTree and renew, on their own: children with a data-key are matched by
// key (a new row at the top of a list leaves the others the same elements,
// rows gone are taken out, rows that moved are moved), the others by place,
// as before; what changed inside a kept element is renewed in turn, and a
// keyed element whose attributes changed is kept with its new attributes.

import {test, before, after} from 'node:test'
import assert from 'node:assert/strict'
import {launch, newPage, assertNoErrors, BASE} from './helpers.mjs'

let browser
before(async () => {
  browser = await launch()
})
after(async () => {
  await browser?.close()
})

test('renewTree and renew match children with a data-key by key, the others by place', async () => {
  const page = await newPage(browser)
  await page.goto(BASE + '/#/rules')
  const got = await page.evaluate(async () => {
    const {h, renew, renewTree} = await import('/js/dom.js')
    const row = (id, text) => h('li', {'data-key': id}, h('a', {href: '#/x/' + id}, id), ' ', h('span', {}, text))
    const keys = (box) => [...box.children].map((li) => li.dataset.key).join(' ')
    const out = {}
    const box = h('ul', {}, row('b', '1'), row('c', '1'), row('d', '1'))
    const [b, c, d] = box.children
    const cLink = c.firstChild
    // a row at the top, c's text changed, d gone
    renewTree(box, h('ul', {}, row('a', '1'), row('b', '1'), row('c', '2')))
    out.inserted = {keys: keys(box), b: box.children[1] === b, c: box.children[2] === c, cLink: box.children[2].firstChild === cLink,
      cText: box.children[2].textContent, dGone: !box.contains(d)}
    const a = box.children[0]
    // the order changed: the rows are moved, not made anew
    renewTree(box, h('ul', {}, row('c', '2'), row('a', '1'), row('b', '1')))
    out.moved = {keys: keys(box), same: box.children[0] === c && box.children[1] === a && box.children[2] === b}
    // keys that repeat are matched in turn
    const twice = h('ul', {}, row('x', '1'), row('x', '2'))
    const [x1, x2] = twice.children
    renewTree(twice, h('ul', {}, row('y', '1'), row('x', '1'), row('x', '2')))
    out.repeated = {keys: keys(twice), same: twice.children[1] === x1 && twice.children[2] === x2}
    // children without a key: by place, as before (a changed paragraph keeps its element, another tag is new)
    const div = h('div', {}, h('p', {class: 'n'}, 'one'), h('ul', {}, row('a', '1')), h('em', {}, 'e'))
    const [p, ul] = div.children
    const li = ul.firstChild
    renewTree(div, h('div', {}, h('p', {class: 'n'}, 'two'), h('ul', {}, row('z', '1'), row('a', '1')), h('strong', {}, 'e')))
    out.placed = {p: div.children[0] === p, pText: p.textContent, ul: div.children[1] === ul, li: ul.children[1] === li, keys: keys(ul),
      last: div.children[2].tagName, html: div.innerHTML}
    // renew: the same matching one level down only — a row whose text changed is a new element
    const list = h('ul', {}, row('p', '1'), row('q', '1'))
    const [pr, qr] = list.children
    renew(list, h('ul', {}, row('o', '1'), row('p', '1'), row('q', '2')))
    out.shallow = {keys: keys(list), p: list.children[1] === pr, qNew: list.children[2] !== qr, qText: list.children[2].textContent}
    // a keyed row whose attributes changed is kept, its attributes set; an unkeyed element is not
    const rows = h('ul', {}, h('li', {'data-key': 'r', class: 'seat to-move', title: 't'}, h('a', {href: '#/u/r'}, 'r')), h('p', {class: 'a'}, 'p'))
    const [rr, pp] = rows.children
    const rLink = rr.firstChild
    renewTree(rows, h('ul', {}, h('li', {'data-key': 'r', class: 'seat', lang: 'en'}, h('a', {href: '#/u/r'}, 'r')), h('p', {class: 'b'}, 'p')))
    out.attrs = {row: rows.children[0] === rr, link: rr.firstChild === rLink, html: rows.innerHTML, pNew: rows.children[1] !== pp}
    return out
  })
  assert.deepEqual(got.inserted, {keys: 'a b c', b: true, c: true, cLink: true, cText: 'c 2', dGone: true})
  assert.deepEqual(got.moved, {keys: 'c a b', same: true})
  assert.deepEqual(got.repeated, {keys: 'y x x', same: true})
  const {html, ...placed} = got.placed
  assert.deepEqual(placed, {p: true, pText: 'two', ul: true, li: true, keys: 'z a', last: 'STRONG'})
  assert.equal(html, '<p class="n">two</p><ul><li data-key="z"><a href="#/x/z">z</a> <span>1</span></li><li data-key="a"><a href="#/x/a">a</a> <span>1</span></li></ul><strong>e</strong>')
  assert.deepEqual(got.shallow, {keys: 'o p q', p: true, qNew: true, qText: 'q 2'})
  assert.deepEqual(got.attrs, {row: true, link: true, html: '<li data-key="r" class="seat" lang="en"><a href="#/u/r">r</a></li><p class="b">p</p>', pNew: true})
  assertNoErrors(page)
  await page.context().close()
})
