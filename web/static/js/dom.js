// Small DOM helpers: h() builds HTML elements, s() SVG elements. Attributes
// whose value is null, undefined or false are left out; "on*" keys with a
// function value become event listeners.

const SVG_NS = 'http://www.w3.org/2000/svg'

function apply(node, attrs) {
  for (const [k, v] of Object.entries(attrs || {})) {
    if (v === null || v === undefined || v === false) continue
    if (k.startsWith('on') && typeof v === 'function') node.addEventListener(k.slice(2), v)
    else if (k === 'text') node.textContent = v
    else if (k === 'dataset') Object.assign(node.dataset, v)
    else node.setAttribute(k, v === true ? '' : String(v))
  }
}

function append(node, children) {
  for (const c of children.flat(Infinity)) {
    if (c === null || c === undefined || c === false) continue
    node.append(c instanceof Node ? c : document.createTextNode(String(c)))
  }
}

/** h('button', {class: 'x', onclick: fn}, 'label', child…) */
export function h(tag, attrs, ...children) {
  const node = document.createElement(tag)
  apply(node, attrs)
  append(node, children)
  return node
}

/** s(parent, 'circle', {cx, cy, r}) appends an SVG element to parent (may be null). */
export function s(parent, tag, attrs, text) {
  const node = document.createElementNS(SVG_NS, tag)
  apply(node, attrs)
  if (text !== undefined) node.textContent = text
  if (parent) parent.append(node)
  return node
}

/** svgRoot creates an <svg> with a viewBox and named layer groups (returned by name). */
export function svgRoot(viewBox, layerNames, attrs = {}) {
  const svg = s(null, 'svg', {viewBox, xmlns: SVG_NS, ...attrs})
  const layers = {}
  for (const name of layerNames) layers[name] = s(svg, 'g', {class: 'layer-' + name})
  return {svg, layers}
}

export function clear(node) {
  while (node.firstChild) node.removeChild(node.lastChild)
}

/**
 * renew gives box the children of fresh (a detached element built anew),
 * child by child: where box's child at a place is the same as fresh's
 * (isEqualNode: tags, attributes and text, not listeners) it stays, and
 * only the others are put in or taken out. A row of buttons drawn again at
 * every event of a game keeps the very buttons a player is pressing — a
 * click whose press and release land on two different elements is no
 * click — and an open menu stays open, even when another row changed.
 * A child with a data-key is matched with box's child of the same key
 * wherever it is, not by place: a list that grows at its head (the latest
 * game first) or whose rows come and go keeps the rows still there.
 */
export function renew(box, fresh) {
  renewChildren(box, [...fresh.childNodes], false)
}

/**
 * renewTree is renew all the way down: where an element of box and its
 * counterpart in fresh have the same tag and attributes but other
 * children, the element stays and its children are renewed in turn, so
 * only the text and the elements that changed are replaced. An element
 * with a data-key is kept even when its attributes changed (they are set
 * on it): a row whose class says it is to move keeps the link in it. It
 * keeps listeners of the old elements, so it is for trees whose elements
 * carry none: one listener on box reads what to do from the target's data-*.
 */
export function renewTree(box, fresh) {
  renewChildren(box, [...fresh.childNodes], true)
}

const keyOf = (n) => (n.nodeType === Node.ELEMENT_NODE ? n.getAttribute('data-key') : null)

// renewChildren makes box's children next, keeping those of box that are
// the same (deep: or the same but for their children, renewed in turn): a
// keyed child is matched with box's first unmatched child of that key, an
// unkeyed one with box's unkeyed child at its place. The children that go
// are taken out first and the others put in or moved only where the order
// differs, so a child that stays in place is never moved — a moved element
// loses focus, closes its open list and drops a press in progress.
function renewChildren(box, next, deep) {
  const wanted = new Map() // key → how many of next carry it
  for (const n of next) {
    const k = keyOf(n)
    if (k !== null) wanted.set(k, (wanted.get(k) || 0) + 1)
  }
  const byKey = new Map() // key → box's children with it, in order
  for (const o of [...box.childNodes]) {
    const k = keyOf(o)
    if (k === null) continue
    const q = byKey.get(k) || []
    if (q.length < (wanted.get(k) || 0)) byKey.set(k, [...q, o])
    else o.remove()
  }
  let at = box.firstChild // box's children before it are next's, in order
  for (const n of next) {
    const k = keyOf(n)
    let o = null
    if (k !== null) o = byKey.get(k)?.shift() || null
    else if (at && keyOf(at) === null) o = at
    let keep = n
    if (o && o.isEqualNode(n)) keep = o
    else if (deep && o && o.nodeType === Node.ELEMENT_NODE && n.nodeType === Node.ELEMENT_NODE &&
      (sameShell(o, n) || (k !== null && o.namespaceURI === n.namespaceURI && o.tagName === n.tagName))) {
      // a keyed element is the same thing whatever its attributes say now
      // (a row marked to move, then not): they are set on it in place
      if (k !== null) setAttributes(o, n)
      renewChildren(o, [...n.childNodes], true)
      keep = o
    } else if (o) {
      if (o === at) at = o.nextSibling
      o.remove()
    }
    if (keep === at) at = at.nextSibling
    else box.insertBefore(keep, at)
  }
  while (at) {
    const o = at
    at = at.nextSibling
    o.remove()
  }
}

