// The moderators' page (#/moderation; docs/api.md, "Moderation"): the
// reports with the reported chat line in its context, the actions on each
// (mute for a while or until undone, close the account, dismiss), the
// undo of each, and the log of every action. Only moderators see it: the
// server answers 403 to anyone else, and the menu shows its link to
// moderators alone (moderationLink).

import {h, clear, fmtTime} from '../dom.js'
import {t, lang} from '../i18n.js'
import * as session from '../session.js'
import {errorText} from '../components/common.js'
import {send} from '../components/reportdialog.js'

// Whether the signed-in user is a moderator, asked once per user.
let role = {name: null, promise: null}

/** isModerator resolves true when the signed-in user is a moderator. */
export function isModerator() {
  const me = session.current()
  if (!me || me.guest) return Promise.resolve(false)
  if (role.name !== me.name) {
    role = {name: me.name, promise: send('GET', '/moderation/role').then((r) => !!(r && r.moderator), () => false)}
  }
  return role.promise
}

/** moderationLink adds the menu's Moderation link to list (a <ul>) when the user is a moderator. */
export function moderationLink(list, link) {
  isModerator().then((yes) => {
    if (yes && list.isConnected) list.append(h('li', {}, link('#/moderation', t('nav.moderation'), 'nav-moderation')))
  })
}

const MUTES = [['60', 'mod.mute.hour'], ['1440', 'mod.mute.day'], ['10080', 'mod.mute.week'], ['0', 'mod.mute.undone']]
const STATUSES = ['open', 'actioned', 'dismissed', 'all']

