// A tournament (#/tournament/ID): its facts and status, its players, Join
// and Withdraw (asking for the password when one is needed), the standings
// with the format's tie-breaks as the server gives them, every round's
// pairings with links to their games, and a podium once it has finished.
// An arena shows instead its standings with each game's points and the
// streaks (🔥), your current game, Pause/Resume and a countdown to its end.
// Skyjo tables show their standings with the Skyjo totals that break ties,
// and each round's tables with their seats, scores and games.
// What each player scored against whom (components/tournamentcross.js): a
// Swiss's or round robin's cross-table; an arena's games being played and
// finished, and one player's games opened from the standings; a table
// tournament's results by round. A link leads to #/help/tournaments.
// While it is upcoming or running the server pushes the tournament to the page
// as it changes (components/tournamentlive.js); the page still asks every 30 s,
// and every 3 s while the stream is down.
// An arena's answer is bounded (a 1,000-player hour would send a megabyte a
// push): it carries the first 100 standings lines and the games being played
// with the last 30 finished. The page shows the other standings a page at a
// time (GET .../standings?page=N, or the page holding the signed-in player:
// "My place"), asked again as the arena changes, at most every 2 s; and a
// picked player's games from GET .../games?player=NAME, asked again only when
// their line's games or game being played change. The creator of an unrated tournament
// that admits bots adds the server's bots here (components/tournamentbots.js).
// A push redraws the page several times a second in a busy arena: the page
// is drawn afresh and renewed in place (dom.js renewTree), so the elements
// that did not change stay — a click pressed on a button or a link as a push
// comes is released on the same element, a count being typed and an open
// menu stay as they are. Its elements carry no listeners (a kept element
// would keep an old drawing's): one listener of the page reads what to do
// from the data-action of what was clicked, and the rest from the page's
// state at the time of the click.

import {h, renewTree} from '../dom.js'
import {t} from '../i18n.js'
import * as session from '../session.js'
import {tournaments, countdown} from '../components/tournamentapi.js'
import {facts, problem, standingsTable, arenaTable, tablesTable, tableRounds, named} from '../components/tournamentview.js'
import {liveTournament} from '../components/tournamentlive.js'
import {crossTable, roundSheet, CROSS_MAX, arenaPlayerPanel, arenaGameList, tableResults} from '../components/tournamentcross.js'
import {mayAddBots, addBotsForm, removeBotButton, addBotsAsked, botLevelChosen} from '../components/tournamentbots.js'

const POLL_MS = 3000
const LIVE_POLL_MS = 30000 // while the stream is up
const PAGE_LINES = 100 // an arena's standings lines a page (the server's)
const PAGE_MS = 2000 // a later standings page is asked again at most this often while the arena changes
const MINE_MS = 30000 // one's own arena line, when not among the lines shown, is asked again at most this often
const PLAYERS_SHOWN = 40 // the list of players beside the standings, until "Show all" (an arena may have 1,000)

// slot: a part of the page, or an empty text in its place when it is absent
// (renewTree matches children by place: the parts after it keep theirs).
const slot = (part) => part || ''

// playersHeading counts the players still in, and the withdrawn ones the
// list below it shows marked, so the count and the list agree.
function playersHeading(players) {
  const w = players.filter((p) => p.withdrawn).length
  const n = players.length - w
  return w ? t('tournament.playersWithdrawn', {n, w}) : t('tournament.players', {n})
}

