package learn_test

import (
	"os"
	"regexp"
	"testing"

	"github.com/tabula-games/tabula/learn"
	"github.com/tabula-games/tabula/rulesdoc"
)

// texts lists every text of a course with where it is.
func texts(c *learn.Course) map[string]learn.Text {
	out := map[string]learn.Text{"title": c.Title}
	for _, l := range c.Lessons {
		out[l.ID+" title"] = l.Title
		for i, s := range l.Steps {
			w := l.ID + " step " + string(rune('1'+i))
			out[w+" text"] = s.Text
			if s.Done != nil {
				out[w+" done"] = s.Done
			}
			if s.Wrong != nil {
				out[w+" wrong"] = s.Wrong
			}
			for _, tr := range s.Tries {
				out[w+" why "+tr.Move] = tr.Why
			}
		}
	}
	return out
}

// notation is a move or square written in a game's notation, which is the
// same in every language and may contain letters of a term ("c3N", "swap b2").
var notation = regexp.MustCompile(`\b(swap|flip|take|draw|pass) [a-d][1-3]\b|\bswap\b|\bpass\b`)

// TestLessonsUseTheGlossary: the lessons speak the glossary's words (the
// same test as the interface strings and the rules pages get): where the
// English text has a term, the Korean and Mongolian texts have the term's
// word, and no text uses a word the glossary says to avoid.
func TestLessonsUseTheGlossary(t *testing.T) {
	data, err := os.ReadFile("../docs/rules/glossary.json")
	if err != nil {
		t.Fatal(err)
	}
	g, err := rulesdoc.ParseGlossary(data)
	if err != nil {
		t.Fatal(err)
	}
	for _, game := range games {
		c, err := learn.LoadCourse(learn.Files(), game)
		if err != nil {
			t.Fatal(err)
		}
		for where, text := range texts(c) {
			for _, term := range g.Terms {
				if !term.For(game) {
					continue
				}
				has := term.EN.Matches(text["en"])
				for _, lang := range rulesdoc.Languages {
					w := term.In(lang)
					s := text[lang]
					if lang != "en" {
						s = notation.ReplaceAllString(s, " ")
					}
					if a := w.Avoided(s); a != "" {
						t.Errorf("%s %s (%s): %q is not the glossary's word for %q: use %q\n  %s", game, where, lang, a, term.EN.Word, w.Word, s)
					}
					if lang != "en" && has && !w.Matches(s) {
						t.Errorf("%s %s (%s): the English has %q but this text lacks the glossary's %q\n  en: %s\n  %s: %s",
							game, where, lang, term.EN.Word, w.Word, text["en"], lang, s)
					}
				}
			}
		}
	}
}
