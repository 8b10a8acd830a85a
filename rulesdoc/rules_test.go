// These tests keep the translated rules pages (ko/<game>.md, mn/<game>.md)
// mechanically in step with the English pages (<game>.md), which are
// authoritative. A change to an English page that is not carried over to
// every translation fails one of them.

package rulesdoc

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strings"
	"testing"
	"unicode"
)

// languages are the translations every English page must have.
var languages = []string{"ko", "mn"}

// page is the parts of a rules page that must survive translation.
type page struct {
	headings []int    // level of each heading, in order
	blocks   []block  // fenced code blocks, in order
	options  []string // distinct option tokens (key=value), sorted
	codes    []string // distinct inline code spans, sorted
	links    []string // distinct link targets, sorted
	slugs    []string // anchor of each heading, in order (see slug)
	lines    []string // all lines
}

type block struct {
	line     int    // 1-based line of the opening fence
	info     string // the fence's info string, e.g. "json"
	text     string // the content, trailing spaces trimmed
	skeleton string // the content's skeleton (see skeleton)
}

var (
	headingRE = regexp.MustCompile(`^(#{1,6})\s+(.*)$`)
	// An option token: a lower-case key, "=", and a value such as global,
	// N, 5|6|7. The key may not follow a letter, digit or "_".
	optionRE = regexp.MustCompile(`(?:^|[^A-Za-z0-9_])([a-z][a-z0-9_]*=[A-Za-z0-9_|]+)`)
	codeRE   = regexp.MustCompile("`([^`]+)`")
	linkRE   = regexp.MustCompile(`\]\(([^)\s]+)\)`)
)

func englishPages(t *testing.T) []string {
	t.Helper()
	names, err := filepath.Glob("*.md")
	if err != nil {
		t.Fatal(err)
	}
	if len(names) == 0 {
		t.Fatal("no English rules pages (*.md) found")
	}
	sort.Strings(names)
	return names
}

func read(t *testing.T, name string) page {
	t.Helper()
	b, err := os.ReadFile(name)
	if err != nil {
		t.Fatal(err)
	}
	return parse(string(b))
}

// parse splits a page into the parts that are compared.
func parse(src string) page {
	var p page
	options := map[string]bool{}
	codes := map[string]bool{}
	links := map[string]bool{}
	p.lines = strings.Split(strings.ReplaceAll(src, "\r\n", "\n"), "\n")
	var fence string // the open fence's backticks, "" outside a block
	var cur block
	var skel, text strings.Builder // of the open block
	var prose strings.Builder      // text outside code blocks, for inline spans
	for i, line := range p.lines {
		if m := fenceRE.FindStringSubmatch(line); m != nil {
			switch {
			case fence == "":
				fence = m[1]
				cur = block{line: i + 1, info: m[2]}
				skel.Reset()
				text.Reset()
				continue
			case len(m[1]) >= len(fence) && m[2] == "":
				fence = ""
				cur.skeleton, cur.text = skel.String(), text.String()
				p.blocks = append(p.blocks, cur)
				continue
			}
		}
		if fence != "" {
			skel.WriteString(skeleton(line))
			text.WriteString(strings.TrimRight(line, " \t"))
			text.WriteByte('\n')
			if cur.info == "diagram" {
				continue // compared whole (TestTranslationsKeepCodeBlocks); "e5=dot" is a mark
			}
			for _, m := range optionRE.FindAllStringSubmatch(line, -1) {
				options[m[1]] = true
			}
			continue
		}
		prose.WriteString(line)
		prose.WriteByte('\n')
		if m := headingRE.FindStringSubmatch(line); m != nil {
			p.headings = append(p.headings, len(m[1]))
			p.slugs = append(p.slugs, slug(m[2]))
		}
		for _, m := range optionRE.FindAllStringSubmatch(line, -1) {
			options[m[1]] = true
		}
		for _, m := range linkRE.FindAllStringSubmatch(line, -1) {
			links[m[1]] = true
		}
	}
	if fence != "" { // an unclosed block runs to the end of the page
		cur.skeleton, cur.text = skel.String(), text.String()
		p.blocks = append(p.blocks, cur)
	}
	// Inline code may wrap across lines within a paragraph.
	for _, m := range codeRE.FindAllStringSubmatch(prose.String(), -1) {
		codes[strings.Join(strings.Fields(m[1]), " ")] = true
	}
	p.options = keys(options)
	p.codes = keys(codes)
	p.links = keys(links)
	return p
}