export function tournamentPage(main, [id]) {
  let data = null
  let failed = null
  let actionError = null
  let asking = false // the password field is shown
  let busy = false
  let poll = null
  let tick = null
  let bots = new Set() // the bot accounts' names (players marked bot)
  let picked = null // the arena player whose games are shown
  let allPlayers = false // the whole list of players, past the first PLAYERS_SHOWN
  let pickedLine = null // their line when picked (shown while their page is not)
  const playerGames = new Map() // an arena player's name → {key, rounds, line, failed, asking}: their games, asked once per key
  let page = null // a later page of an arena's standings shown ({page, pages, total, standings}); null: page 1, live
  let paging = false // a page is being asked for
  let pageFailed = null
  let pageAsked = 0 // when a page was last asked for
  let pageTimer = null // the next asking of the page shown, as the arena changes
  let pageStale = false // the arena changed while a page was being asked for
  let pageSeq = 0 // the latest asking: answers to earlier ones are dropped
  let toMe = false // scroll to one's own line once it is shown (My place)
  let mine = {line: null, asked: 0, asking: false, stale: true} // one's own arena line when it is not among those shown

  function render() {
    // Keep the page's height through the redraw: a poll must not scroll the reader away;
    // and the keyboard's place: the control focused stays, or is focused again once drawn anew.
    const f = document.activeElement
    const focus = f && f !== main && main.contains(f) && f.dataset.test ? [f.dataset.test, f.closest('[data-user]')?.dataset.user] : null
    main.style.minHeight = main.offsetHeight + 'px'
    const fresh = h('div', {})
    draw(fresh)
    renewTree(main, fresh)
    main.style.minHeight = ''
    if (focus && !f.isConnected) {
      const sel = (focus[1] ? `[data-user="${CSS.escape(focus[1])}"] ` : '') + `[data-test="${CSS.escape(focus[0])}"]`
      const el = main.querySelector(sel)
      if (el && !el.disabled) el.focus({preventScroll: true})
    }
    if (toMe) {
      const row = main.querySelector('[data-test=tn-standings] tr.tn-me')
      if (row) {
        toMe = false
        row.scrollIntoView({block: 'nearest'})
      }
    }
  }

  // quietRender redraws for what came in the background, not over an action
  // under way or the password being typed.
  function quietRender() {
    if (!busy && !asking) render()
  }

  // draw builds the page into box (a detached element, renewed into main).
  // A part absent now is an empty text (slot), so that the parts after it
  // keep their places: a note or an error shown does not make renewTree
  // replace everything below it. Lists are matched by data-key.
  function draw(box) {
    if (!data) {
      box.append(h('h1', {}, t('tournament.title')), failed ? problem(failed) : h('p', {class: 'muted'}, t('tournament.loading')))
      return
    }
    const tr = data.tournament
    const me = session.current()
    const mine = me && data.players.find((p) => p.name === me.name)
    const inIt = mine && !mine.withdrawn
    const arena = tr.format === 'arena' && data.arena
    const tables = tr.format === 'tables' && data.tables
    bots = new Set(data.players.filter((p) => p.bot).map((p) => p.name)) // BOT beside their names everywhere below
    bots.levels = new Map(data.players.filter((p) => p.level).map((p) => [p.name, p.level])) // the server's bots
    const creator = mayAddBots(tr, me)
    box.append(...[
      h('p', {class: 'tn-nav'}, h('a', {href: '#/tournaments', 'data-test': 'tn-back'}, '← ' + t('tournament.all')), ' · ',
        h('a', {href: '#/help/tournaments', 'data-test': 'tn-help'}, t('help.tournaments'))),
      h('h1', {'data-test': 'tn-title'}, tr.name),
      h('p', {class: 'tn-facts muted', 'data-test': 'tn-facts'}, facts(tr)),
      h('p', {class: 'tn-status', 'data-test': 'tn-status', 'data-status': tr.status}, statusLine(tr)),
      tr.note ? h('p', {class: 'muted', 'data-test': 'tn-note'}, tr.note) : null,
      failed ? problem(failed) : null,
      tr.status === 'finished' ? podium() : null,
      actions(tr, me, inIt),
      h('div', {class: 'tn-columns'},
        h('section', {class: 'panel tn-standings-panel'}, h('h2', {}, t('tournament.standings')),
          arena ? (arena.standings.length ? arenaStandings(arena) : h('p', {class: 'muted'}, t('tournament.noStandings')))
            : tables ? (tables.rounds.length ? tablesTable(tables.standings, bots) : h('p', {class: 'muted'}, t('tournament.noStandings')))
            : data.standings.length ? standingsTable(data.standings, tr.format, bots) : h('p', {class: 'muted'}, t('tournament.noStandings'))),
        h('section', {class: 'panel tn-players'}, h('h2', {}, playersHeading(data.players)),
          data.players.length ? h('ol', {class: 'tn-player-list', 'data-test': 'tn-players'}, data.players.slice(0, allPlayers ? undefined : PLAYERS_SHOWN).map((p) => h('li', {'data-user': p.name, 'data-key': p.name, class: p.withdrawn ? 'withdrawn' : null},
            named(p.name, bots), p.withdrawn ? h('span', {class: 'muted'}, ' (' + t('tournament.withdrawn') + ')') : null,
            creator && p.level && !p.withdrawn ? removeBotButton(p, busy) : null)))
            : h('p', {class: 'muted'}, t('tournament.noPlayers')),
          slot(data.players.length > PLAYERS_SHOWN ? h('button', {type: 'button', class: 'tn-more-players', 'data-test': 'tn-more-players', 'data-action': 'more-players',
            'aria-expanded': allPlayers ? 'true' : 'false'}, allPlayers ? t('tournament.fewerPlayers') : t('tournament.allPlayers', {n: data.players.length})) : null),
          slot(creator ? addBotsForm(busy) : null))),
      arena ? h('section', {class: 'panel tn-arena-games-panel', 'data-test': 'tn-arena-games'}, h('h2', {}, t('arena.gameList')), arenaGameList(data.rounds, bots, arena.finishedGames))
        : tables ? (tables.rounds.length ? h('section', {class: 'panel tn-cross-panel', 'data-test': 'tn-table-results-panel'}, h('h2', {}, t('tables.byPlayer')),
          h('p', {class: 'muted tn-cross-help'}, t('tables.byPlayerHelp')), tableResults(tables, bots)) : null)
          : cross(),
      arena ? null : tables ? (tables.rounds.length ? h('section', {class: 'panel tn-rounds'}, h('h2', {}, t('tables.tables')), tableRounds(tables.rounds, bots)) : null)
        : rounds()].map(slot))
  }

  // An arena's standings (the page shown), a pager under them when they
  // are more than one page, and the games of the player picked there (a
  // click on their line).
  function arenaStandings(arena) {
    const lines = page ? page.standings : arena.standings
    const shown = picked && lines.find((s) => s.name === picked)
    if (shown) pickedLine = shown
    const games = picked && pickedLine ? gamesOf(picked, shown) : null
    const line = games && (games.line || pickedLine)
    const me = session.current()
    return [arenaTable(lines, bots, true, line ? picked : null, me && me.name),
      slot(pager(arena)),
      line ? arenaPlayerPanel(line, games.rounds, bots, games.failed) : h('p', {class: 'muted tn-pick-help'}, t('arena.pickPlayer'))]
  }

  // pick shows name's games (a click on their line), or hides them if shown;
  // their line is looked for among the lines shown now.
  function pick(name) {
    picked = picked === name ? null : name
    const lines = page ? page.standings : data?.arena?.standings || []
    pickedLine = picked && lines.find((s) => s.name === picked)
    render()
  }

  // gamesOf is a player's games as last asked (GET .../games?player=NAME),
  // asked again when line (theirs, as shown now) says their games changed:
  // a game ended (games) or began (playing). Not shown, what was asked stays.
  function gamesOf(name, line) {
    let g = playerGames.get(name)
    const key = line ? line.games + ' ' + (line.playing || '') : g ? g.key : ''
    if (g && (g.key === key || g.asking)) return g
    if (!g) playerGames.set(name, g = {key, rounds: null, line: null, failed: null, asking: false})
    g.key = key
    g.asking = true
    tournaments.playerGames(id, name).then((res) => {
      g.rounds = res.rounds
      g.line = res.line || null
      g.failed = null
    }, (e) => {
      g.failed = e
    }).finally(() => {
      g.asking = false
      if (picked === name) quietRender()
    })
    return g
  }

  // The standings' pager: ‹ Previous, "page X of Y", Next ›, and My place
  // for a player in the arena; shown when the lines are more than a page.
  function pager(arena) {
    const total = page ? page.total : arena.standingsTotal ?? arena.standings.length
    if (!page && total <= arena.standings.length) return null
    const at = page ? page.page : 1
    const pages = page ? page.pages : Math.max(1, Math.ceil(total / PAGE_LINES))
    const me = session.current()
    const inIt = me && data.players.some((p) => p.name === me.name)
    // (Busy while a page is asked for: the line that says which page, not the
    // nav, so that the nav and its buttons stay the same elements meanwhile.)
    return h('nav', {class: 'tn-pager', 'data-test': 'tn-pager', 'aria-label': t('arena.pages')},
      h('button', {type: 'button', 'data-test': 'tn-page-prev', 'data-action': 'page-prev', disabled: at <= 1}, '‹ ' + t('arena.prevPage')),
      h('span', {class: 'tn-page-of', 'data-test': 'tn-page-of', 'data-page': String(at), 'aria-live': 'polite', 'aria-busy': paging ? 'true' : 'false'}, t('arena.pageOf', {page: at, pages})),
      h('button', {type: 'button', 'data-test': 'tn-page-next', 'data-action': 'page-next', disabled: at >= pages}, t('arena.nextPage') + ' ›'),
      inIt ? h('button', {type: 'button', class: 'tn-my-place', 'data-test': 'tn-my-place', 'data-action': 'my-place'}, t('arena.myPlace')) : null,
      pageFailed ? h('span', {class: 'error', role: 'alert', 'data-test': 'tn-page-failed'}, t('arena.pageFailed')) : null)
  }

  function goPage(n) {
    if (n > 1) return askPage(() => tournaments.standingsPage(id, n))
    pageSeq++ // page 1 is the stream's
    page = null
    paging = false
    pageFailed = null
    render()
  }

  // askPage shows the page ask() answers (page 1: the live one); toMine
  // scrolls to one's own line; again: the page shown asked anew.
  function askPage(ask, toMine = false, again = false) {
    const seq = ++pageSeq
    clearTimeout(pageTimer)
    pageTimer = null
    paging = true
    pageStale = false
    pageAsked = Date.now()
    ask().then((res) => {
      if (seq !== pageSeq) return
      page = res.page > 1 ? res : null
      pageFailed = null
      toMe = toMine
    }, (e) => {
      if (seq !== pageSeq) return
      if (again && e.status === 404) page = null // no such page now
      else pageFailed = e
    }).finally(() => {
      if (seq !== pageSeq) return
      paging = false
      if (again) quietRender()
      else render()
      if (pageStale) pageChanged()
    })
  }

  // pageChanged: the arena changed, so a later page shown is asked again,
  // at most every PAGE_MS.
  function pageChanged() {
    if (!page) return
    if (paging) {
      pageStale = true
      return
    }
    if (pageTimer) return
    pageTimer = setTimeout(() => {
      pageTimer = null
      if (page) askPage(() => tournaments.standingsPage(id, page.page), false, true)
    }, Math.max(0, PAGE_MS - (Date.now() - pageAsked)))
  }

  // myLine is the signed-in player's arena line: the one shown, else the
  // one last asked for (GET .../games?player=ME), asked again after one's
  // own action and at most every MINE_MS.
  function myLine(me) {
    const shown = data.arena.standings.find((s) => s.name === me.name) || page?.standings.find((s) => s.name === me.name)
    if (shown) return shown
    if (!mine.asking && (mine.stale || Date.now() - mine.asked >= MINE_MS)) {
      mine.asking = true
      mine.stale = false
      mine.asked = Date.now()
      tournaments.playerGames(id, me.name).then((res) => {
        mine.line = res.line || null
      }, () => {}).finally(() => {
        mine.asking = false
        if (mine.line) quietRender()
      })
    }
    return mine.line
  }

  // myGame is the arena game the signed-in player is in now: every board
  // being played is in the answer's rounds.
  function myGame(me, line) {
    for (const r of data.rounds) for (const b of r.boards) if (!b.result && b.gameId && (b.white === me.name || b.black === me.name)) return b.gameId
    return line && line.playing
  }

  // A Swiss's or round robin's cross-table, once a round is paired; a
  // big Swiss's round by round.
  function cross() {
    if (!data.rounds.length || !data.standings.length) return null
    const byRound = data.tournament.format === 'swiss' && data.standings.length > CROSS_MAX
    return h('section', {class: 'panel tn-cross-panel'}, h('h2', {}, t('tournament.crossTable')),
      h('p', {class: 'muted tn-cross-help'}, t(byRound ? 'tournament.sheetHelp' : 'tournament.crossHelp')),
      (byRound ? roundSheet : crossTable)(data.standings, data.rounds, bots))
  }

  function statusLine(tr) {
    const start = new Date(tr.start)
    if (tr.status === 'upcoming') return h('span', {}, t('tournament.status.upcoming') + ' — ' + t('tournament.startsAt', {time: start.toLocaleString()}) + ' ',
      h('strong', {class: 'tn-countdown', 'data-test': 'tn-countdown'}, t('tournament.startsIn', {time: countdown(start.getTime())})))
    if (tr.status === 'running' && data.arena) {
      const end = Date.parse(data.arena.end)
      return h('span', {}, t('tournament.status.running') + ' — ', Date.now() < end
        ? h('strong', {class: 'tn-countdown', 'data-test': 'tn-ends'}, t('arena.endsIn', {time: countdown(end)}))
        : h('strong', {'data-test': 'tn-ending'}, t('arena.lastGames')))
    }
    const played = data.tables ? data.tables.rounds.length : data.rounds.length
    if (tr.status === 'running') return t('tournament.status.running') + ' — ' + t('tournament.roundOf', {n: played, total: tr.rounds || '?'})
    return t('tournament.status.finished') + (tr.finished ? ' — ' + new Date(tr.finished).toLocaleString() : '')
  }

  // actions: Join (with the password field when asked for it), or Withdraw,
  // Pause/Resume and an arena's Your game. The parts come in fixed places
  // (slot): Your game coming and going with each game does not move Pause
  // and Withdraw, and renewTree keeps them.
  function actions(tr, me, inIt) {
    if (tr.status === 'finished') return null
    const box = h('div', {class: 'tn-actions', 'data-test': 'tn-actions'})
    if (!me || me.guest) {
      box.append(h('p', {class: 'muted'}, t('tournament.registerToJoin')))
      return box
    }
    const line = data.arena && inIt ? myLine(me) : null
    const game = data.arena && inIt ? myGame(me, line) : null
    if (inIt) {
      const paused = tr.format === 'swiss' && data.players.find((p) => p.name === me.name)?.paused
      // what the player is first, then what they may do: pause, withdraw
      box.append(
        slot(game ? h('a', {href: '#/game/' + encodeURIComponent(game), class: 'button primary', 'data-test': 'tn-my-game'}, t('arena.yourGame')) : null),
        h('span', {class: 'tn-in', 'data-test': 'tn-in'}, t('tournament.youAreIn')),
        slot(data.arena && tr.status === 'running' ? (line && line.paused
          ? h('button', {type: 'button', 'data-test': 'tn-resume', 'data-action': 'resume', disabled: busy}, t('arena.resume'))
          : h('button', {type: 'button', 'data-test': 'tn-pause', 'data-action': 'pause', disabled: busy}, t('arena.pause'))) : null),
        // Swiss pause (issue 25): sit out the rounds paired while paused
        slot(tr.format === 'swiss' ? h('button', {type: 'button', 'data-test': paused ? 'tn-resume' : 'tn-pause', 'data-action': paused ? 'resume' : 'pause', disabled: busy},
          t(paused ? 'arena.resume' : 'arena.pause')) : null),
        h('button', {type: 'button', 'data-test': 'tn-withdraw', 'data-action': 'withdraw', disabled: busy}, t('tournament.withdraw')))
    } else {
      // The password field stays while asked for (its attributes do not change): what is typed stays.
      box.append(slot(asking ? h('label', {class: 'tn-field'}, h('span', {}, t('tournament.password')),
        h('input', {type: 'password', 'data-test': 'tn-join-password', autocomplete: 'off', 'aria-label': t('tournament.password')})) : null),
      h('button', {type: 'button', class: 'primary', 'data-test': 'tn-join', 'data-action': 'join', disabled: busy}, t('tournament.join')))
    }
    box.append(slot(actionError ? problem(actionError) : null))
    return box
  }

  // join joins, or first shows the password field when one is needed; a
  // refused password is emptied, to be typed again.
  function join() {
    const tr = data && data.tournament
    if (!tr) return
    if (tr.password && !asking) {
      asking = true
      render()
      main.querySelector('[data-test=tn-join-password]')?.focus()
      return
    }
    const pw = main.querySelector('[data-test=tn-join-password]')
    act(() => tournaments.join(id, asking && pw ? pw.value : undefined).catch((e) => {
      if (pw) pw.value = ''
      throw e
    }))
  }

  // The page's one listener for its buttons, links' rows and forms: what
  // was clicked says what to do (data-action); the page's state now says
  // the rest (the page shown, the player picked, the form's values).
  main.addEventListener('click', (ev) => {
    const el = ev.target.closest('[data-action]')
    if (!el || !main.contains(el) || el.disabled) return
    const inner = ev.target.closest('a, button')
    if (inner && inner !== el && el.contains(inner)) return // a link or button in a player's line does its own
    const at = page ? page.page : 1
    const me = session.current()
    switch (el.dataset.action) {
      case 'join': return join()
      case 'withdraw': return act(() => tournaments.withdraw(id))
      case 'pause': return act(() => tournaments.pause(id))
      case 'resume': return act(() => tournaments.resume(id))
      case 'add-bots': {
        const {level, count} = addBotsAsked(el.closest('[data-test=tn-add-bots]'))
        return act(() => tournaments.addBots(id, level, count))
      }
      case 'remove-bot': return act(() => tournaments.removeBot(id, Number(el.dataset.number)))
      case 'more-players':
        allPlayers = !allPlayers
        return render()
      case 'page-prev': return goPage(at - 1)
      case 'page-next': return goPage(at + 1)
      case 'my-place': return me && askPage(() => tournaments.standingsOf(id, me.name), true)
      case 'pick': return pick(el.closest('[data-user]').dataset.user)
      case 'close-games': return picked && pick(picked)
    }
  })
  main.addEventListener('keydown', (ev) => {
    if (ev.key === 'Enter' && ev.target.matches?.('[data-test=tn-join-password]')) join()
  })
  main.addEventListener('change', (ev) => {
    if (ev.target.matches?.('[data-test=tn-bot-level]')) botLevelChosen(ev.target)
  })

  function act(fn) {
    busy = true
    actionError = null
    render()
    fn().then(() => {
      asking = false
      mine.stale = true
      return load()
    }, (e) => {
      actionError = e
    }).finally(() => {
      busy = false
      render()
    })
  }

  function podium() {
    const top = (data.arena ? data.arena.standings : data.tables ? data.tables.standings : data.standings).filter((s) => s.rank <= 3)
    if (!top.length) return null
    return h('ol', {class: 'tn-podium', 'data-test': 'tn-podium', 'aria-label': t('tournament.podium')},
      top.map((s) => h('li', {class: 'place-' + s.rank}, h('span', {class: 'tn-medal', 'aria-hidden': 'true'}, String(s.rank)),
        h('span', {class: 'tn-place'}, t('tournament.place', {n: s.rank})), ' ', named(s.name, bots), ' ',
        h('span', {class: 'muted'}, t('tournament.pointsN', {n: s.points})))))
  }

  function resultText(b) {
    if (b.result === 'bye') return t('tournament.bye')
    if (b.result === '-') return t('tournament.aborted')
    if (!b.result) return t('tournament.playing')
    return b.result.replace('1/2', '½')
  }

  function rounds() {
    if (!data.rounds.length) return null
    return h('section', {class: 'panel tn-rounds'}, h('h2', {}, t('tournament.pairings')),
      [...data.rounds].reverse().map((r) => h('div', {class: 'tn-round', 'data-test': 'tn-round', 'data-round': r.number, 'data-key': r.number},
        h('h3', {}, t('tournament.round', {n: r.number})),
        h('ul', {class: 'tn-boards'}, r.boards.map((b) => h('li', {'data-board': b.board},
          h('span', {class: 'tn-board muted'}, String(b.board)),
          h('span', {class: 'tn-pair'}, named(b.white, bots), b.black ? h('span', {class: 'muted'}, ' – ') : null, b.black ? named(b.black, bots) : null),
          b.gameId ? h('a', {href: '#/game/' + encodeURIComponent(b.gameId), class: 'tn-result', 'data-test': 'tn-game', 'data-result': b.result}, resultText(b))
            : h('span', {class: 'tn-result', 'data-result': b.result}, resultText(b))))))))
  }

  function apply(res) {
    const same = !failed && data && JSON.stringify(data) === JSON.stringify(res)
    data = res
    failed = null
    heard = Date.now()
    if (!same && !busy && !asking) render()
    if (!same) pageChanged()
    if (res.tournament.status === 'finished') clearInterval(poll)
  }

  function load() {
    return tournaments.get(id).then((res) => {
      apply(res)
    }, (e) => {
      failed = e
      render()
    })
  }

  let heard = 0 // when the page last had the tournament
  render()
  load()
  const live = liveTournament(id, apply)
  poll = setInterval(() => {
    if (!busy && !asking && (!live.open() || Date.now() - heard >= LIVE_POLL_MS)) load()
  }, POLL_MS)
  tick = setInterval(() => {
    const el = main.querySelector('[data-test=tn-countdown]')
    if (el && data) el.textContent = t('tournament.startsIn', {time: countdown(Date.parse(data.tournament.start))})
    const ends = main.querySelector('[data-test=tn-ends]')
    if (ends && data && data.arena) ends.textContent = t('arena.endsIn', {time: countdown(Date.parse(data.arena.end))})
  }, 1000)
  return {
    relang: render,
    destroy() {
      live.close()
      clearInterval(poll)
      clearInterval(tick)
      clearTimeout(pageTimer)
      pageSeq++
    },
  }
}