// setAttributes gives element o the attributes of n, and only those.
function setAttributes(o, n) {
  for (const at of [...o.attributes]) {
    if (!n.hasAttributeNS(at.namespaceURI, at.localName)) o.removeAttributeNS(at.namespaceURI, at.localName)
  }
  for (const at of n.attributes) {
    if (o.getAttributeNS(at.namespaceURI, at.localName) !== at.value) o.setAttributeNS(at.namespaceURI, at.name, at.value)
  }
}

// sameShell: the same element but for its children.
function sameShell(a, b) {
  if (a.namespaceURI !== b.namespaceURI || a.tagName !== b.tagName || a.attributes.length !== b.attributes.length) return false
  for (const at of a.attributes) {
    if (b.getAttributeNS(at.namespaceURI, at.localName) !== at.value) return false
  }
  return true
}

/**
 * fmtTime formats an RFC 3339 time for people, in the page's language.
 * A browser without date data for the language (Mongolian, in many) would
 * write it in English: then it is written in the language's own pattern
 * (OWN_DATES), numbers only but for the words of that pattern.
 */
export function fmtTime(iso, lang) {
  if (!iso) return ''
  const d = new Date(iso)
  if (Number.isNaN(d.getTime())) return iso
  try {
    if (OWN_DATES[lang] && !hasDates(lang)) return ownDate(d, OWN_DATES[lang])
    return d.toLocaleString(lang, {dateStyle: 'medium', timeStyle: 'short'})
  } catch {
    return iso
  }
}

// The patterns of the languages whose date data a browser may lack:
// Mongolian's "2026 оны 12-р сарын 1, 15:04".
const OWN_DATES = {mn: '{y} оны {m}-р сарын {d}, {H}:{M}'}

/** hasDates: the browser formats dates in lang itself (not a fallback). */
export function hasDates(lang) {
  return Intl.DateTimeFormat.supportedLocalesOf([lang]).length > 0 &&
    new Intl.DateTimeFormat(lang).resolvedOptions().locale.split('-')[0] === lang
}

function ownDate(d, pattern) {
  const two = (n) => String(n).padStart(2, '0')
  const parts = {y: d.getFullYear(), m: d.getMonth() + 1, d: d.getDate(), H: two(d.getHours()), M: two(d.getMinutes())}
  return pattern.replace(/\{(\w)\}/g, (_, k) => String(parts[k]))
}

/**
 * scrollIntoList scrolls list (a scrolling container) just enough to show
 * item whole, and nothing else: unlike scrollIntoView it never moves the page.
 */
export function scrollIntoList(list, item) {
  const l = list.getBoundingClientRect()
  const r = item.getBoundingClientRect()
  const top = l.top + list.clientTop
  const bottom = top + list.clientHeight
  if (r.top < top) list.scrollTop -= top - r.top
  else if (r.bottom > bottom) list.scrollTop += r.bottom - bottom
}

/**
 * beforeFrame returns a function that runs fn before the next frame is
 * drawn, once however many times it is called before then: work that
 * reads the layout (a measure, a scroll to the end) done there costs the
 * layout the frame makes anyway, where done at once, in the middle of a
 * redraw, it made the browser lay the page out an extra time.
 */
export function beforeFrame(fn) {
  let due = false
  return () => {
    if (due) return
    due = true
    requestAnimationFrame(() => {
      due = false
      fn()
    })
  }
}
