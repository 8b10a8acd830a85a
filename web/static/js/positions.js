// The positions of one game after n moves, from the replay endpoint
// (docs/api.md), each asked once. Stepping fast asks only for where the
// steps end: while one request is out, later wishes replace each other.

import {api} from './api.js'

export class Positions {
  /**
   * @param {string} id the game
   * @param {function} onShow (n, rep) with the replay answer for the latest wish
   * @param {function} onError (err)
   */
  constructor(id, onShow, onError) {
    this.id = id
    this.onShow = onShow
    this.onError = onError
    this.cache = new Map()
    this.want = null
    this.busy = false
  }

  /** show wishes for the position after n moves. */
  async show(n) {
    this.want = n
    if (this.busy) return
    this.busy = true
    try {
      while (this.want !== null) {
        const k = this.want
        let rep = this.cache.get(k)
        if (!rep) {
          try {
            rep = await api.replay(this.id, k)
          } catch (e) {
            if (this.want === k) this.want = null
            this.onError(e)
            continue
          }
          this.cache.set(k, rep)
        }
        if (this.want === k) {
          this.want = null
          this.onShow(k, rep)
        }
      }
    } finally {
      this.busy = false
    }
  }

  /** forget drops the positions after more than n moves (moves taken back: later ones will differ). */
  forget(n) {
    for (const k of [...this.cache.keys()]) if (k > n) this.cache.delete(k)
  }

  /** cancel forgets a wish not yet shown. */
  cancel() {
    this.want = null
  }
}
