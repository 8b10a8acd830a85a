// Sounds for a move, a capture, the end of a game and low time, made with
// WebAudio (no sound files). Off until the visitor turns them on; the
// choice is remembered. Browsers start audio only after a user gesture:
// turning sound on is one, and a page loaded with sound on waits for the
// first click or key press.

import * as prefs from './prefs.js'

// each sound: notes of [frequency Hz, start s, length s, waveform]
const SOUNDS = {
  move: [[620, 0, 0.07, 'triangle']],
  capture: [[520, 0, 0.06, 'square'], [350, 0.06, 0.12, 'square']],
  end: [[523, 0, 0.16, 'sine'], [659, 0.14, 0.16, 'sine'], [784, 0.28, 0.36, 'sine']],
  low: [[880, 0, 0.09, 'sine'], [880, 0.18, 0.09, 'sine'], [880, 0.36, 0.09, 'sine']],
}

let ctx = null

export function on() {
  return prefs.get('sound', 'off') === 'on'
}

export function setOn(v) {
  prefs.set('sound', v ? 'on' : 'off')
  if (v) unlock()
}

function unlock() {
  const AC = window.AudioContext || window.webkitAudioContext
  if (!AC) return null
  if (!ctx) ctx = new AC()
  if (ctx.state === 'suspended') ctx.resume().catch(() => {})
  return ctx
}

/** play plays a sound by name (move, capture, end, low) when sound is on. */
export function play(kind) {
  const notes = SOUNDS[kind]
  if (!notes || !on()) return
  const ac = unlock()
  if (!ac) return
  for (const [freq, at, len, type] of notes) {
    const t0 = ac.currentTime + at
    const osc = ac.createOscillator()
    const gain = ac.createGain()
    osc.type = type
    osc.frequency.value = freq
    gain.gain.setValueAtTime(0.0001, t0)
    gain.gain.exponentialRampToValueAtTime(0.18, t0 + 0.012)
    gain.gain.exponentialRampToValueAtTime(0.0001, t0 + len)
    osc.connect(gain).connect(ac.destination)
    osc.start(t0)
    osc.stop(t0 + len + 0.03)
  }
}

// A page opened with sound on may play only after the visitor's first gesture.
for (const ev of ['pointerdown', 'keydown']) {
  document.addEventListener(ev, () => {
    if (on()) unlock()
  }, {once: true, capture: true})
}
