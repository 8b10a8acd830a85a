// The site's facts as the server states them (GET /api/catalog): the games
// it offers, in its order, each with its seats and options, whether it
// hides information (then no takebacks) and whether the analysis board
// takes it; the bot levels; quick pairing's time controls and how long a
// waiting game may be joined; the longest chat line. The page keeps no copy
// of these: app.js loads the catalog before it draws the first page, and
// every page reads it here.

import {api} from './api.js'
import {games} from './games/registry.js'

let data = null

/** load asks the server for the catalog (once; again after a failure). */
export async function load() {
  data = await api.catalog()
  return data
}

/** loaded: the catalog is here (until then no page is drawn). */
export function loaded() {
  return data !== null
}

function need() {
  if (!data) throw new Error('the catalog is not loaded yet')
  return data
}

/** gameNames are the site's games that this page can draw, in the site's order. */
export function gameNames() {
  return need().games.map((g) => g.name).filter((n) => n in games)
}

/** game is the catalog's entry for a game (seats, options, hidden, analysis), or null. */
export function game(name) {
  return need().games.find((g) => g.name === name) || null
}

/** analysable: the analysis board searches this game's positions. */
export function analysable(name) {
  return name in games && !!game(name)?.analysis
}

/** analysisGames are the games of the analysis board, in the site's order. */
export function analysisGames() {
  return gameNames().filter(analysable)
}

/** hidden: the game hides information from some seat (no takebacks). */
export function hidden(name) {
  return !!game(name)?.hidden
}

/** bots are the levels a bot seat may have, weakest first. */
export function bots() {
  return need().bots
}

/** defaultBot is the level offered first: easy where there is one, else the middle one. */
export function defaultBot() {
  const b = bots()
  return b.includes('easy') ? 'easy' : b[Math.floor(b.length / 2)]
}

/** pairClocks are quick pairing's time controls, shortest first: [{name, clock}]. */
export function pairClocks() {
  return need().pairing.clocks
}

/** pairClock is the time control of quick pairing's clock name as POST /api/games takes it (undefined: no clock). */
export function pairClock(name) {
  const c = pairClocks().find((x) => x.name === name)
  return c && c.clock.kind !== 'none' ? c.clock : undefined
}

/** pairingWindowMs is how old a waiting game may be for the server to pair with it. */
export function pairingWindowMs() {
  return need().pairing.windowMs
}

/** chatMax is the longest chat line, in characters. */
export function chatMax() {
  return need().chatMax
}
