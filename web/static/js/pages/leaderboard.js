// Leaderboards: a page per game (#/leaderboard/GAME) listing the players
// whose rating has settled, with the rule for who is listed (from the
// server's answer, not a number kept here), why the list is empty when it
// is, and where the signed-in player stands. (Home's top five per game:
// components/leaderboard.js.)

import {h, clear} from '../dom.js'
import {t} from '../i18n.js'
import {api} from '../api.js'
import * as session from '../session.js'
import * as catalog from '../catalog.js'
import {errorBox, gameTitle} from '../components/common.js'
import {userLink} from '../components/leaderboard.js'
import {botBadge} from '../components/botbadge.js'

export function leaderboardPage(main, [game], query) {
  const gameNames = catalog.gameNames()
  if (!gameNames.includes(game)) game = gameNames[0]
  // People and bot accounts are ranked apart (docs/api.md): ?bots=1 is the bots' board.
  const bots = !!(query && query.get('bots') === '1')
  const suffix = bots ? '?bots=1' : ''
  let answer = null
  let mine = null // the signed-in player's rating in this game, if any
  let failed = null
  const body = h('div', {'data-test': 'leaderboard', 'aria-live': 'polite'})

  function render() {
    clear(main)
    main.append(h('h1', {}, t('leaderboard.title')),
      h('nav', {class: 'lb-games', 'aria-label': t('leaderboard.games')}, gameNames.map((g) =>
        h('a', {href: '#/leaderboard/' + g + suffix, class: 'button' + (g === game ? ' primary' : ''), 'aria-current': g === game ? 'page' : null, 'data-test': 'lb-game-' + g}, gameTitle(g)))),
      h('nav', {class: 'lb-games lb-kind', 'aria-label': t('leaderboard.kind')}, [false, true].map((b) =>
        h('a', {href: '#/leaderboard/' + game + (b ? '?bots=1' : ''), class: 'button' + (b === bots ? ' primary' : ''), 'aria-current': b === bots ? 'page' : null, 'data-test': b ? 'lb-bots' : 'lb-people'},
          t(b ? 'leaderboard.bots' : 'leaderboard.people'))),
        // the bots' own ranking by play among themselves (issue 26 item 5)
        h('a', {href: '#/ladder/' + game, class: 'button', 'data-test': 'lb-ladder'}, t('nav.ladder'))),
      h('section', {class: 'panel lb-board'}, h('h2', {}, gameTitle(game), bots ? botBadge(true) : null), body))
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
    body.append(h('p', {class: 'lb-rule', 'data-test': 'lb-rule'}, t('leaderboard.rule', {limit})),
      // no activity rule (docs/api.md), and where the provisional ratings are to be seen
      h('p', {class: 'lb-rule muted', 'data-test': 'lb-rule-more'}, t('leaderboard.ruleMore')))
    if (!answer.players.length && bots) {
      body.append(h('p', {class: 'lb-empty', 'data-test': 'lb-empty'}, t('leaderboard.botsEmpty', {limit})),
        h('p', {}, h('a', {href: '#/tokens', class: 'button'}, t('leaderboard.botsHow'))))
    } else if (!answer.players.length) {
      body.append(h('p', {class: 'lb-empty', 'data-test': 'lb-empty'}, t('leaderboard.empty', {limit})),
        h('p', {}, h('a', {href: '#/lobby?game=' + game, class: 'button'}, t('leaderboard.toLobby'))))
    } else {
      body.append(h('div', {class: 'lb-scroll'}, h('table', {class: 'ratings lb-table', 'data-test': 'lb-table'},
        h('thead', {}, h('tr', {}, h('th', {scope: 'col'}, t('leaderboard.rank')), h('th', {scope: 'col'}, t('leaderboard.player')),
          h('th', {scope: 'col'}, t('profile.rating')), h('th', {scope: 'col', class: 'lb-dev'}, t('profile.deviation')), h('th', {scope: 'col'}, t('profile.played')))),
        h('tbody', {}, answer.players.map((p, i) => h('tr', {'data-user': p.user},
          h('td', {class: 'lb-rank'}, String(i + 1)), h('td', {class: 'lb-user'}, userLink(p.user), botBadge(p.bot)),
          h('td', {class: 'lb-rating'}, String(Math.round(p.rating)), h('small', {class: 'lb-dev-inline', 'aria-hidden': 'true'}, ' ±' + Math.round(p.deviation))),
          h('td', {class: 'lb-dev'}, '±' + Math.round(p.deviation)), h('td', {}, String(p.games))))))))
    }
    const me = session.current()
    if (!me || bots) return
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
  Promise.all([api.leaderboard(game, undefined, bots),
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
