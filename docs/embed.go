// Package docs holds the players' rules pages, embedded so that the web
// application can show them: rules/<game>.md in English and, where a
// translation exists, rules/<lang>/<game>.md.
package docs

import "embed"

// Rules is the rules directory: rules/*.md (English), rules/<lang>/*.md
// (translations, e.g. ko, mn) and rules/glossary.json (each game term's
// word in every language). Only these: the directory also holds Go code
// and tests.
//
//go:embed rules/*.md rules/*/*.md rules/glossary.json
var Rules embed.FS
