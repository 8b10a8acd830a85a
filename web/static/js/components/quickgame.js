// A quick game against a bot, as Home's "Play a bot now" and quick
// pairing's "Play a bot instead" start it: the game's default options,
// the bot level last chosen on Home (remembered in this browser).

import {api} from '../api.js'
import * as session from '../session.js'
import * as catalog from '../catalog.js'
import {t} from '../i18n.js'

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

// Level labels with their measured ratings (issue 26): "medium · ~1500".
// The ratings are the catalog's (the server's table of calibration runs,
// docs/ai.md); a level with no measurement shows its name alone.

/** levelLabel is a bot level's name with its measured rating in game, if it has one. */
export function levelLabel(level, game) {
  const r = catalog.game(game)?.botRatings?.[level]
  return r ? t('bot.rated', {level: t('bot.' + level), rating: r}) : t('bot.' + level)
}

/**
 * levelLabelAll is a level's name with its measured ratings over every game: one number, or the range they span.
 * A level some game has no measurement for shows its name alone: the others' numbers would say nothing of it
 * there.
 */
export function levelLabelAll(level) {
  const games = catalog.gameNames()
  const rs = games.map((g) => catalog.game(g)?.botRatings?.[level]).filter((r) => r)
  if (rs.length === 0 || rs.length < games.length) return t('bot.' + level)
  const lo = Math.min(...rs)
  const hi = Math.max(...rs)
  if (lo === hi) return t('bot.rated', {level: t('bot.' + level), rating: lo})
  return t('bot.ratedRange', {level: t('bot.' + level), low: lo, high: hi})
}
