// Shared by the lesson and puzzle tests: play a move given in a game's
// notation by clicking the board as a person would (the targets the board
// draws, then its buttons), and wait for a text.

import assert from 'node:assert/strict'
import {clickHit, settled} from './helpers.mjs'

/** waitText waits until the element's text is exactly text. */
export async function waitText(page, selector, text) {
  await page.waitForFunction(([sel, want]) => document.querySelector(sel)?.textContent === want, [selector, text])
}

async function hits(page) {
  return page.evaluate(() => [...document.querySelectorAll('.board-svg [data-hit].hit')].map((e) => e.getAttribute('data-hit')))
}

async function button(page, move) {
  const sel = `.board [data-test=actions] button[data-move="${move}"]`
  if (await page.$(sel)) {
    await page.click(sel)
    return true
  }
  return false
}

/**
 * playMove plays move (null: any highlighted target) by clicking. It knows
 * how each board is operated: Skjuub selects a piece then a square (or a
 * placement square then a direction), Sgolte a cell then the stones to
 * flip, Sploof a point, Skyjo the deck, the discard pile and the cards.
 */
export async function playMove(page, game, move, seat) {
  if (move === null) {
    const hs = await hits(page)
    assert.ok(hs.length, 'nothing to click')
    await clickHit(page, hs[0])
    return
  }
  if (await button(page, move)) return
  const m = {
    skjuub: () => skjuub(page, move),
    sgolte: () => sgolte(page, move),
    sploof: () => clickHit(page, move.replace(/^\*/, '')),
    skyjo: () => skyjo(page, move, seat),
  }[game]
  await m()
}

async function skjuub(page, move) {
  let m
  if ((m = /^([a-f][1-6])([NESW])$/.exec(move))) {
    await clickHit(page, m[1])
    await settled(page)
    if (await button(page, move)) return
    await clickHit(page, move)
  } else if ((m = /^([a-f][1-6])[-~]([a-f][1-6])$/.exec(move))) {
    await clickHit(page, m[1])
    await settled(page)
    await clickHit(page, m[2])
    await settled(page)
    await button(page, move)
  } else if ((m = /^\^([a-f][1-6])$/.exec(move)) || (m = /^([a-f][1-6])[<>]$/.exec(move))) {
    await clickHit(page, m[1])
    await settled(page)
    assert.ok(await button(page, move), `no button for ${move}`)
  } else {
    assert.fail('cannot play ' + move)
  }
}

async function sgolte(page, move) {
  const m = /^([a-z]\d+)(?:\((.*)\))?$/.exec(move)
  assert.ok(m, 'cannot play ' + move)
  await clickHit(page, m[1])
  const flips = m[2] ? m[2].split(',') : []
  // The chain's order is not the notation's: flip a stone the board offers
  // now. The board sends the move itself once only one way is left.
  for (let first = true; flips.length; first = false) {
    await settled(page)
    const hs = await hits(page)
    const i = flips.findIndex((f) => hs.includes(f))
    if (i < 0 && !first) break
    assert.ok(i >= 0, `none of ${flips} can be flipped now (targets: ${hs})`)
    await clickHit(page, flips[i])
    flips.splice(i, 1)
  }
  await settled(page)
  await button(page, move)
}

async function skyjo(page, move, seat) {
  const [kind, pos] = move.split(' ')
  if (kind === 'take') return clickHit(page, 'discard')
  if (kind === 'draw') return clickHit(page, 'deck')
  if (kind === 'flip' && (await hits(page)).includes('discard')) {
    // after a draw: discard the drawn card first, then turn up a card
    await clickHit(page, 'discard')
    await settled(page)
  }
  await clickHit(page, `p${seat}:${pos}`)
}