// skeleton keeps what a translation may not change in a diagram whose labels
// were translated: every alphanumeric ASCII run that holds a digit (cell and
// point names such as b2, 1a3, *1g3's 1g3), and every other rune that is
// neither a letter nor white space (digits, punctuation, box drawing,
// arrows). Labels may be translated and re-spaced; apostrophes count as part
// of a word ("b2's").
func skeleton(s string) string {
	var b strings.Builder
	rs := []rune(s)
	for i := 0; i < len(rs); {
		if isASCIIAlnum(rs[i]) {
			j, digit := i, false
			for j < len(rs) && isASCIIAlnum(rs[j]) {
				digit = digit || unicode.IsDigit(rs[j])
				j++
			}
			if digit {
				b.WriteString(string(rs[i:j]))
			}
			i = j
			continue
		}
		if r := rs[i]; !unicode.IsLetter(r) && !unicode.IsSpace(r) && r != '\'' && r != '’' {
			b.WriteRune(r)
		}
		i++
	}
	return b.String()
}

func isASCIIAlnum(r rune) bool {
	return r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9'
}

// translated reports whether a block holds letters outside ASCII, i.e.
// labels in the page's language.
func translated(text string) bool {
	for _, r := range text {
		if r > unicode.MaxASCII && unicode.IsLetter(r) {
			return true
		}
	}
	return false
}

// slug is the anchor of a heading, as the web application's renderer
// (web/static/js/markdown.js) and GitHub make it: lower case, "`*_" and
// other punctuation dropped, white space turned into hyphens.
func slug(h string) string {
	var b strings.Builder
	for _, f := range strings.Fields(strings.ToLower(h)) {
		var w strings.Builder
		for _, r := range f {
			if unicode.IsLetter(r) || unicode.IsNumber(r) || r == '-' {
				w.WriteRune(r)
			}
		}
		if w.Len() == 0 {
			continue
		}
		if b.Len() > 0 {
			b.WriteByte('-')
		}
		b.WriteString(w.String())
	}
	return b.String()
}

func keys(m map[string]bool) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// diff lists what is in a but not in b.
func diff(a, b []string) []string {
	var out []string
	for _, s := range a {
		if !slices.Contains(b, s) {
			out = append(out, s)
		}
	}
	return out
}

// forEach runs f for every translation of every English page.
func forEach(t *testing.T, f func(t *testing.T, en, tr page, trName string)) {
	for _, name := range englishPages(t) {
		en := read(t, name)
		for _, lang := range languages {
			trName := filepath.Join(lang, name)
			t.Run(trName, func(t *testing.T) {
				if _, err := os.Stat(trName); err != nil {
					t.Skipf("missing (reported by TestTranslationsExist)")
				}
				f(t, en, read(t, trName), trName)
			})
		}
	}
}

func TestTranslationsExist(t *testing.T) {
	for _, name := range englishPages(t) {
		for _, lang := range languages {
			if _, err := os.Stat(filepath.Join(lang, name)); err != nil {
				t.Errorf("%s has no %s translation: %v", name, lang, err)
			}
		}
	}
	// And no translation is left behind for a page that no longer exists.
	for _, lang := range languages {
		trs, _ := filepath.Glob(filepath.Join(lang, "*.md"))
		for _, tr := range trs {
			if _, err := os.Stat(filepath.Base(tr)); err != nil {
				t.Errorf("%s translates no English page: %v", tr, err)
			}
		}
	}
}

// The first non-empty line links to the English original and says that it
// is authoritative.
func TestTranslationsLinkOriginal(t *testing.T) {
	for _, name := range englishPages(t) {
		for _, lang := range languages {
			trName := filepath.Join(lang, name)
			t.Run(trName, func(t *testing.T) {
				if _, err := os.Stat(trName); err != nil {
					t.Skipf("missing (reported by TestTranslationsExist)")
				}
				tr := read(t, trName)
				first := ""
				for _, l := range tr.lines {
					if strings.TrimSpace(l) != "" {
						first = l
						break
					}
				}
				if want := "](../" + name + ")"; !strings.Contains(first, want) {
					t.Errorf("first line %q does not link to the English original %q", first, "../"+name)
				}
			})
		}
	}
}

func TestTranslationsKeepHeadings(t *testing.T) {
	forEach(t, func(t *testing.T, en, tr page, _ string) {
		if !slices.Equal(en.headings, tr.headings) {
			t.Errorf("%d headings at levels %v, the English page has %d at levels %v",
				len(tr.headings), tr.headings, len(en.headings), en.headings)
		}
	})
}

