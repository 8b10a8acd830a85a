package server

import (
	"encoding/json"
	"net/http"
	"slices"
	"time"

	"github.com/tabula-games/tabula/store"
)

// Board preferences per account (issue 27, point 10), GET and PUT
// /api/me/prefs: a registered player's board size, zen mode, colour scheme
// and board theme per game, so that a browser they sign in with shows the
// board as they left it. Guests keep theirs in the browser only (a guest
// account is one browser's). The document is small and every key and value
// is checked against the choices the web page offers: unknown keys, unknown
// values or a body over maxPrefsBody are refused and nothing is stored, so
// the column can never become a place to keep arbitrary data.

// maxPrefsBody bounds a PUT body: the full document is about 150 bytes.
const maxPrefsBody = 2048

// The choices of web/static/js/prefs.js (board sizes) and theme.js (colour
// schemes, board themes per game); TestPrefsChoicesMatchWeb keeps them equal.
var (
	prefsBoardSizes  = []string{"large", "medium", "small"}
	prefsSchemes     = []string{"auto", "light", "dark"}
	prefsBoardThemes = map[string][]string{
		"sgolte": {"sand", "slate", "forest"},
		"sploof": {"wood", "walnut", "sea"},
		"skjuub": {"linen", "stone", "olive"},
		"skyjo":  {"plain", "felt", "wine"},
	}
)

// boardPrefs is the stored document; a missing key is "the page's default".
type boardPrefs struct {
	BoardSize   string            `json:"boardSize,omitempty"`
	Zen         *bool             `json:"zen,omitempty"`
	Scheme      string            `json:"scheme,omitempty"`
	BoardThemes map[string]string `json:"boardThemes,omitempty"`
}

func (p *boardPrefs) validate() error {
	if p.BoardSize != "" && !slices.Contains(prefsBoardSizes, p.BoardSize) {
		return errf(http.StatusBadRequest, "bad_request", "boardSize %q: want one of %v", p.BoardSize, prefsBoardSizes)
	}
	if p.Scheme != "" && !slices.Contains(prefsSchemes, p.Scheme) {
		return errf(http.StatusBadRequest, "bad_request", "scheme %q: want one of %v", p.Scheme, prefsSchemes)
	}
	for g, v := range p.BoardThemes {
		themes, ok := prefsBoardThemes[g]
		if !ok {
			return errf(http.StatusBadRequest, "bad_request", "boardThemes: no game %q has board themes", g)
		}
		if !slices.Contains(themes, v) {
			return errf(http.StatusBadRequest, "bad_request", "boardThemes.%s %q: want one of %v", g, v, themes)
		}
	}
	return nil
}

type prefsJSON struct {
	// Prefs is null when the account has none saved yet.
	Prefs *boardPrefs `json:"prefs"`
}

// prefsStore is the store's preferences, for a registered user; guests and
// a store without them are refused.
func (s *Server) prefsStore(u *store.User) (store.UserPrefs, error) {
	if u.Guest {
		return nil, errf(http.StatusForbidden, "forbidden", "a guest's board preferences stay in the browser: register to keep them with the account")
	}
	ps, ok := s.store.(store.UserPrefs)
	if !ok {
		return nil, errf(http.StatusNotImplemented, "not_implemented", "this server's store keeps no preferences")
	}
	return ps, nil
}

func (s *Server) handleGetPrefs(w http.ResponseWriter, r *http.Request, u *store.User) {
	ps, err := s.prefsStore(u)
	if err != nil {
		writeError(w, err)
		return
	}
	data, err := ps.Prefs(r.Context(), u.ID)
	if err != nil {
		writeError(w, s.internal("prefs", err))
		return
	}
	out := prefsJSON{}
	if data != nil {
		out.Prefs = &boardPrefs{}
		if err := json.Unmarshal(data, out.Prefs); err != nil {
			writeError(w, s.internal("prefs", err))
			return
		}
	}
	writeJSON(w, http.StatusOK, out)
}

// handlePutPrefs replaces the account's preferences with the body's, after
// checking every key and value; the stored text is the server's own
// encoding of the checked document, never the body as sent.
func (s *Server) handlePutPrefs(w http.ResponseWriter, r *http.Request, u *store.User) {
	ps, err := s.prefsStore(u)
	if err != nil {
		writeError(w, err)
		return
	}
	var p boardPrefs
	if err := decode(w, r, &p, maxPrefsBody, false); err != nil {
		writeError(w, err)
		return
	}
	if err := p.validate(); err != nil {
		writeError(w, err)
		return
	}
	data, err := json.Marshal(&p)
	if err != nil {
		writeError(w, s.internal("prefs", err))
		return
	}
	if err := ps.SetPrefs(r.Context(), u.ID, data, time.Now()); err != nil {
		writeError(w, s.internal("set prefs", err))
		return
	}
	writeJSON(w, http.StatusOK, prefsJSON{Prefs: &p})
}
