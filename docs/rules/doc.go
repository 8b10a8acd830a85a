// Package rules is the players' rules pages (docs/rules/<game>.md in
// English, ko/ and mn/ translations), the glossary that fixes each game
// term's word in every language (glossary.json), and the diagrams embedded
// in the pages. Its tests check that the pages, the interface strings and
// the diagrams agree with the glossary and with the rules engines.
package rules