func TestTranslationsKeepOptions(t *testing.T) {
	forEach(t, func(t *testing.T, en, tr page, _ string) {
		if d := diff(en.options, tr.options); d != nil {
			t.Errorf("option tokens of the English page missing: %q", d)
		}
		if d := diff(tr.options, en.options); d != nil {
			t.Errorf("option tokens not (or no longer) on the English page: %q", d)
		}
	})
}

// Inline code (option names, move notation, JSON fields, commands) is never
// translated.
func TestTranslationsKeepInlineCode(t *testing.T) {
	forEach(t, func(t *testing.T, en, tr page, _ string) {
		if d := diff(en.codes, tr.codes); d != nil {
			t.Errorf("inline code of the English page missing: %q", d)
		}
		if d := diff(tr.codes, en.codes); d != nil {
			t.Errorf("inline code not (or no longer) on the English page: %q", d)
		}
	})
}

func TestTranslationsKeepCodeBlocks(t *testing.T) {
	forEach(t, func(t *testing.T, en, tr page, trName string) {
		if len(en.blocks) != len(tr.blocks) {
			t.Fatalf("%d code blocks, the English page has %d", len(tr.blocks), len(en.blocks))
		}
		for i, e := range en.blocks {
			g := tr.blocks[i]
			if e.info != g.info {
				t.Errorf("block %d (%s:%d): info string %q, English %q", i+1, trName, g.line, g.info, e.info)
			}
			switch {
			case e.info == "diagram":
				// Only the caption is translated; everything else is the position and its facts.
				ec, eb := splitCaption(e.text)
				gc, gb := splitCaption(g.text)
				if eb != gb {
					t.Errorf("diagram %d (%s:%d, English line %d) differs from the English diagram beyond its caption\n%s",
						i+1, trName, g.line, e.line, firstDifference(eb, gb))
				}
				if !translated(gc) || gc == ec {
					t.Errorf("diagram %d (%s:%d): caption not translated: %q", i+1, trName, g.line, gc)
				}
			case !translated(g.text):
				// Nothing translated: the block must be the English one.
				if e.text != g.text {
					t.Errorf("block %d (%s:%d, English line %d) differs from the English block\n%s",
						i+1, trName, g.line, e.line, firstDifference(e.text, g.text))
				}
			case e.skeleton != g.skeleton:
				t.Errorf("block %d (%s:%d, English line %d): structure differs\n%s",
					i+1, trName, g.line, e.line, firstDifference(e.skeleton, g.skeleton))
			}
		}
	})
}

// Every link of the English page is kept: a link to another page gains
// "../", and a link to a heading of the page points to the translation of
// that heading (the heading in the same place), whose anchor differs.
func TestTranslationsKeepLinks(t *testing.T) {
	forEach(t, func(t *testing.T, en, tr page, _ string) {
		for _, l := range en.links {
			want := l
			switch {
			case strings.HasPrefix(l, "#"):
				i := slices.Index(en.slugs, l[1:])
				if i < 0 {
					t.Errorf("the English page links to %q, which none of its headings has", l)
					continue
				}
				if i >= len(tr.slugs) {
					continue // reported by TestTranslationsKeepHeadings
				}
				want = "#" + tr.slugs[i]
			case !strings.Contains(l, "://") && !strings.HasPrefix(l, "/"):
				want = "../" + l
			}
			if !slices.Contains(tr.links, want) {
				t.Errorf("link %q of the English page missing (want %q)", l, want)
			}
		}
	})
}

func firstDifference(want, got string) string {
	w, g := []rune(want), []rune(got)
	i := 0
	for i < len(w) && i < len(g) && w[i] == g[i] {
		i++
	}
	clip := func(r []rune) string {
		lo, hi := max(0, i-20), min(len(r), i+20)
		return string(r[lo:hi])
	}
	return fmt.Sprintf("  at rune %d: English …%s…\n  translation …%s…", i, clip(w), clip(g))
}

// splitCaption separates a diagram block's caption line from the rest.
func splitCaption(text string) (caption, rest string) {
	var b strings.Builder
	for _, l := range strings.Split(text, "\n") {
		if c, ok := strings.CutPrefix(strings.TrimSpace(l), "caption:"); ok {
			caption = strings.TrimSpace(c)
			continue
		}
		b.WriteString(l + "\n")
	}
	return caption, b.String()
}
