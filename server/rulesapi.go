package server

import (
	"encoding/json"
	"errors"
	"fmt"
	"net/http"

	"github.com/tabula-games/tabula/game"
)

// The stateless rules endpoint, POST /api/rules/{game}: the lessons and
// puzzles of the web application ask the rules engine about a position the
// client holds (whether a move is legal and why not, what it leads to, the
// legal moves) without creating a game. It needs no account and stores
// nothing; the request is bounded (maxBody bytes, maxRulesMoves moves) so
// that one call costs at most a short replay.

// maxRulesMoves bounds the move list of one rules query: a lesson replays a
// few dozen moves, and the longest real games have a few hundred plies.
const maxRulesMoves = 600

type rulesRequest struct {
	// Options of a new game (ignored with Position, which carries its own).
	Options map[string]string `json:"options"`
	// Seed of a new game's chance events (Skyjo's shuffles).
	Seed uint64 `json:"seed"`
	// Position is the game's position JSON to start from instead of a new game.
	Position json.RawMessage `json:"position"`
	// Moves are played first, each must be legal.
	Moves []string `json:"moves"`
	// Move is the move asked about; empty: only describe the position.
	Move string `json:"move"`
	// Seat whose view a hidden-information game returns (default: the seat
	// to move, or 0 once the game is over).
	Seat *int `json:"seat"`
}

type rulesMoveJSON struct {
	Text      string    `json:"text"`
	Legal     bool      `json:"legal"`
	Canonical string    `json:"canonical,omitempty"`
	Error     *apiError `json:"error,omitempty"`
}

type rulesResponse struct {
	Game      string          `json:"game"`
	Move      *rulesMoveJSON  `json:"move,omitempty"`
	Position  json.RawMessage `json:"position"`
	View      json.RawMessage `json:"view"`
	ToMove    int             `json:"toMove"`
	SeatNames []string        `json:"seatNames"`
	Status    string          `json:"status"`
	Winners   []int           `json:"winners"`
	Scores    []int           `json:"scores,omitempty"`
	Legal     []string        `json:"legal"`
}

func (s *Server) handleRules(w http.ResponseWriter, r *http.Request) {
	g, err := game.Lookup(r.PathValue("game"))
	if err != nil {
		writeError(w, errf(http.StatusNotFound, "unknown_game", "%v", err))
		return
	}
	var req rulesRequest
	if err := decode(w, r, &req, maxBody, false); err != nil {
		writeError(w, err)
		return
	}
	resp, err := answerRules(g, &req)
	if err != nil {
		writeError(w, err)
		return
	}
	writeJSON(w, http.StatusOK, resp)
}

// answerRules builds the state the request describes, asks about its move
// and describes the result. An illegal Move is an answer (legal: false,
// with the engine's reason), not an error; anything wrong before it is.
func answerRules(g game.Game, req *rulesRequest) (*rulesResponse, error) {
	if len(req.Moves) > maxRulesMoves {
		return nil, errf(http.StatusRequestEntityTooLarge, "too_large", "at most %d moves", maxRulesMoves)
	}
	st, err := rulesState(g, req)
	if err != nil {
		return nil, err
	}
	if err := playAll(st, req.Moves); err != nil {
		return nil, err
	}
	resp := &rulesResponse{Game: g.Name()}
	if req.Move != "" {
		mv := &rulesMoveJSON{Text: req.Move}
		if m, err := st.ParseMove(req.Move); err != nil {
			code := "illegal_move"
			if errors.Is(err, game.ErrSyntax) {
				code = "bad_move"
			}
			mv.Error = &apiError{Code: code, Message: err.Error()}
		} else {
			mv.Legal, mv.Canonical = true, st.FormatMove(m)
			st.Play(m)
		}
		resp.Move = mv
	}
	if err := describeRules(st, req.Seat, resp); err != nil {
		return nil, err
	}
	return resp, nil
}

func describeRules(st game.State, seat *int, resp *rulesResponse) error {
	pos, err := st.MarshalPosition()
	if err != nil {
		return fmt.Errorf("rules: position: %w", err)
	}
	resp.Position = pos
	resp.ToMove = st.ToMove()
	n := st.NumPlayers()
	for i := 0; i < n; i++ {
		resp.SeatNames = append(resp.SeatNames, st.SeatName(i))
	}
	out := st.Outcome()
	resp.Status = out.Status.String()
	resp.Winners = []int{}
	for i := 0; i < n; i++ {
		if out.Status == game.Won && out.IsWinner(i) {
			resp.Winners = append(resp.Winners, i)
		}
	}
	if sc, ok := st.(game.Scorer); ok {
		resp.Scores = sc.Scores()
	}
	resp.Legal = game.LegalTexts(st)
	who := max(resp.ToMove, 0)
	if seat != nil {
		if *seat < 0 || *seat >= n {
			return errf(http.StatusBadRequest, "bad_request", "seat %d: want 0…%d", *seat, n-1)
		}
		who = *seat
	}
	view, err := game.View(st, who)
	if err != nil {
		return errf(http.StatusUnprocessableEntity, "bad_position", "%v", err)
	}
	resp.View = view
	return nil
}

// rulesState is the state a request starts from: its position, or a new
// game with its options and seed. The analysis API reads positions the same
// way.
func rulesState(g game.Game, req *rulesRequest) (game.State, error) {
	if len(req.Position) > 0 && string(req.Position) != "null" {
		if len(req.Options) > 0 {
			return nil, errf(http.StatusBadRequest, "bad_request", "send options or a position, not both (a position carries its options)")
		}
		st, err := g.ParsePosition(req.Position)
		if err != nil {
			return nil, errf(http.StatusUnprocessableEntity, "bad_position", "%v", err)
		}
		return st, nil
	}
	settings := make([]string, 0, len(req.Options))
	for k, v := range req.Options {
		settings = append(settings, k+"="+v)
	}
	opts, err := game.ParseOptions(g, settings)
	if err != nil {
		return nil, errf(http.StatusUnprocessableEntity, "bad_option", "%v", err)
	}
	st, err := g.New(opts, req.Seed)
	if err != nil {
		return nil, errf(http.StatusUnprocessableEntity, "bad_option", "%v", err)
	}
	return st, nil
}

// playAll plays moves on st, each checked by the rules; the error names the
// first that is not legal.
func playAll(st game.State, moves []string) error {
	for i, text := range moves {
		if err := game.Play(st, text); err != nil {
			code := "illegal_move"
			if errors.Is(err, game.ErrSyntax) {
				code = "bad_move"
			}
			return errf(http.StatusUnprocessableEntity, code, "moves[%d] %q: %v", i, text, err)
		}
	}
	return nil
}
