// Leaderboards: a page per game (#/leaderboard/GAME) listing the players
// whose rating has settled, with the rule for who is listed (from the
// server's answer, not a number kept here), why the list is empty when it
// is, and where the signed-in player stands; and Home's top five per game.

import {h, clear} from '../dom.js'
import {t} from '../i18n.js'
import {api} from '../api.js'
import * as session from '../session.js'
import {gameNames} from '../games/registry.js'
import {errorBox, gameTitle} from './common.js'

const userLink = (name) => h('a', {href: '#/user/' + encodeURIComponent(name)}, name)

export function leaderboardPage(main, [game]) {
  if (!gameNames.includes(game)) game = gameNames[0]
  let answer = null
  let mine = null // the signed-in player's rating in this game, if any
  let failed = null
  const body = h('div', {'data-test': 'leaderboard', 'aria-live': 'polite'})

  function render() {
    clear(main)
    main.append(h('h1', {}, t('leaderboard.title')),
      h('nav', {class: 'lb-games', 'aria-label': t('leaderboard.games')}, gameNames.map((g) =>
        h('a', {href: '#/leaderboard/' + g, class: 'button' + (g === game ? ' primary' : ''), 'aria-current': g === game ? 'page' : null, 'data-test': 'lb-game-' + g}, gameTitle(g)))),
      h('section', {class: 'panel lb-board'}, h('h2', {}, gameTitle(game)), body))
    show()
  }

  function show() {
    clear(body)
    if (failed) {
      body.append(errorBox(failed))
      return
    }
    if (!answer) {
      body.append(h('p', {class: 'muted'}, t('leaderboard.loading')))
      return
    }
    const limit = Math.round(answer.maxDeviation)
    body.append(h('p', {class: 'lb-rule', 'data-test': 'lb-rule'}, t('leaderboard.rule', {limit})))
    if (!answer.players.length) {
      body.append(h('p', {class: 'lb-empty', 'data-test': 'lb-empty'}, t('leaderboard.empty', {limit})),
        h('p', {}, h('a', {href: '#/lobby?game=' + game, class: 'button'}, t('leaderboard.toLobby'))))
    } else {
      body.append(h('div', {class: 'lb-scroll'}, h('table', {class: 'ratings lb-table', 'data-test': 'lb-table'},
        h('thead', {}, h('tr', {}, h('th', {scope: 'col'}, t('leaderboard.rank')), h('th', {scope: 'col'}, t('leaderboard.player')),
          h('th', {scope: 'col'}, t('profile.rating')), h('th', {scope: 'col', class: 'lb-dev'}, t('profile.deviation')), h('th', {scope: 'col'}, t('profile.played')))),
        h('tbody', {}, answer.players.map((p, i) => h('tr', {'data-user': p.user},
          h('td', {class: 'lb-rank'}, String(i + 1)), h('td', {class: 'lb-user'}, userLink(p.user)),
          h('td', {class: 'lb-rating'}, String(Math.round(p.rating)), h('small', {class: 'lb-dev-inline', 'aria-hidden': 'true'}, ' ±' + Math.round(p.deviation))),
          h('td', {class: 'lb-dev'}, '±' + Math.round(p.deviation)), h('td', {}, String(p.games))))))))
    }
    const me = session.current()
    if (!me) return
    const listed = answer.players.some((p) => p.user === me.name)
    let line = null
    if (me.guest) line = t('leaderboard.guest')
    else if (mine && mine.games > 0 && mine.deviation > answer.maxDeviation) line = t('leaderboard.youProvisional', {rating: Math.round(mine.rating), deviation: Math.round(mine.deviation), limit})
    else if (!mine || !mine.games) line = t('leaderboard.youUnrated')
    else if (!listed) line = t('leaderboard.youBelow', {rating: Math.round(mine.rating)})
    if (line) body.append(h('p', {class: 'lb-you', 'data-test': 'lb-you'}, line))
  }

  render()
  const me = session.current()
  Promise.all([api.leaderboard(game),
    me && !me.guest ? api.user(me.name).then((res) => (res.ratings || []).find((r) => r.game === game) || null, () => null) : null])
    .then(([lb, r]) => {
      answer = lb
      mine = r
      show()
    }, (e) => {
      failed = e
      show()
    })
  return {relang: render}
}

/** leaderboardOverview is Home's section: the top five of each game, each list leading to its page. */
export function leaderboardOverview() {
  const answers = {}
  const node = h('section', {class: 'lb-overview', 'data-test': 'lb-overview', 'aria-labelledby': 'lb-overview-title'})
  function render() {
    clear(node)
    node.append(h('h2', {id: 'lb-overview-title'}, t('leaderboard.title')),
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
