// A small Markdown renderer for the rules pages: headings (with ids for
// in-page links), paragraphs, nested lists, fenced code (also inside list
// items), tables, and inline code, bold, italics and links. It builds DOM
// nodes, never HTML strings, so a page's text cannot inject markup. A fenced
// block whose info string names a renderer given to render (e.g.
// ```diagram) is drawn by that renderer instead of shown as code.

import {h} from './dom.js'

export function slug(text) {
  return text.toLowerCase().replace(/[`*_]/g, '').replace(/[^\p{L}\p{N}\s-]/gu, '').trim().replace(/\s+/g, '-')
}

/** inline renders one line's inline markup into nodes. */
export function inline(text) {
  const out = []
  const re = /(`[^`]+`)|(\*\*[^*]+\*\*)|(\*[^*\s][^*]*\*)|(\[[^\]]+\]\([^)\s]+\))/g
  let last = 0
  let m
  while ((m = re.exec(text))) {
    if (m.index > last) out.push(text.slice(last, m.index))
    const tok = m[0]
    if (m[1]) out.push(h('code', {}, tok.slice(1, -1)))
    else if (m[2]) out.push(h('strong', {}, inline(tok.slice(2, -2))))
    else if (m[3]) out.push(h('em', {}, inline(tok.slice(1, -1))))
    else {
      const lm = /^\[([^\]]+)\]\(([^)\s]+)\)$/.exec(tok)
      const href = lm[2]
      if (href.startsWith('#')) {
        const id = href.slice(1)
        out.push(h('a', {href: '#', onclick: (ev) => {
          ev.preventDefault()
          document.getElementById(id)?.scrollIntoView()
        }}, inline(lm[1])))
      } else if (/^https?:\/\//.test(href)) {
        out.push(h('a', {href, rel: 'noopener noreferrer'}, inline(lm[1])))
      } else {
        out.push(inline(lm[1]))
      }
    }
    last = m.index + tok.length
  }
  if (last < text.length) out.push(text.slice(last))
  return out
}

const indentOf = (line) => line.match(/^ */)[0].length

/**
 * render turns Markdown text into a DocumentFragment.
 * renderers: {info: (text) => Node} draws fenced blocks with that info string.
 */
export function render(text, renderers = {}) {
  const lines = String(text).replace(/\r\n?/g, '\n').split('\n')
  const frag = document.createDocumentFragment()
  blocks(lines, 0, lines.length, 0, frag, renderers)
  return frag
}

function blocks(lines, start, end, base, parent, renderers) {
  let i = start
  while (i < end) {
    const raw = lines[i]
    const line = raw.slice(Math.min(base, indentOf(raw)))
    if (!line.trim()) {
      i++
      continue
    }
    let m
    if ((m = /^(#{1,6})\s+(.*)$/.exec(line))) {
      const level = m[1].length
      parent.append(h('h' + level, {id: slug(m[2])}, inline(m[2])))
      i++
    } else if (/^\s*```/.test(line)) {
      const fence = indentOf(line)
      const info = line.trim().slice(3).trim()
      const code = []
      i++
      while (i < end && !/^\s*```/.test(lines[i])) {
        code.push(lines[i].slice(Math.min(base + fence, indentOf(lines[i]))))
        i++
      }
      i++
      const draw = Object.hasOwn(renderers, info) ? renderers[info] : null
      parent.append(draw ? draw(code.join('\n')) : h('pre', {}, h('code', {}, code.join('\n'))))
    } else if (/^\|/.test(line.trim()) && i + 1 < end && /^\s*\|?\s*:?-+/.test(lines[i + 1])) {
      const cells = (l) => l.trim().replace(/^\|/, '').replace(/\|$/, '').split('|').map((c) => c.trim())
      const head = cells(line)
      i += 2
      const body = []
      while (i < end && /^\s*\|/.test(lines[i])) body.push(cells(lines[i++]))
      parent.append(h('div', {class: 'table-wrap'}, h('table', {},
        h('thead', {}, h('tr', {}, head.map((c) => h('th', {}, inline(c))))),
        h('tbody', {}, body.map((r) => h('tr', {}, r.map((c) => h('td', {}, inline(c)))))))))
    } else if ((m = /^(\s*)([-*]|\d+\.)\s+/.exec(line))) {
      const ordered = /\d/.test(m[2])
      const listIndent = indentOf(line) + base
      const list = h(ordered ? 'ol' : 'ul')
      while (i < end) {
        // blank lines between two items (e.g. after a diagram inside one) keep the list going
        let next = i
        while (next < end && !lines[next].trim()) next++
        if (next > i && next < end && indentOf(lines[next]) === listIndent && /^(\s*)([-*]|\d+\.)\s+/.test(lines[next])) i = next
        const l = lines[i]
        const mm = /^(\s*)([-*]|\d+\.)\s+(.*)$/.exec(l)
        if (!mm || indentOf(l) !== listIndent || /\d/.test(mm[2]) !== ordered) break
        const contentIndent = indentOf(l) + mm[2].length + 1
        const item = [' '.repeat(contentIndent) + mm[3]]
        i++
        while (i < end && (!lines[i].trim() || indentOf(lines[i]) >= contentIndent - 1 && indentOf(lines[i]) > listIndent)) {
          if (!lines[i].trim() && (i + 1 >= end || indentOf(lines[i + 1]) <= listIndent)) break
          item.push(lines[i])
          i++
        }
        const li = h('li')
        blocks(item, 0, item.length, contentIndent, li, renderers)
        // a one-paragraph item needs no <p>
        if (li.childNodes.length === 1 && li.firstChild.tagName === 'P') li.replaceChildren(...li.firstChild.childNodes)
        list.append(li)
      }
      parent.append(list)
    } else {
      const para = []
      while (i < end && lines[i].trim() && !/^\s*(#{1,6}\s|```|[-*]\s|\d+\.\s|\|)/.test(lines[i])) {
        para.push(lines[i].trim())
        i++
      }
      if (!para.length) {
        para.push(line.trim())
        i++
      }
      parent.append(h('p', {}, inline(para.join(' '))))
    }
  }
}
