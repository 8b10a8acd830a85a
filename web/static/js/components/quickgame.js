// A quick game against a bot, as Home's "Play a bot now" and quick
// pairing's "Play a bot instead" start it: the game's default options,
// the bot level last chosen on Home (remembered in this browser).

import {api} from '../api.js'
import * as session from '../session.js'
import * as catalog from '../catalog.js'

export const LEVEL_KEY = 'tabula.botLevel'

/** savedLevel is the bot strength last chosen on the home page, if the catalog still offers it. */
export function savedLevel() {
  try {
    const l = localStorage.getItem(LEVEL_KEY)
    if (catalog.bots().includes(l)) return l
  } catch {
    // default below
  }
  return catalog.defaultBot()
}

/** quickGame starts a game of name against a bot (with a clock, if given) and opens it. */
export async function quickGame(name, level, clock) {
  await session.ensure()
  const req = {game: name, options: {}, seats: [{kind: 'me'}, {kind: 'bot', level}]}
  if (clock) req.clock = clock
  const res = await api.createGame(req)
  location.hash = '#/game/' + res.game.id
}
