// The lesson and puzzle pages' own helpers: a lesson text in the interface
// language, and the link to a game's lesson path. Their interface words
// are in lang/*.js with every other string (so the completeness and
// glossary tests cover them); lesson texts themselves are in the lesson
// data (learn/lessons/<game>.json), keyed by language.

import {t, lang} from '../i18n.js'

/** pick chooses a lesson text ({en, ko, mn}) in the interface language. */
export function pick(text) {
  if (!text) return ''
  return text[lang()] || text.en || ''
}

// About how long each game's lesson path takes a new player (the first
// game not counted): Skjuub has twice the steps of the others.
const MINUTES = {sgolte: 5, sploof: 5, skjuub: 10, skyjo: 5}

/** cta is the link to a game's lesson path: "Learn Sgolte in 5 minutes". */
export function cta(game, title) {
  return t('learn.cta', {game: title, minutes: MINUTES[game] || 5})
}
