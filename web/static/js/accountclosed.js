// A closed account (docs/api.md, Moderation): the server closes the
// account's sockets with code 1008 and a reason starting "closed", and
// refuses every later request (401). The channels stop reconnecting then
// (channel.js) and say so with a 'tabula:account-closed' event; here the
// tab signs out — its cookie speaks for nobody now — and tells the reader
// why, until someone signs in again.

import {h} from './dom.js'
import {t} from './i18n.js'
import * as session from './session.js'

/** EVENT is the window event a channel closed for a closed account dispatches. */
export const EVENT = 'tabula:account-closed'

let banner = null

function show() {
  if (!banner) {
    banner = h('div', {class: 'account-closed', role: 'alert', 'data-test': 'account-closed'})
    document.getElementById('top')?.after(banner)
  }
  banner.textContent = t('account.closedNotice')
}

window.addEventListener(EVENT, () => {
  if (banner) return
  show()
  // Signed out here whatever the server answers (the logout may be refused
  // like everything else): the session's listeners close the sockets.
  session.logout().catch(() => {})
})

window.addEventListener('tabula:lang', () => {
  if (banner) show()
})

session.onChange((u) => {
  if (u && banner) {
    banner.remove()
    banner = null
  }
})
