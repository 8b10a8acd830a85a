package rulesdoc

import (
	"encoding/json"
	"fmt"
	"regexp"
	"slices"
	"strings"
)

// Languages are the languages of the interface and of the rules pages,
// English first (it is authoritative).
var Languages = []string{"en", "ko", "mn"}

// Glossary is the game terms of glossary.json: one entry per term with its
// word in every language.
type Glossary struct {
	Terms []Term `json:"terms"`
}

// Term is one game term.
type Term struct {
	ID string `json:"id"`
	// Games lists the games whose pages and interface strings the term is
	// checked in; empty means all.
	Games []string `json:"games"`
	// Keys are prefixes of further interface strings that use the term
	// although they belong to no game ("colour.", "dir.").
	Keys []string `json:"keys"`
	EN   Word     `json:"en"`
	KO   Word     `json:"ko"`
	MN   Word     `json:"mn"`
}

// Word is a term's word in one language.
type Word struct {
	Word  string   `json:"word"`  // as written
	Match string   `json:"match"` // a regular expression finding the word and its forms
	Avoid []string `json:"avoid"` // other words for the term that must not be used
	// Strict: the word means nothing but this term, so it may appear only
	// where the English has the term.
	Strict bool   `json:"strict"`
	Def    string `json:"def"` // one line for players

	match *regexp.Regexp
	avoid []*regexp.Regexp
}

// In returns the term's word in lang ("en", "ko" or "mn").
func (t *Term) In(lang string) *Word {
	switch lang {
	case "en":
		return &t.EN
	case "ko":
		return &t.KO
	case "mn":
		return &t.MN
	}
	return nil
}

// For reports whether the term is used in game's pages and strings.
func (t *Term) For(game string) bool {
	return len(t.Games) == 0 || slices.Contains(t.Games, game)
}

// Matches reports whether text uses the word (in any of its forms).
func (w *Word) Matches(text string) bool { return w.match.MatchString(text) }

// Avoided returns the first avoided word that text uses, or "".
func (w *Word) Avoided(text string) string {
	for _, re := range w.avoid {
		if m := re.FindString(text); m != "" {
			return strings.TrimSpace(m)
		}
	}
	return ""
}

// ParseGlossary reads glossary.json and compiles its expressions.
func ParseGlossary(data []byte) (*Glossary, error) {
	var g Glossary
	if err := json.Unmarshal(data, &g); err != nil {
		return nil, fmt.Errorf("glossary: %w", err)
	}
	seen := map[string]bool{}
	for i := range g.Terms {
		t := &g.Terms[i]
		if t.ID == "" || seen[t.ID] {
			return nil, fmt.Errorf("glossary: term %d: missing or repeated id %q", i, t.ID)
		}
		seen[t.ID] = true
		for _, lang := range Languages {
			w := t.In(lang)
			if w.Word == "" || w.Def == "" {
				return nil, fmt.Errorf("glossary: %s: no %s word or definition", t.ID, lang)
			}
			expr := w.Match
			if expr == "" {
				expr = regexp.QuoteMeta(w.Word)
			}
			var err error
			if w.match, err = compileWord(expr); err != nil {
				return nil, fmt.Errorf("glossary: %s (%s): %w", t.ID, lang, err)
			}
			for _, a := range w.Avoid {
				re, err := compileWord(a)
				if err != nil {
					return nil, fmt.Errorf("glossary: %s (%s) avoid: %w", t.ID, lang, err)
				}
				w.avoid = append(w.avoid, re)
			}
		}
	}
	return &g, nil
}

// compileWord compiles expr, ignoring case, with \< and \> standing for the start and end
// of a word in any script (Go's \b knows only ASCII letters).
func compileWord(expr string) (*regexp.Regexp, error) {
	expr = strings.ReplaceAll(expr, `\<`, `(?:^|[^\p{L}\p{N}])`)
	expr = strings.ReplaceAll(expr, `\>`, `(?:[^\p{L}\p{N}]|$)`)
	return regexp.Compile("(?i)" + expr)
}
