package tournament

import (
	"bufio"
	"fmt"
	"io"
	"strings"
)

// TRFInfo is the tournament's header in a TRF report.
type TRFInfo struct {
	Name, City, Federation string
	Start, End             string // YYYY/MM/DD
	Arbiter, TimeControl   string
	// Rounds is the number of rounds planned (the XXR line that JaVaFo and
	// bbpPairings read); 0 writes the number of rounds played.
	Rounds int
}

// TRFPlayer is what the report says of a player besides the games.
type TRFPlayer struct {
	Name       string
	Rating     int    // 0 for none
	Federation string // three letters, or empty
	FideID     string
}

// WriteTRF writes the tournament in FIDE's Tournament Report File layout
// (TRF-16): the header lines, XXR, then one 001 line per player with the
// points, the rank (by SwissTieBreaks) and, for every round, the opponent's
// pairing number, the colour and the result — "0000 - U" for the
// pairing-allocated bye, "0000 - H" for a requested half-point bye,
// "0000 - Z" for a round not played (absent, withdrawn, not yet entered),
// "+" and "-" for a board won and lost by forfeit (with the opponent and
// the colour paired), a blank result for a game not finished.
// Players are numbered by their index plus one. docs/tournaments.md
// documents the layout.
func WriteTRF(w io.Writer, info TRFInfo, players []TRFPlayer, rounds []Round) error {
	n := len(players)
	if n > 9999 {
		return fmt.Errorf("%w: TRF numbers players with four digits, %d given", ErrInput, n)
	}
	st, err := Standings(n, rounds, SwissTieBreaks)
	if err != nil {
		return err
	}
	rank := make([]int, n)
	points := make([]float64, n)
	for _, s := range st {
		rank[s.Player], points[s.Player] = s.Rank, s.Points
	}
	bw := bufio.NewWriter(w)
	line := func(tag, v string) {
		if v != "" {
			fmt.Fprintf(bw, "%s %s\n", tag, oneField(v))
		}
	}
	line("012", info.Name)
	line("022", info.City)
	line("032", info.Federation)
	line("042", info.Start)
	line("052", info.End)
	line("062", fmt.Sprint(n))
	rated := 0
	for _, p := range players {
		if p.Rating > 0 {
			rated++
		}
	}
	line("072", fmt.Sprint(rated))
	line("092", "Individual: Swiss-System (FIDE Dutch)")
	line("102", info.Arbiter)
	line("122", info.TimeControl)
	planned := info.Rounds
	if planned < len(rounds) {
		planned = len(rounds)
	}
	line("XXR", fmt.Sprint(planned))
	for p, pl := range players {
		b := []byte(strings.Repeat(" ", 89+10*len(rounds)))
		put := func(col int, s string) { copy(b[col-1:], s) } // col counts from 1, as the TRF spec does
		put(1, "001")
		put(5, fmt.Sprintf("%4d", p+1))
		put(15, clip(oneField(pl.Name), 33))
		if pl.Rating > 0 {
			put(49, fmt.Sprintf("%4d", min(pl.Rating, 9999)))
		}
		put(54, clip(pl.Federation, 3))
		put(58, fmt.Sprintf("%11s", clip(pl.FideID, 11)))
		put(81, fmt.Sprintf("%4.1f", points[p]))
		put(86, fmt.Sprintf("%4d", rank[p]))
		for r, rd := range rounds {
			put(92+10*r, roundCell(rd, p))
		}
		bw.WriteString(strings.TrimRight(string(b), " "))
		bw.WriteByte('\n')
	}
	return bw.Flush()
}

// roundCell is a player's 8 characters for one round: "oooo c r".
func roundCell(rd Round, p int) string {
	for _, pr := range rd.Pairings {
		var opp int
		var col string
		var res byte
		switch p {
		case pr.White:
			opp, col = pr.Black, "w"
			res = " 1=0+-"[pr.Result]
		case pr.Black:
			opp, col = pr.White, "b"
			res = " 0=1-+"[pr.Result]
		default:
			continue
		}
		return fmt.Sprintf("%4d %s %c", opp+1, col, res)
	}
	for _, b := range rd.Byes {
		if b == p {
			return "0000 - U"
		}
	}
	for _, b := range rd.HalfByes {
		if b == p {
			return "0000 - H"
		}
	}
	return "0000 - Z"
}

func clip(s string, n int) string {
	r := []rune(s)
	if len(r) > n {
		r = r[:n]
	}
	out := string(r)
	// The layout counts bytes: keep to ASCII so the columns hold.
	var b strings.Builder
	for _, c := range out {
		if c < 0x20 || c > 0x7e {
			c = '?'
		}
		b.WriteRune(c)
	}
	return b.String()
}

// oneField keeps a value on its line.
func oneField(s string) string {
	return strings.Join(strings.Fields(s), " ")
}
