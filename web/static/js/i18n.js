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

/** t('key', {name: 'x'}) is the string for key in the current language, {name} replaced. */
export function t(key, params) {
  let str = dictionaries[current][key] ?? en[key] ?? key
  if (params) str = str.replace(/\{(\w+)\}/g, (m, k) => (k in params ? String(params[k]) : m))
  return str
}
