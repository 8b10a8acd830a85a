// The analysis board's moves as a tree: the game's line and every variation
// tried, each node a position. A node's first child continues its line; the
// others are variations, drawn in brackets after the move they replace.
// Positions are asked of the rules endpoint only when a node is shown.

import {h, clear, scrollIntoList} from '../dom.js'

export class Tree {
  /** root: the answer of the rules endpoint for the first position. */
  constructor(root) {
    this.root = {move: null, seat: -1, ply: 0, parent: null, children: [], ans: root}
    this.cur = this.root
  }

  /** add returns the child of node reached by move (a new variation when there is none). */
  add(node, move, seat) {
    let child = node.children.find((c) => c.move === move)
    if (!child) {
      child = {move, seat, ply: node.ply + 1, parent: node, children: [], ans: null}
      node.children.push(child)
    }
    return child
  }

  /** path lists the moves from the root to node. */
  path(node) {
    const out = []
    for (let n = node; n.parent; n = n.parent) out.push(n)
    return out.reverse()
  }

  /** mainEnd is the end of node's line, following first children. */
  mainEnd(node) {
    let n = node
    while (n.children.length) n = n.children[0]
    return n
  }

  /** atPly is the node ply plies along the main line (the last one if it is shorter). */
  atPly(ply) {
    let n = this.root
    while (n.ply < ply && n.children.length) n = n.children[0]
    return n
  }

  /** remove drops node and its variations (never the root). */
  remove(node) {
    if (!node.parent) return
    const sib = node.parent.children
    sib.splice(sib.indexOf(node), 1)
  }

  /** promote makes node's line its parent's main line. */
  promote(node) {
    if (!node.parent) return
    const sib = node.parent.children
    sib.splice(sib.indexOf(node), 1)
    sib.unshift(node)
  }
}

/**
 * renderTree draws the tree into el: the main line, each variation in
 * brackets; every move a button calling pick(node); the current one marked.
 */
export function renderTree(el, tree, pick) {
  clear(el)
  // Plies are numbered, not turns: a Skjuub turn or a Sgolte swap may take
  // several plies of one side.
  const btn = (n) => {
    const num = h('span', {class: 'num'}, n.ply + '.')
    return h('button', {type: 'button', class: 'tmove' + (n === tree.cur ? ' current' : ''), 'data-test': 'tree-move',
      'data-ply': n.ply, 'aria-current': n === tree.cur ? 'true' : 'false', onclick: () => pick(n)}, num, n.move)
  }
  const line = (start, out) => {
    let n = start
    while (n.children.length) {
      const [main, ...alts] = n.children
      out.append(btn(main))
      for (const a of alts) {
        const v = h('span', {class: 'variation', 'data-test': 'variation'}, '(', btn(a))
        line(a, v)
        v.append(')')
        out.append(v)
      }
      n = main
    }
  }
  const start = h('button', {type: 'button', class: 'tmove' + (tree.root === tree.cur ? ' current' : ''), 'data-test': 'tree-start',
    onclick: () => pick(tree.root)}, '⌂')
  el.append(start)
  line(tree.root, el)
  const cur = el.querySelector('.tmove.current')
  if (cur) scrollIntoList(el, cur)
}
