// The rules page of each game, rendered from docs/rules (the translation
// in the interface language where one exists, else English, saying so),
// with its diagrams drawn on the game's own board and, at the end, the
// game's words from the glossary (docs/rules/glossary.json).

import {h} from '../dom.js'
import {t, lang} from '../i18n.js'
import {render} from '../markdown.js'
import {diagramFigure, drawDiagrams} from '../diagram.js'
import * as catalog from '../catalog.js'
import {gameTitle} from '../components/common.js'
import {cta} from '../lessons/text.js'

let indexPromise = null

function rulesIndex() {
  if (!indexPromise) indexPromise = fetch('rules/index.json').then((r) => r.json()).catch(() => ({en: catalog.gameNames()}))
  return indexPromise
}

export function rulesPage(main, [name]) {
  const nav = h('nav', {class: 'rules-nav', 'aria-label': t('nav.rules')},
    catalog.gameNames().map((g) => h('a', {href: '#/rules/' + g, 'aria-current': g === name ? 'page' : null}, gameTitle(g))))
  main.append(nav)
  if (!name || !catalog.gameNames().includes(name)) {
    main.append(h('h1', {}, t('rules.title')), h('ul', {class: 'rules-list'},
      catalog.gameNames().map((g) => h('li', {}, h('a', {href: '#/rules/' + g}, gameTitle(g)), ' — ', t('game.' + g + '.pitch')))))
    return
  }
  const body = h('article', {class: 'rules', 'data-test': 'rules', lang: 'en'})
  const note = h('p', {class: 'note', hidden: true})
  const learn = h('p', {class: 'rules-learn'}, h('a', {href: '#/learn/' + name, class: 'button primary', 'data-test': 'rules-learn'},
    cta(name, gameTitle(name))))
  main.append(learn, note, body)
  rulesIndex().then(async (idx) => {
    const l = lang()
    const translated = l !== 'en' && (idx[l] || []).includes(name)
    const url = translated ? `rules/${l}/${name}.md` : `rules/${name}.md`
    const text = await fetch(url).then((r) => r.text())
    if (l !== 'en' && !translated) {
      note.hidden = false
      note.textContent = t('rules.notTranslated')
    }
    body.lang = translated ? l : 'en'
    body.replaceChildren(render(forWeb(text), {diagram: diagramFigure}))
    const words = await glossaryFor(name, body.lang).catch(() => null)
    if (words) body.append(words)
    await drawDiagrams(body)
    body.setAttribute('data-ready', '')
  }).catch(() => body.replaceChildren(h('p', {class: 'error'}, t('error.network'))))
}

/**
 * forWeb takes out of a rules file what only the command line reads: its
 * examples (code blocks of tabula commands), its flags (a parenthesis
 * holding `-o players=N` or `--p1`, said in any language), the sentences
 * about the command line or naming a command, and the "-o " before an
 * option it names
 * (`starter=finisher` stays: the lobby offers the same option).
 */
export function forWeb(md) {
  const flag = '`(?:-o |--|tabula )[^`]*`'
  return md
    .replace(/^```[^\n]*\n(?:tabula [^\n]*\n)+```[^\n]*\n?/gm, '')
    .replace(new RegExp(`[ \\t]?\\([^()]*${flag}[^()]*\\)`, 'g'), '')
    .replace(/(^|[.!?:]\s+)[^.!?:\n|]*(?:command line|명령줄|тушаалын мөр|`tabula )[^.!?|]*[.!?]/gm, '$1')
    .replace(/`-o ([^`]+)`/g, '`$1`')
}

let glossaryPromise = null

/** glossaryFor lists the game's terms in lang with their definitions, English word beside. */
async function glossaryFor(game, lang) {
  if (!glossaryPromise) glossaryPromise = fetch('rules/glossary.json').then((r) => r.json())
  const {terms} = await glossaryPromise
  const mine = terms.filter((term) => !term.games.length || term.games.includes(game))
  if (!mine.length) return null
  const list = h('dl', {class: 'glossary'})
  for (const term of mine) {
    const w = term[lang] || term.en
    list.append(h('dt', {id: 'term-' + term.id}, w.word, lang !== 'en' ? h('span', {class: 'en', lang: 'en'}, ' (' + term.en.word + ')') : ''),
      h('dd', {}, w.def))
  }
  return h('section', {class: 'glossary-section', 'data-test': 'glossary'}, h('h2', {}, t('rules.words')), list)
}
