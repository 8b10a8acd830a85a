// The browser tests' one process (web/test/run runs it: node suite.mjs):
// every file named in TABULA_TEST_FILES (one a line), each as a suite of its
// own in a scope of its own (helpers.mjs's fileScope: its pages, its
// hooks), TABULA_TEST_CONCURRENCY files at a time, in the order given. One
// Node process and one Chromium for the run: a process a file cost each
// file about 1.4 CPU seconds to start Node, load playwright-core and start
// a browser, and its first pages fresh contexts.

import {describe} from 'node:test'
import path from 'node:path'
import {pathToFileURL} from 'node:url'
import {fileScope} from './helpers.mjs'

const files = (process.env.TABULA_TEST_FILES || '').split('\n').filter(Boolean)
if (!files.length) throw new Error('suite.mjs: TABULA_TEST_FILES names no test file')
const concurrency = Number(process.env.TABULA_TEST_CONCURRENCY || 3)
// A file that has not ended in 15 minutes fails (as --test-timeout did
// each file's process); run outside node --test, this process has no other.
const FILE_TIMEOUT_MS = 15 * 60 * 1000

describe('browser tests', {concurrency}, () => {
  for (const file of files) {
    const url = pathToFileURL(path.resolve(file)).href
    describe(path.basename(file), {concurrency: 1, timeout: FILE_TIMEOUT_MS}, () => fileScope(file, () => import(url)))
  }
})
