// API tokens (#/tokens): make a token with a name and a scope, see its
// secret once (with a copy button), list the tokens with their last use,
// revoke one; and turn a registered account with no games into a bot
// account, for good, after a warning (docs/bots.md, docs/api.md).

import {h, clear, fmtTime} from '../dom.js'
import {t, lang} from '../i18n.js'
import {ApiError} from '../api.js'
import * as session from '../session.js'
import {errorBox} from '../components/common.js'
import {botBadge} from '../components/botbadge.js'

const scopes = ['bot:play', 'read', 'full']

/** call is the API (docs/api.md): the body, null for 204, or ApiError. */
async function call(method, path, body) {
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

export function tokensPage(main) {
  let tokens = null
  let failed = null
  let fresh = null // the token just made, whose secret is shown this once
  let confirming = false
  const msg = h('div', {'aria-live': 'polite'})
  const newBox = h('section', {class: 'panel', 'aria-labelledby': 'tok-new-h'})
  const listBox = h('section', {class: 'panel', 'aria-labelledby': 'tok-list-h', 'data-test': 'tokens-list'})
  const botBox = h('section', {class: 'panel', 'aria-labelledby': 'tok-bot-h', 'data-test': 'bot-section'})

  function render() {
    clear(main)
    const me = session.current()
    main.append(h('h1', {}, t('tokens.title')), h('p', {class: 'muted'}, t('tokens.lead')))
    if (!me || me.guest) {
      main.append(h('p', {'data-test': 'tokens-register'}, t('tokens.registerFirst'), ' ',
        h('a', {href: '#/account', class: 'button'}, t('account.register'))))
      return
    }
    main.append(msg, newBox, listBox, botBox)
    renderNew()
    renderList()
    renderBot()
  }

  function renderNew() {
    clear(newBox)
    const nameIn = h('input', {id: 'tok-name', 'data-test': 'token-name', required: true, maxlength: 64, autocomplete: 'off', placeholder: t('tokens.namePlaceholder')})
    const choice = h('fieldset', {class: 'tok-scopes'}, h('legend', {}, t('tokens.scope')),
      scopes.map((sc, i) => h('label', {class: 'tok-scope'},
        h('input', {type: 'radio', name: 'tok-scope', value: sc, checked: i === 0, 'data-test': 'scope-' + sc}),
        ' ', h('code', {}, sc), ' — ', t('tokens.scope.' + sc))))
    newBox.append(h('h2', {id: 'tok-new-h'}, t('tokens.new')),
      h('form', {onsubmit: async (ev) => {
        ev.preventDefault()
        const scope = choice.querySelector('input:checked').value
        try {
          fresh = await call('POST', '/tokens', {name: nameIn.value.trim(), scopes: [scope]})
          msg.replaceChildren()
          renderNew()
          await load()
        } catch (e) {
          msg.replaceChildren(errorBox(e))
        }
      }}, h('div', {class: 'field'}, h('label', {for: 'tok-name'}, t('tokens.name')), nameIn), choice,
      h('button', {type: 'submit', class: 'primary', 'data-test': 'token-create'}, t('tokens.create'))))
    if (fresh) {
      const secret = h('input', {readonly: true, value: fresh.token, class: 'tok-secret', 'data-test': 'token-secret', 'aria-label': t('tokens.secret'), onfocus: (ev) => ev.target.select()})
      const copied = h('span', {class: 'muted', 'aria-live': 'polite'})
      newBox.append(h('div', {class: 'tok-fresh', role: 'status', 'data-test': 'token-fresh'},
        h('p', {}, h('strong', {}, t('tokens.onceTitle', {name: fresh.name})), ' ', t('tokens.once')),
        h('div', {class: 'tok-copy'}, secret, h('button', {type: 'button', 'data-test': 'token-copy', onclick: async () => {
          secret.select()
          try {
            await navigator.clipboard.writeText(fresh.token)
            copied.textContent = t('tokens.copied')
          } catch {
            copied.textContent = t('tokens.copyByHand')
          }
        }}, t('tokens.copy')), ' ', copied),
        h('button', {type: 'button', 'data-test': 'token-done', onclick: () => {
          fresh = null
          renderNew()
        }}, t('tokens.done'))))
    }
  }

  function renderList() {
    clear(listBox)
    listBox.append(h('h2', {id: 'tok-list-h'}, t('tokens.list')))
    if (failed) {
      listBox.append(errorBox(failed))
      return
    }
    if (!tokens) {
      listBox.append(h('p', {class: 'muted'}, t('leaderboard.loading')))
      return
    }
    if (!tokens.length) {
      listBox.append(h('p', {class: 'muted', 'data-test': 'tokens-empty'}, t('tokens.none')))
      return
    }
    listBox.append(h('ul', {class: 'tok-list'}, tokens.map((tk) => h('li', {'data-test': 'token-row', 'data-token': tk.name},
      h('div', {class: 'tok-main'}, h('strong', {}, tk.name), ' ', tk.scopes.map((sc) => h('code', {class: 'tok-tag'}, sc))),
      h('div', {class: 'muted tok-when'}, t('tokens.created', {when: fmtTime(tk.created, lang())}), ' · ',
        h('span', {'data-test': 'token-used'}, tk.lastUsed ? t('tokens.used', {when: fmtTime(tk.lastUsed, lang())}) : t('tokens.never'))),
      h('button', {type: 'button', class: 'danger', 'data-test': 'token-revoke', onclick: async () => {
        if (!window.confirm(t('tokens.revokeConfirm', {name: tk.name}))) return
        try {
          await call('DELETE', '/tokens/' + tk.id)
          if (fresh && fresh.id === tk.id) {
            fresh = null
            renderNew()
          }
          await load()
        } catch (e) {
          msg.replaceChildren(errorBox(e))
        }
      }}, t('tokens.revoke'))))))
    listBox.append(h('p', {class: 'muted'}, t('tokens.cap')))
  }

  function renderBot() {
    clear(botBox)
    const me = session.current()
    botBox.append(h('h2', {id: 'tok-bot-h'}, t('tokens.botTitle')))
    if (me.bot) {
      botBox.append(h('p', {'data-test': 'bot-already'}, botBadge(true), ' ', t('tokens.isBot', {name: me.name})))
      return
    }
    botBox.append(h('p', {}, t('tokens.botLead')))
    if (!confirming) {
      botBox.append(h('button', {type: 'button', 'data-test': 'become-bot', onclick: () => {
        confirming = true
        renderBot()
      }}, t('tokens.becomeBot')))
      return
    }
    botBox.append(h('div', {class: 'tok-warning', role: 'alert', 'data-test': 'bot-warning'},
      h('p', {}, h('strong', {}, t('tokens.botWarnTitle'))), h('p', {}, t('tokens.botWarn', {name: me.name})),
      h('button', {type: 'button', class: 'danger', 'data-test': 'become-bot-confirm', onclick: async () => {
        try {
          await call('POST', '/me/bot')
          confirming = false
          await session.load() // the header and pages learn the account is a bot
          render()
          await load()
        } catch (e) {
          msg.replaceChildren(errorBox(e))
        }
      }}, t('tokens.botConfirm', {name: me.name})), ' ',
      h('button', {type: 'button', 'data-test': 'become-bot-cancel', onclick: () => {
        confirming = false
        renderBot()
      }}, t('tokens.cancel'))))
  }

  async function load() {
    try {
      tokens = (await call('GET', '/tokens')).tokens
      failed = null
    } catch (e) {
      failed = e
    }
    renderList()
  }

  render()
  const me = session.current()
  if (me && !me.guest) load()
  return {relang: render}
}
