package match

import (
	"errors"
	"strings"
	"testing"
)

// TestCleanChat: a chat line is one line of text that displays as what it
// is — no control characters, no line or paragraph separators, no
// bidirectional controls of any kind (issue 23, finding 8: U+200F and
// U+2028 were accepted), nothing that stands for invalid text (a lone
// surrogate decodes to U+FFFD) —, trimmed, at most ChatMaxRunes; emoji
// sequences joined by U+200D and other scripts are fine.
func TestCleanChat(t *testing.T) {
	for _, bad := range []string{
		"", "   ", "a\nb", "a\rb", "a\x00b", "a\x7fb", "\xff\xfe", "bad \xed\xa0\x80 surrogate",
		"line\u2028break", "para\u2029break", "rlm\u200f", "lrm\u200e", "alm\u061c", "rlo\u202egnp.exe",
		"isolate\u2067x\u2069", "replacement \ufffd", strings.Repeat("x", ChatMaxRunes+1),
	} {
		_, err := CleanChat(bad)
		var me *Error
		if !errors.As(err, &me) || me.Code != CodeBadRequest || me.Message == "" {
			t.Errorf("CleanChat(%q) = %v, want a bad_request", bad, err)
		}
	}
	for in, want := range map[string]string{
		"  good game  ":                   "good game",
		"👩\u200d💻 nice":                   "👩\u200d💻 nice",
		"שלום, привет, 안녕":                "שלום, привет, 안녕",
		strings.Repeat("x", ChatMaxRunes): strings.Repeat("x", ChatMaxRunes),
	} {
		if got, err := CleanChat(in); err != nil || got != want {
			t.Errorf("CleanChat(%q) = %q, %v; want %q", in, got, err, want)
		}
	}
}
