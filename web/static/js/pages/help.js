// The players' help pages (#/help/<page>), rendered from docs/help as the
// rules pages are from docs/rules (pages/rules.js): help/index.json lists
// the translations, the page is shown in the interface language where one
// exists, else in English, saying so. The first is how tournaments are
// paired and scored (issue 25); the tournament pages link to it.

import {h} from '../dom.js'
import {t, lang} from '../i18n.js'
import {render} from '../markdown.js'

// The help pages, in the order of their navigation: [name, label key].
const PAGES = [['tournaments', 'help.tournaments']]

let indexPromise = null

function helpIndex() {
  if (!indexPromise) indexPromise = fetch('help/index.json').then((r) => r.json()).catch(() => ({en: PAGES.map(([p]) => p)}))
  return indexPromise
}

export function helpPage(main, [name]) {
  const known = PAGES.some(([p]) => p === name)
  // As on the rules pages: a line of links, the current one marked; the
  // tournaments page also leads back to the tournaments and the rules.
  const nav = h('nav', {class: 'rules-nav', 'aria-label': t('help.tournaments'), 'data-test': 'help-nav'},
    PAGES.map(([p, key]) => h('a', {href: '#/help/' + p, 'aria-current': p === name ? 'page' : null}, t(key))),
    h('a', {href: '#/tournaments'}, t('tournament.all')),
    h('a', {href: '#/rules'}, t('nav.rules')))
  main.append(nav)
  if (!known) {
    main.append(h('h1', {}, t('notFound.title')), h('p', {}, t('notFound.lead')))
    return
  }
  const note = h('p', {class: 'note', hidden: true, 'data-test': 'help-note'})
  const body = h('article', {class: 'rules help', 'data-test': 'help', lang: 'en'}, h('p', {}, t('tournament.loading')))
  main.append(note, body)
  helpIndex().then(async (idx) => {
    const l = lang()
    const translated = l !== 'en' && (idx[l] || []).includes(name)
    const res = await fetch(translated ? `help/${l}/${name}.md` : `help/${name}.md`)
    if (!res.ok) throw new Error(res.status)
    const text = await res.text()
    if (l !== 'en' && !translated) {
      note.hidden = false
      note.textContent = t('help.notTranslated')
    }
    body.lang = translated ? l : 'en'
    body.replaceChildren(render(text))
    body.setAttribute('data-ready', '')
  }).catch(() => body.replaceChildren(h('p', {class: 'error'}, t('error.network'))))
}
