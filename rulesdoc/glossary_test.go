package rulesdoc

import (
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
)

func loadGlossary(t *testing.T) *Glossary {
	t.Helper()
	data, err := os.ReadFile("glossary.json")
	if err != nil {
		t.Fatal(err)
	}
	g, err := ParseGlossary(data)
	if err != nil {
		t.Fatal(err)
	}
	return g
}

// gameNames are the games that have a rules page.
var gameNames = []string{"sgolte", "skjuub", "skyjo", "sploof"}

func TestGlossaryWellFormed(t *testing.T) {
	g := loadGlossary(t)
	words := map[string]map[string]string{} // lang → word → id
	for _, term := range g.Terms {
		for _, game := range term.Games {
			if !slices.Contains(gameNames, game) {
				t.Errorf("%s: unknown game %q", term.ID, game)
			}
		}
		for _, lang := range Languages {
			w := term.In(lang)
			// A word must find itself, else its expression checks nothing.
			if !w.Matches(" " + w.Word + " ") {
				t.Errorf("%s (%s): the expression %q does not find the word %q", term.ID, lang, w.Match, w.Word)
			}
			if a := w.Avoided(" " + w.Word + " "); a != "" {
				t.Errorf("%s (%s): the word %q is also avoided (%q)", term.ID, lang, w.Word, a)
			}
			if lang == "en" {
				if other, dup := words[lang][strings.ToLower(w.Word)]; dup {
					t.Errorf("%s and %s are the same English term %q", other, term.ID, w.Word)
				}
				if words[lang] == nil {
					words[lang] = map[string]string{}
				}
				words[lang][strings.ToLower(w.Word)] = term.ID
			}
		}
	}
}

// The checks must be able to fail: each catches a known mistake.
func TestGlossaryCatches(t *testing.T) {
	g := loadGlossary(t)
	term := func(id string) *Term {
		for i := range g.Terms {
			if g.Terms[i].ID == id {
				return &g.Terms[i]
			}
		}
		t.Fatalf("no term %q", id)
		return nil
	}
	// The examples of a wrong word.
	for _, c := range []struct{ id, lang, text string }{
		{"tumble", "ko", "텀블"}, {"slide", "ko", "슬라이드"}, {"level", "ko", "레벨 2"},
		{"white", "ko", "화이트"}, {"split", "ko", "분할한다"}, {"stock", "ko", "손 2, 보급 14"},
		{"tumble", "mn", "өнхрүүлэх"}, {"house-rule", "mn", "дотоод дүрэм"}, {"pinned", "mn", "дарагдсан"},
		{"card", "mn", "хөзөр"}, {"deck", "mn", "Багц"}, {"token", "mn", "нэг тэмдэгт"}, {"seed", "mn", "seed-ээр"},
	} {
		if term(c.id).In(c.lang).Avoided(c.text) == "" {
			t.Errorf("%s (%s): %q is not caught", c.id, c.lang, c.text)
		}
	}
	// The supply message speaking of the stock's word.
	if !term("stock").MN.Strict || !term("stock").MN.Matches("Нөөцөд хоёроос цөөн") {
		t.Error("the Mongolian word for the stock does not catch 'Нөөцөд'")
	}
	if term("supply").MN.Matches("байсан авсан") {
		t.Error("the Mongolian word for the supply finds the past tense ending -сан")
	}
	if !term("supply").MN.Matches("сангаас") || !term("east").MN.Matches("дорнод") || term("east").MN.Matches("зүүн") {
		t.Error("Mongolian supply/east expressions are wrong")
	}
}

// langStrings reads one interface language file: key → string.
func langStrings(t *testing.T, lang string) map[string]string {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("..", "..", "web", "static", "js", "lang", lang+".js"))
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]string{}
	for i, line := range strings.Split(string(data), "\n") {
		m := langLineRE.FindStringSubmatch(line)
		if m == nil {
			if strings.HasPrefix(strings.TrimSpace(line), "'") {
				t.Fatalf("%s.js:%d: cannot read %q", lang, i+1, line)
			}
			continue
		}
		out[m[1]] = strings.ReplaceAll(m[2], `\'`, "'")
	}
	if len(out) < 100 {
		t.Fatalf("%s.js: only %d strings read", lang, len(out))
	}
	return out
}

var (
	langLineRE    = regexp.MustCompile(`^\s*'([^']+)':\s*'((?:[^'\\]|\\.)*)',?\s*$`)
	placeholderRE = regexp.MustCompile(`\{[a-zA-Z]+\}`)
)

// keyGame is the game a key belongs to (a segment naming it), or "".
func keyGame(key string) string {
	for _, seg := range strings.Split(key, ".") {
		if slices.Contains(gameNames, seg) {
			return seg
		}
	}
	return ""
}

