// The server's own bots on a tournament's page (issue 25; docs/api.md,
// POST /api/tournaments/{id}/bots): a bot's name in the creator's page
// language ("easy #2" with BOT beside it, no profile link), the creator's
// form to add bots of a level, and a button to take one out again. The
// server alone decides who may: these are shown to the creator of an
// unrated tournament that admits bots, and the server refuses anyone else.

import {h} from '../dom.js'
import {t} from '../i18n.js'
import {botBadge} from './botbadge.js'

/** The server's bot levels (match.BotLevels), weakest first. */
export const BOT_LEVELS = ['random', 'greedy', 'easy', 'medium', 'hard']

/** MAX_BOTS is director.MaxBots: the most bots a tournament may have had. */
export const MAX_BOTS = 16

/** serverBot is a built-in bot's name and BOT mark ("easy #2" → its level in the page's language and its number). */
export function serverBot(name, level) {
  const n = name.slice(name.lastIndexOf('#') + 1)
  return [h('span', {class: 'tn-server-bot', 'data-test': 'tn-server-bot', 'data-level': level}, t('bot.' + level) + ' #' + n), botBadge(true)]
}

/** mayAddBots: whether me (the session's user) is the creator of tr, which takes the server's bots now. */
export function mayAddBots(tr, me) {
  return !!me && !me.guest && me.name === tr.creator && tr.bots && !tr.rated && tr.status !== 'finished'
}

let chosen = 'easy' // the level last chosen, kept through the page's redraws and for the next tournament

// The form and the ✕ carry no listeners: the page renews itself in place
// (dom.js renewTree) at every push, keeping the very controls the creator
// is using — the count typed, the menu open — and one listener of the page
// acts on their data-action (addBotsAsked, botLevelChosen).

/**
 * addBotsForm: level, how many, Add (data-action="add-bots"). The menu's
 * choice and the count are the controls' own: kept as long as the form
 * stays (its attributes do not change), the level chosen last for a new one.
 */
export function addBotsForm(busy) {
  const level = h('select', {'data-test': 'tn-bot-level'},
    BOT_LEVELS.map((l) => h('option', {value: l}, t('bot.' + l))))
  level.value = chosen // a property, not an attribute: a form that stays keeps its own choice
  const count = h('input', {type: 'number', min: 1, max: MAX_BOTS, value: 1, 'data-test': 'tn-bot-count', inputmode: 'numeric'})
  return h('div', {class: 'tn-add-bots', 'data-test': 'tn-add-bots'},
    h('p', {class: 'muted tn-add-bots-help'}, t('tournament.addBotsHelp', {n: MAX_BOTS})),
    h('label', {class: 'tn-field'}, h('span', {}, t('tournament.botLevel')), level),
    h('label', {class: 'tn-field'}, h('span', {}, t('tournament.botCount')), count),
    h('button', {type: 'button', 'data-test': 'tn-add-bot', 'data-action': 'add-bots', disabled: busy}, t('tournament.addBots')))
}

/** botLevelChosen remembers the level chosen in the form's menu (its change event). */
export function botLevelChosen(select) {
  chosen = select.value
}

/** addBotsAsked: the level and the count (1 to MAX_BOTS) that form (the page's .tn-add-bots) asks for now. */
export function addBotsAsked(form) {
  const level = form.querySelector('[data-test=tn-bot-level]').value
  const count = Math.max(1, Math.min(MAX_BOTS, Number(form.querySelector('[data-test=tn-bot-count]').value) || 1))
  return {level, count}
}

/** removeBotButton: ✕ beside a bot in the players, for the creator (data-action="remove-bot", its number in data-number). */
export function removeBotButton(player, busy) {
  return h('button', {type: 'button', class: 'tn-remove-bot', 'data-test': 'tn-remove-bot', 'data-action': 'remove-bot', 'data-number': String(player.number),
    disabled: busy, title: t('tournament.removeBot'), 'aria-label': t('tournament.removeBot')}, '✕')
}
