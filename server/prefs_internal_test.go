package server

import (
	"fmt"
	"os"
	"regexp"
	"strings"
	"testing"
)

// TestPrefsChoicesMatchWeb: the choices the server accepts in an account's
// preferences are the ones the web page offers (prefs.js, theme.js), so a
// new board theme on the page is not refused by the server unnoticed.
func TestPrefsChoicesMatchWeb(t *testing.T) {
	read := func(name string) string {
		data, err := os.ReadFile("../web/static/js/" + name)
		if err != nil {
			t.Fatal(err)
		}
		return string(data)
	}
	theme := read("theme.js")
	m := regexp.MustCompile(`export const boardThemes = (\{.*\})`).FindStringSubmatch(theme)
	if m == nil {
		t.Fatal("theme.js: no boardThemes")
	}
	web := strings.NewReplacer(" ", "", "'", "").Replace(m[1])
	var parts []string
	for _, g := range []string{"sgolte", "sploof", "skjuub", "skyjo"} {
		parts = append(parts, fmt.Sprintf("%s:[%s]", g, strings.Join(prefsBoardThemes[g], ",")))
	}
	if got := "{" + strings.Join(parts, ",") + "}"; got != web {
		t.Errorf("board themes: server %s, web %s", got, web)
	}
	if len(prefsBoardThemes) != 4 {
		t.Errorf("server knows themes of %d games", len(prefsBoardThemes))
	}
	sizes := regexp.MustCompile(`export const boardSizes = \{(.*)\}`).FindStringSubmatch(read("prefs.js"))
	if sizes == nil || strings.Join(regexp.MustCompile(`(\w+):`).FindAllString(sizes[1], -1), "") != strings.Join(prefsBoardSizes, ":")+":" {
		t.Errorf("board sizes: server %v, web %v", prefsBoardSizes, sizes)
	}
	if !strings.Contains(theme, `export const schemes = ['`+strings.Join(prefsSchemes, "', '")+`']`) {
		t.Errorf("schemes: server %v differ from theme.js", prefsSchemes)
	}
}
