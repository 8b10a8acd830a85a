// One Chromium for the whole run: run starts this before the test files and
// each file's launch() connects to it (TABULA_BROWSER_WS), instead of every
// file starting a browser of its own — about 0.9 CPU seconds each, 60 of the
// suite's. A file's contexts are its own, and closing its browser closes
// them and leaves the others'. Prints the endpoint on a line of its own and
// runs until it is stopped.

import {createRequire} from 'node:module'
import {chromiumOptions} from './chromium.mjs'

const require = createRequire(import.meta.url)
const {chromium} = require('playwright-core')

// Loopback only; the endpoint's path is random, known to run's children.
const server = await chromium.launchServer({...chromiumOptions(), host: '127.0.0.1'})
console.log(server.wsEndpoint())
const stop = async () => {
  await server.close()
  process.exit(0)
}
process.on('SIGTERM', stop)
process.on('SIGINT', stop)
