// Hints for a first game, from the position and the server's legal moves
// only. Skjuub's are the most detailed (which skjuubs can move, which moves
// capture or sacrifice, how close the loss rule is), computed with the
// board's own model of activity; the other games' boards already mark
// every legal target, so their hint says so.

import {pieces, active, parseAction} from '../games/skjuub/model.js'
import {t} from '../i18n.js'

/** hints returns the hint lines for the user's seat, or [] when it is not their turn. */
export function hints(game, view, legal) {
  if (!legal || !legal.length) return [t('learn.hint.theirTurn')]
  if (game !== 'skjuub') return [t('learn.hint.legal', {n: legal.length})]
  return skjuubHints(view, legal)
}

function skjuubHints(view, legal) {
  const me = view.toMove
  const map = pieces(view)
  const lines = []
  if (view.phase === 'bonus') lines.push(t('learn.hint.skjuub.bonus'))
  const moving = legal.map((m) => ({text: m, a: parseAction(m)})).filter(({a}) => a && (a.kind === 'slide' || a.kind === 'tumble'))
  const movable = [...new Set(moving.map(({a}) => a.from))].sort()
  const mine = [...map.values()].filter((p) => p.player === me).length
  if (movable.length) lines.push(t('learn.hint.skjuub.movable', {list: movable.join(', ')}))
  else if (mine) lines.push(t('learn.hint.skjuub.noneMovable'))
  if (!mine) lines.push(t('learn.hint.skjuub.place'))
  const captures = []
  const sacrifices = []
  for (const {text, a} of moving) {
    const after = new Map(map)
    const p = after.get(a.from)
    after.delete(a.from)
    after.set(a.to, {player: p.player, dir: a.kind === 'tumble' ? {N: 'S', S: 'N', E: 'W', W: 'E'}[p.dir] : p.dir})
    if ([...map].some(([sq, q]) => q.player !== me && active(map, sq) && !active(after, sq))) captures.push(text)
    if (!active(after, a.to)) sacrifices.push(text)
  }
  if (captures.length) lines.push(t('learn.hint.skjuub.captures', {list: captures.join(', ')}))
  if (sacrifices.length) lines.push(t('learn.hint.skjuub.sacrifices', {list: sacrifices.join(', ')}))
  if (view.phase !== 'bonus' && movable.length > 0 && movable.length <= 2) lines.push(t('learn.hint.skjuub.danger', {n: movable.length}))
  return lines
}
