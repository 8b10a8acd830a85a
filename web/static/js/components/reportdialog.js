// Reporting a player or one of their chat lines to the moderators
// (docs/api.md, "Moderation"): a dialog with the reason and the reporter's
// own words, sent as POST /api/reports. A chat line is named by its game
// and number only — the server finds who said it and keeps the line's text
// as it was. The reported player is not told.

import {h} from '../dom.js'
import {t} from '../i18n.js'
import {ApiError} from '../api.js'
import * as session from '../session.js'
import {errorText} from './common.js'

/** REASONS are the reasons the server accepts (moderation.Reasons). */
export const REASONS = ['abuse', 'spam', 'cheating', 'name', 'other']
const MAX_TEXT = 1000

/** send calls the API: the body, null for 204, or ApiError. */
export async function send(method, path, body) {
  const opts = {method, headers: {Accept: 'application/json'}, credentials: 'same-origin'}
  if (body !== undefined) {
    opts.headers['Content-Type'] = 'application/json'
    opts.body = JSON.stringify(body)
  }
  let res
  try {
    res = await fetch('/api' + path, opts)
  } catch (e) {
    throw new ApiError(0, 'network', String(e.message || e))
  }
  const data = res.status === 204 ? null : await res.json().catch(() => null)
  if (!res.ok) {
    const err = data && data.error
    throw new ApiError(res.status, (err && err.code) || 'http_' + res.status, (err && err.message) || res.statusText)
  }
  return data
}

/**
 * openReport shows the dialog: {user} for a player, or {game, line, text,
 * who} for a chat line. It resolves when the dialog closes: true if a
 * report was sent.
 */
export function openReport({user, game, line, text, who}) {
  return new Promise((resolve) => {
    let sent = false
    const reason = h('select', {'data-test': 'report-reason', onchange: () => showError('')},
      h('option', {value: ''}, t('report.choose')),
      REASONS.map((r) => h('option', {value: r}, t('report.reason.' + r))))
    const words = h('textarea', {'data-test': 'report-text', maxlength: MAX_TEXT, rows: 4, placeholder: t('report.textHint')})
    const err = h('p', {class: 'error', role: 'alert', 'data-test': 'report-error', hidden: true})
    const submit = h('button', {type: 'submit', class: 'primary', 'data-test': 'report-send'}, t('report.send'))
    const cancel = h('button', {type: 'button', 'data-test': 'report-cancel', onclick: () => dlg.close()}, t('report.cancel'))
    const quoted = line ? h('blockquote', {class: 'report-line', 'data-test': 'report-quoted'},
      who ? h('span', {class: 'chat-who'}, who + ': ') : null, text) : null
    const form = h('form', {method: 'dialog', class: 'report-form', onsubmit: async (ev) => {
      ev.preventDefault()
      if (!reason.value) {
        showError(t('report.needReason'))
        reason.focus()
        return
      }
      submit.disabled = true
      try {
        const body = {reason: reason.value, text: words.value}
        if (line) Object.assign(body, {game, line})
        else body.user = user
        await send('POST', '/reports', body)
        sent = true
        form.replaceWith(h('div', {class: 'report-done', 'data-test': 'report-done'}, h('p', {}, t('report.thanks')),
          h('p', {class: 'report-buttons'}, h('button', {type: 'button', class: 'primary', onclick: () => dlg.close()}, t('report.close')))))
        dlg.querySelector('.report-done button').focus()
      } catch (e) {
        const key = 'report.error.' + e.code
        showError(t(key) === key ? errorText(e) : t(key))
        submit.disabled = false
      }
    }},
    quoted,
    h('label', {class: 'report-field'}, h('span', {}, t('report.reason')), reason),
    h('label', {class: 'report-field'}, h('span', {}, t('report.text')), words),
    h('p', {class: 'muted report-note'}, t('report.note')),
    err,
    h('p', {class: 'report-buttons'}, cancel, ' ', submit))
    const title = line ? t('report.lineTitle') : t('report.userTitle', {name: user})
    const dlg = h('dialog', {class: 'report-dialog', 'data-test': 'report-dialog', 'aria-labelledby': 'report-title'},
      h('h2', {id: 'report-title'}, title), form)
    function showError(msg) {
      err.textContent = msg
      err.hidden = !msg
    }
    dlg.addEventListener('close', () => {
      dlg.remove()
      resolve(sent)
    })
    document.body.append(dlg)
    dlg.showModal()
    reason.focus()
  })
}

/**
 * reportButton is the Report button of a player's profile: for a signed-in
 * user on someone else's profile, else null.
 */
export function reportButton(user) {
  const me = session.current()
  if (!me || me.name === user.name) return null
  return h('button', {type: 'button', class: 'report-button', 'data-test': 'report-user',
    onclick: () => openReport({user: user.name})}, t('report.button'))
}
