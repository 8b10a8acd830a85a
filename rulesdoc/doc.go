// Package rulesdoc reads the players' rules pages (docs/rules/<game>.md in
// English, ko/ and mn/ translations): the glossary that fixes each game
// term's word in every language (glossary.json), and the diagrams embedded
// in the pages, which Build plays with the rules engines into
// docs/rules/diagrams.json — a generated file (go generate ./rulesdoc)
// that the web page reads and this package's tests keep up to date. Its
// tests check that the pages, the interface strings and the diagrams agree
// with the glossary and with the rules engines. It lives outside docs/,
// which holds pages only.
package rulesdoc

//go:generate go run ./gendiagrams ../docs
