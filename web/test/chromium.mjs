// How the tests start Chromium: one place for browserserver.mjs (the run's
// shared browser) and helpers.mjs's launch() (a file run on its own).

/** chromiumOptions are the options of chromium.launch and launchServer. */
export function chromiumOptions() {
  return {
    // Chromium's headless shell (Debian's chromium-headless-shell, which
    // run installs), not the full browser run headless: the same engine
    // without the browser's own interface, which in headless mode still
    // ran a renderer of its own pages beside the tests'. The same two test
    // files, one after the other: 35 CPU seconds of Chromium against 46.
    executablePath: process.env.CHROMIUM || '/usr/lib/chromium/chromium-headless-shell',
    // Every request beyond this machine goes to a proxy that is not there
    // (port 9, discard, closed: Chromium sends loopback past a proxy by
    // itself), so it fails at once — and newPage's pages record the failure
    // as an error, failing the test. A route that vetted every request did
    // the same at the cost of a round trip through this process for each.
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
      '--disable-background-networking', '--disable-component-update', '--disable-sync',
      '--proxy-server=http://127.0.0.1:9'],
  }
}
