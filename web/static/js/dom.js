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
 */
export function renew(box, fresh) {
  const old = [...box.childNodes]
  const next = [...fresh.childNodes]
  next.forEach((n, i) => {
    if (!old[i]) box.append(n)
    else if (!old[i].isEqualNode(n)) box.replaceChild(n, old[i])
  })
  for (const o of old.slice(next.length)) o.remove()
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
