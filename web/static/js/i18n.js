// Interface languages. The language follows the browser (navigator.languages)
// until the user picks one, which is remembered in localStorage.

import en from './lang/en.js'
import ko from './lang/ko.js'
import mn from './lang/mn.js'

export const dictionaries = {en, ko, mn}

export const languages = [
  {code: 'en', name: 'English'},
  {code: 'ko', name: '한국어'},
  {code: 'mn', name: 'Монгол'},
]

const STORAGE_KEY = 'tabula.lang'
let current = initial()
document.documentElement.lang = current

function initial() {
  let saved = null
  try {
    saved = localStorage.getItem(STORAGE_KEY)
  } catch {
    // storage may be disabled; the browser's language still works
  }
  if (saved && dictionaries[saved]) return saved
  for (const l of navigator.languages || [navigator.language || 'en']) {
    const base = String(l).slice(0, 2).toLowerCase()
    if (dictionaries[base]) return base
  }
  return 'en'
}

export function lang() {
  return current
}

/** setLang switches the interface language, remembers it and tells listeners. */
export function setLang(code) {
  if (!dictionaries[code] || code === current) return
  current = code
  try {
    localStorage.setItem(STORAGE_KEY, code)
  } catch {
    // not remembered; still switched
  }
  document.documentElement.lang = code
  window.dispatchEvent(new CustomEvent('tabula:lang', {detail: code}))
}

const pluralRules = {}

/**
 * pluralKey is the key of the form of key that suits the count in params
 * (n, else plies) in language code: key + '.' + the language's plural
 * category of it (Intl.PluralRules: 'one', 'few', 'other'…) where dict has
 * that form, else key itself (the form of every other count). English
 * writes 'x.one' beside 'x'; Korean, with no plural, needs none.
 */
export function pluralKey(dict, key, params, code) {
  const n = params ? (params.n ?? params.plies) : undefined
  if (typeof n !== 'number' || typeof Intl === 'undefined' || !Intl.PluralRules) return key
  if (!pluralRules[code]) pluralRules[code] = new Intl.PluralRules(code)
  const form = key + '.' + pluralRules[code].select(n)
  return form in dict ? form : key
}

/** t('key', {name: 'x'}) is the string for key in the current language, {name} replaced; a count n picks its plural form. */
export function t(key, params) {
  const dict = dictionaries[current]
  const k = pluralKey(dict, key, params, current)
  let str = dict[k] ?? en[k] ?? key
  if (params) str = str.replace(/\{(\w+)\}/g, (m, k) => (k in params ? String(params[k]) : m))
  return str
}