// The interface strings use the glossary's words: where the English string
// has a term, its translations have the term's word; no string uses an
// avoided word; a strict word appears only where the English has its term.
func TestGlossaryInterface(t *testing.T) {
	g := loadGlossary(t)
	strs := map[string]map[string]string{}
	for _, lang := range Languages {
		strs[lang] = langStrings(t, lang)
	}
	keys := make([]string, 0, len(strs["en"]))
	for k := range strs["en"] {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	for _, term := range g.Terms {
		for _, key := range keys {
			game := keyGame(key)
			if len(term.Games) > 0 && !slices.Contains(term.Games, game) && !slices.ContainsFunc(term.Keys, func(p string) bool {
				return strings.HasPrefix(key, p)
			}) {
				continue // a game's term, and a string of another game or of none
			}
			en := placeholderRE.ReplaceAllString(strs["en"][key], " ")
			has := term.EN.Matches(en)
			for _, lang := range Languages {
				text, ok := strs[lang][key]
				if !ok {
					continue // reported by the browser tests (i18n)
				}
				text = placeholderRE.ReplaceAllString(text, " ")
				w := term.In(lang)
				if a := w.Avoided(text); a != "" {
					t.Errorf("%s.js %s: %q is not the glossary's word for %q: use %q\n  %s", lang, key, a, term.EN.Word, w.Word, text)
				}
				if lang == "en" {
					continue
				}
				if has && !w.Matches(text) {
					t.Errorf("%s.js %s: the English has %q but this string lacks the glossary's %q\n  en: %s\n  %s: %s",
						lang, key, term.EN.Word, w.Word, strs["en"][key], lang, text)
				}
				if !has && w.Strict && game != "" && w.Matches(text) {
					t.Errorf("%s.js %s: %q means %q, which the English string does not speak of\n  en: %s\n  %s: %s",
						lang, key, w.Word, term.EN.Word, strs["en"][key], lang, text)
				}
			}
		}
	}
}

// A Korean particle depends on the last sound of the word before it (이/가,
// 은/는, 을/를, 와/과, 으로/로), so none may follow a name that is only known at
// run time; the possessive 의 fits every name.
func TestKoreanNoParticleAfterName(t *testing.T) {
	re := regexp.MustCompile(`\{(player|user|name|who|winners)\}\s?(이|가|은|는|을|를|와|과|으로|로|\()`)
	for key, text := range langStrings(t, "ko") {
		if m := re.FindString(text); m != "" {
			t.Errorf("ko.js %s: %q: a particle after a name must fit every name; rephrase without it\n  %s", key, m, text)
		}
	}
}

// sections splits a page's prose at its headings: the text before the first
// heading, then each heading with the text under it. Code is left out (it
// is never translated) except diagram captions, which are prose.
func sections(src string) []string {
	var out []string
	var cur strings.Builder
	fence := ""
	for _, line := range strings.Split(src, "\n") {
		if m := fenceRE.FindStringSubmatch(line); m != nil {
			switch {
			case fence == "":
				fence = m[1]
				continue
			case len(m[1]) >= len(fence) && m[2] == "":
				fence = ""
				continue
			}
		}
		if fence != "" {
			if c, ok := strings.CutPrefix(strings.TrimSpace(line), "caption:"); ok {
				cur.WriteString(c + "\n")
			}
			continue
		}
		if headingRE.MatchString(line) {
			out = append(out, cur.String())
			cur.Reset()
		}
		cur.WriteString(line + "\n")
	}
	out = append(out, cur.String())
	for i, s := range out {
		s = codeRE.ReplaceAllString(s, " ")
		s = linkRE.ReplaceAllString(s, "]")
		out[i] = strings.Join(strings.Fields(s), " ") // a term may break across lines
	}
	return out
}

// The rules pages use the glossary's words: where a section of the English
// page has a term, the same section of each translation has the term's
// word; no page uses an avoided word; a strict word appears only in the
// sections whose English has the term.
func TestGlossaryPages(t *testing.T) {
	g := loadGlossary(t)
	for _, name := range englishPages(t) {
		game := strings.TrimSuffix(name, ".md")
		src, err := os.ReadFile(name)
		if err != nil {
			t.Fatal(err)
		}
		en := sections(string(src))
		for _, lang := range Languages {
			trName := name
			if lang != "en" {
				trName = filepath.Join(lang, name)
			}
			t.Run(trName, func(t *testing.T) {
				src, err := os.ReadFile(trName)
				if err != nil {
					t.Skip("missing (reported by TestTranslationsExist)")
				}
				tr := sections(string(src))
				for _, term := range g.Terms {
					if !term.For(game) {
						continue
					}
					w := term.In(lang)
					for i, sec := range tr {
						if a := w.Avoided(sec); a != "" {
							t.Errorf("section %d (%s): %q is not the glossary's word for %q: use %q", i, heading(sec), a, term.EN.Word, w.Word)
						}
					}
					if lang == "en" || len(tr) != len(en) {
						continue // different headings: reported by TestTranslationsKeepHeadings
					}
					for i := range en {
						has := term.EN.Matches(en[i])
						if has && !w.Matches(tr[i]) {
							t.Errorf("section %d (%s): the English has %q, this section lacks the glossary's %q", i, heading(tr[i]), term.EN.Word, w.Word)
						}
						if !has && w.Strict && w.Matches(tr[i]) {
							t.Errorf("section %d (%s): %q means %q, which the English section does not speak of", i, heading(tr[i]), w.Word, term.EN.Word)
						}
					}
				}
			})
		}
	}
}

// heading names a section for an error message: its heading's first words.
func heading(section string) string {
	if !strings.HasPrefix(section, "#") {
		return "top"
	}
	w := strings.Fields(strings.TrimLeft(section, "# "))
	return strings.Join(w[:min(len(w), 4)], " ") + " …"
}
