// The BOT mark beside the name of a bot account (docs/api.md: "bot" on a
// user, a seat and a leaderboard row), the same everywhere a name is shown:
// profile, game lists and the game room, leaderboards.

import {h} from '../dom.js'
import {t} from '../i18n.js'

/** botBadge is the BOT mark when bot is true, else null (h skips it). */
export function botBadge(bot) {
  if (!bot) return null
  return h('span', {class: 'bot-badge', 'data-test': 'bot-badge', title: t('botacct.badgeTitle')}, t('botacct.badge'))
}
