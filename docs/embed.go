// Package docs holds the players' rules pages, embedded so that the web
// application can show them: rules/<game>.md in English and, where a
// translation exists, rules/<lang>/<game>.md.
package docs

import "embed"

// Rules is the rules directory: rules/*.md (English) and rules/<lang>/*.md
// (translations, e.g. ko, mn). Only the pages: the directory also holds
// the test that keeps the translations in step.
//
//go:embed rules/*.md rules/*/*.md
var Rules embed.FS