export function moderationPage(main) {
  const head = h('h1', {}, t('mod.title'))
  main.append(head)
  role = {name: null, promise: null} // asked afresh: the role may have been granted since
  isModerator().then((yes) => {
    if (!yes) {
      main.append(h('p', {'data-test': 'mod-forbidden'}, t('mod.forbidden')))
      return
    }
    draw()
  })

  function draw() {
    const status = h('select', {'data-test': 'mod-status', 'aria-label': t('mod.status'), onchange: () => loadReports()},
      STATUSES.map((s) => h('option', {value: s}, t('mod.status.' + s))))
    const list = h('div', {class: 'mod-reports', 'data-test': 'mod-reports', 'aria-live': 'polite'})
    const log = h('div', {class: 'mod-log-wrap', 'data-test': 'mod-log'})
    main.append(
      h('p', {class: 'muted'}, t('mod.lead')),
      h('section', {class: 'panel'}, h('div', {class: 'mod-head'}, h('h2', {}, t('mod.reports')), h('label', {}, t('mod.status'), ' ', status)), list),
      undoPanel(),
      h('section', {class: 'panel'}, h('h2', {}, t('mod.log')), log))

    async function loadReports() {
      clear(list)
      try {
        const res = await send('GET', '/moderation/reports?status=' + status.value)
        const reports = res.reports || []
        if (!reports.length) list.append(h('p', {class: 'muted', 'data-test': 'mod-none'}, t('mod.none')))
        for (const r of reports) list.append(reportCard(r))
      } catch (e) {
        list.append(failure(e))
      }
    }

    async function loadLog() {
      clear(log)
      try {
        const res = await send('GET', '/moderation/log')
        const rows = res.log || []
        if (!rows.length) {
          log.append(h('p', {class: 'muted'}, t('mod.logEmpty')))
          return
        }
        log.append(h('table', {class: 'mod-log'},
          h('thead', {}, h('tr', {}, ['mod.when', 'mod.who', 'mod.what', 'mod.whom', 'mod.why'].map((k) => h('th', {scope: 'col'}, t(k))))),
          h('tbody', {}, rows.map((e) => h('tr', {'data-test': 'mod-log-row'},
            h('td', {}, fmtTime(e.at, lang())), h('td', {}, e.actor),
            h('td', {}, actionName(e.action), e.report ? ' #' + e.report : '', e.detail ? h('div', {class: 'muted'}, e.detail) : null),
            h('td', {}, e.target ? h('a', {href: '#/user/' + encodeURIComponent(e.target)}, e.target) : ''),
            h('td', {class: 'mod-why'}, e.reason))))))
      } catch (e) {
        log.append(failure(e))
      }
    }

    function refresh() {
      loadReports()
      loadLog()
    }

    // reportCard is one report: who reported whom, why, the line in its
    // context, and the actions (each needs a reason, which the log keeps).
    function reportCard(r) {
      const note = h('p', {class: 'mod-result', 'aria-live': 'polite'})
      const why = h('input', {type: 'text', maxlength: 500, 'data-test': 'mod-reason', placeholder: t('mod.reasonHint'), 'aria-label': t('mod.reason')})
      const mute = h('select', {'data-test': 'mod-mute-for', 'aria-label': t('mod.muteFor')}, MUTES.map(([v, k]) => h('option', {value: v}, t(k))))
      async function act(action, body) {
        if (!why.value.trim()) {
          note.replaceChildren(h('span', {class: 'error', role: 'alert'}, t('mod.needReason')))
          why.focus()
          return
        }
        try {
          await send('POST', '/moderation/' + action, {reason: why.value, report: r.id, ...body})
          refresh()
        } catch (e) {
          note.replaceChildren(failure(e))
        }
      }
      const card = h('article', {class: 'mod-report', 'data-test': 'mod-report', 'data-status': r.status},
        h('header', {}, h('strong', {}, '#' + r.id, ' · ', t('report.reason.' + r.reason)), ' ',
          h('span', {class: 'muted'}, fmtTime(r.created, lang())), ' ', h('span', {class: 'mod-badge'}, t('mod.status.' + r.status))),
        h('p', {}, t('mod.byOn', {reporter: '\u0000', user: '\u0001'}).split(/([\u0000\u0001])/).map((part) =>
          part === '\u0000' ? h('a', {href: '#/user/' + encodeURIComponent(r.reporter)}, r.reporter)
            : part === '\u0001' ? h('a', {href: '#/user/' + encodeURIComponent(r.user), 'data-test': 'mod-user'}, r.user) : part)),
        r.game ? h('p', {}, h('a', {href: '#/game/' + encodeURIComponent(r.game)}, t('mod.game', {id: r.game}))) : null,
        r.context && r.context.length ? h('ol', {class: 'mod-context', 'data-test': 'mod-context'}, r.context.map((c) =>
          h('li', {class: c.n === r.line ? 'reported' : '', 'data-test': c.n === r.line ? 'mod-line' : null},
            h('span', {class: 'chat-who'}, c.user || '?'), ' ', h('span', {}, c.text)))) : null,
        r.text ? h('blockquote', {class: 'mod-text'}, r.text) : null)
      if (r.status === 'open') {
        card.append(h('div', {class: 'mod-actions'}, why,
          h('span', {class: 'mod-buttons'},
            mute, h('button', {type: 'button', 'data-test': 'mod-mute', onclick: () => act('mute', {user: r.user, minutes: Number(mute.value)})}, t('mod.mute')),
            h('button', {type: 'button', 'data-test': 'mod-close', onclick: () => {
              if (confirm(t('mod.closeConfirm', {name: r.user}))) act('close', {user: r.user})
            }}, t('mod.close')),
            h('button', {type: 'button', 'data-test': 'mod-dismiss', onclick: () => act('dismiss', {})}, t('mod.dismiss')))))
      } else {
        card.append(h('div', {class: 'mod-actions'}, why,
          h('span', {class: 'mod-buttons'}, h('button', {type: 'button', 'data-test': 'mod-reopen-report', onclick: () => act('reopen-report', {})}, t('mod.reopenReport')))))
      }
      card.append(note)
      return card
    }

    // undoPanel lifts a mute or reopens a closed account, by name.
    function undoPanel() {
      const name = h('input', {type: 'text', maxlength: 24, 'data-test': 'mod-undo-user', autocomplete: 'off', 'aria-label': t('mod.user')})
      const why = h('input', {type: 'text', maxlength: 500, 'data-test': 'mod-undo-reason', 'aria-label': t('mod.reason'), placeholder: t('mod.reasonHint')})
      const note = h('p', {class: 'mod-result', 'aria-live': 'polite', 'data-test': 'mod-undo-result'})
      async function undo(action) {
        try {
          await send('POST', '/moderation/' + action, {user: name.value.trim(), reason: why.value})
          note.replaceChildren(t(action === 'unmute' ? 'mod.unmuted' : 'mod.reopened', {name: name.value.trim()}))
          loadLog()
        } catch (e) {
          note.replaceChildren(failure(e))
        }
      }
      return h('section', {class: 'panel'}, h('h2', {}, t('mod.undo')), h('p', {class: 'muted'}, t('mod.undoLead')),
        h('div', {class: 'mod-undo'},
          h('label', {}, h('span', {}, t('mod.user')), name), h('label', {}, h('span', {}, t('mod.reason')), why),
          h('span', {class: 'mod-buttons'},
            h('button', {type: 'button', 'data-test': 'mod-unmute', onclick: () => undo('unmute')}, t('mod.unmute')),
            h('button', {type: 'button', 'data-test': 'mod-reopen', onclick: () => undo('reopen')}, t('mod.reopen')))),
        note)
    }

    refresh()
  }
}

function actionName(a) {
  const key = 'mod.action.' + a
  const s = t(key)
  return s === key ? a : s
}

/** failure says why an action was refused: the page's words, and the server's when they say more. */
function failure(e) {
  const text = errorText(e)
  return h('p', {class: 'error', role: 'alert'}, text, e.message && e.message !== text ? h('span', {class: 'muted'}, ' (' + e.message + ')') : null)
}
