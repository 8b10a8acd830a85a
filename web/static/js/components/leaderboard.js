// Home's leaderboards: the top five of each game, each list leading to
// its page (pages/leaderboard.js).

import {h, clear} from '../dom.js'
import {t} from '../i18n.js'
import {api} from '../api.js'
import * as catalog from '../catalog.js'
import {gameTitle} from './common.js'

/** userLink leads to a player's profile. */
export const userLink = (name) => h('a', {href: '#/user/' + encodeURIComponent(name)}, name)

/** leaderboardOverview is Home's section: the top five of each game, each list leading to its page. */
export function leaderboardOverview() {
  const gameNames = catalog.gameNames()
  const answers = {}
  const node = h('section', {class: 'lb-overview', 'data-test': 'lb-overview', 'aria-labelledby': 'lb-overview-title'})
  function render() {
    clear(node)
    // Who appears, in one line (the game's page says it in full): the
    // server's limit once an answer has come, else its documented 110.
    const limit = Object.values(answers).find((a) => a && a.maxDeviation)?.maxDeviation || 110
    node.append(h('h2', {id: 'lb-overview-title'}, t('leaderboard.title')),
      h('p', {class: 'muted lb-rule-short', 'data-test': 'lb-overview-rule'}, t('leaderboard.ruleShort', {limit: Math.round(limit)})),
      h('div', {class: 'lb-overview-grid'}, gameNames.map((g) => {
        const a = answers[g]
        let list
        if (!a) list = h('p', {class: 'muted'}, '…')
        else if (a.failed) list = h('p', {class: 'muted'}, t('leaderboard.unavailable'))
        else if (!a.players.length) list = h('p', {class: 'muted', 'data-test': 'lb-top-empty'}, t('leaderboard.nobodyYet'))
        else list = h('ol', {class: 'lb-top'}, a.players.map((p) => h('li', {}, userLink(p.user), ' ', h('span', {class: 'lb-rating'}, String(Math.round(p.rating))))))
        return h('div', {class: 'lb-top-game', 'data-test': 'lb-top-' + g},
          h('h3', {}, h('a', {href: '#/leaderboard/' + g}, gameTitle(g))), list)
      })))
  }
  render()
  for (const g of gameNames) {
    api.leaderboard(g, 5).then((a) => {
      answers[g] = a
      render()
    }, () => {
      answers[g] = {failed: true}
      render()
    })
  }
  return {node, relang: render}
}
