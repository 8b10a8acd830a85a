// Light and dark: the site follows the system's colour scheme until the
// visitor picks one, which is remembered. The CSS gives every colour as
// light-dark(light, dark) and this module sets the root's color-scheme
// (data-theme), so no colour is written twice. Board themes (the look of
// each game's board) are remembered per game.

import * as prefs from './prefs.js'

export const schemes = ['auto', 'light', 'dark']
export const boardThemes = {sgolte: ['sand', 'slate', 'forest'], sploof: ['wood', 'walnut', 'sea'], skjuub: ['linen', 'stone', 'olive'], skyjo: ['plain', 'felt', 'wine']}

const listeners = new Set()
const media = window.matchMedia ? window.matchMedia('(prefers-color-scheme: dark)') : null

export function scheme() {
  const s = prefs.get('scheme', 'auto')
  return schemes.includes(s) ? s : 'auto'
}

/** dark: the page is dark now (chosen, or the system's while on auto). */
export function dark() {
  const s = scheme()
  return s === 'dark' || (s === 'auto' && !!media && media.matches)
}

export function setScheme(s) {
  if (!schemes.includes(s)) return
  prefs.set('scheme', s)
  apply()
}

/** apply writes the scheme on the root element (auto: no attribute, the CSS follows the system). */
export function apply() {
  const s = scheme()
  if (s === 'auto') delete document.documentElement.dataset.theme
  else document.documentElement.dataset.theme = s
  for (const fn of listeners) fn(s)
}

export function onChange(fn) {
  listeners.add(fn)
  return () => listeners.delete(fn)
}

export function boardTheme(game) {
  const list = boardThemes[game]
  if (!list) return null
  const v = prefs.get('board.' + game, list[0])
  return list.includes(v) ? v : list[0]
}

export function setBoardTheme(game, v) {
  if (boardThemes[game] && boardThemes[game].includes(v)) prefs.set('board.' + game, v)
}

if (media) media.addEventListener('change', () => { for (const fn of listeners) fn(scheme()) })
apply()
