// A tournament pushed to its page as it changes (docs/api.md, GET
// /api/tournaments/{id}/events): each "tournament" event is what GET
// /api/tournaments/{id} answers. The browser's EventSource reconnects by
// itself after a break; while it is down the page asks every 3 s instead.

/**
 * liveTournament follows tournament id, handing each pushed answer to
 * onData; open() says whether the stream is up. The stream is closed once
 * the tournament has finished (nothing changes any more) or by close().
 */
export function liveTournament(id, onData) {
  if (typeof EventSource === 'undefined') return {open: () => false, close() {}}
  let es = new EventSource('/api/tournaments/' + encodeURIComponent(id) + '/events')
  let up = false
  const close = () => {
    up = false
    if (es) es.close()
    es = null
  }
  es.onopen = () => {
    up = true
  }
  es.onerror = () => {
    up = false // the browser tries again by itself; refused (503), it stops, and polling goes on
  }
  es.addEventListener('tournament', (ev) => {
    let res
    try {
      res = JSON.parse(ev.data)
    } catch {
      return
    }
    up = true
    onData(res)
    if (res.tournament && res.tournament.status === 'finished') close()
  })
  return {open: () => up, close}
}
