package ladder

import "github.com/tabula-games/tabula/rating"

// Anchor is a built-in level on a game's ladder, with the rating it is
// held at. An anchor's rating never changes with its games: the bots'
// ratings move against it, so the scale of every ladder is tied to the
// levels (a ladder of bots only would drift freely around 1500). What the
// games say of the level itself is Measured, shown beside the fixed value.
type Anchor struct {
	Level     string
	Rating    float64
	Deviation float64
}

// AnchorDeviation is the deviation an anchor is held at: small, as a
// fixed rating is certain by decree, but not zero (Glicko-2 weighs an
// opponent by its deviation, and a measured level is known to ±50 or so).
const AnchorDeviation = 50

// DefaultAnchors are the levels a ladder starts with and, for a game the
// calibration has not measured, the ratings they are held at until an
// operator sets others (docs/ai.md): roughly 300 points apart, medium at the
// scale's centre.
var DefaultAnchors = []Anchor{
	{Level: "easy", Rating: 1200, Deviation: AnchorDeviation},
	{Level: "medium", Rating: 1500, Deviation: AnchorDeviation},
	{Level: "hard", Rating: 1800, Deviation: AnchorDeviation},
}

// StartAnchors are the anchors a game's ladder starts with: the levels of
// DefaultAnchors at their calibrated ratings where the calibration measured
// them (Calibrated), so that a level on the ladder stands where the lobby
// and the bot picker say it does; otherwise at the defaults.
func StartAnchors(game string) []Anchor {
	out := make([]Anchor, len(DefaultAnchors))
	for i, a := range DefaultAnchors {
		if c, ok := Calibrated[game][a.Level]; ok {
			a.Rating = c.Rating
		}
		out[i] = a
	}
	return out
}

// Calibration is a level's rating as a calibration match measured it.
type Calibration struct {
	Rating    float64
	Deviation float64
}

// CalibrationScale is the level held fixed in the calibration matches, and
// its rating: the scale of the measured ratings. It is easy at 1200, where
// the ladders held easy before any measurement, so the other levels'
// ratings are their distance from easy.
const (
	CalibrationScale       = "easy"
	CalibrationScaleRating = 1200
)

// TopScale is the level held fixed, at the rating the first calibration
// match gave it, in the match that measures the levels above it (medium
// and hard in the games searched by UCT: docs/measurements/
// ladder-GAME-top.log), which chains their ratings to the same scale.
const TopScale = "strong"

// Calibrated are the levels' ratings per game as the calibration matches
// measured them (docs/ai.md, Calibration; the match logs are
// docs/measurements/ladder-GAME.log, and `tabula ladder rate --anchor
// easy=1200 LOG` gives these numbers, which a test checks). The lobby and
// the bot picker show them, and a new ladder holds its levels at them
// (StartAnchors) until an operator sets others (`tabula ladder anchor`,
// which also puts another calibrated level on a ladder). A level a game has
// no measurement for is not listed.
var Calibrated = map[string]map[string]Calibration{
	// CALIBRATED TABLE START
	// 300 games of docs/measurements/ladder-sgolte.log; medium and hard:
	// 96 games of ladder-sgolte-top.log (2026-12-06, the levels with their
	// implicit minimax backups), strong held at 1981.
	"sgolte": {
		"beginner": {Rating: 878, Deviation: 97},
		"easy":     {Rating: 1200, Deviation: 50},
		"casual":   {Rating: 1425, Deviation: 71},
		"club":     {Rating: 1625, Deviation: 73},
		"strong":   {Rating: 1981, Deviation: 94},
		"medium":   {Rating: 2196, Deviation: 73},
		"hard":     {Rating: 2510, Deviation: 92},
	},
	// 300 games of docs/measurements/ladder-sploof.log; medium and hard:
	// 96 games of ladder-sploof-top.log, strong held at 1704.
	"sploof": {
		"beginner": {Rating: 925, Deviation: 82},
		"easy":     {Rating: 1200, Deviation: 50},
		"casual":   {Rating: 1420, Deviation: 72},
		"club":     {Rating: 1537, Deviation: 73},
		"strong":   {Rating: 1704, Deviation: 78},
		"medium":   {Rating: 2026, Deviation: 74},
		"hard":     {Rating: 2279, Deviation: 85},
	},
	// 300 games of docs/measurements/ladder-skjuub.log; medium and hard:
	// 96 games of ladder-skjuub-top.log (2026-12-07, the levels with their
	// implicit minimax backups, hard seeking exchanges where it is ahead and
	// valuing its stuck positions halfway to a draw), strong held at 2080.
	"skjuub": {
		"beginner": {Rating: 937, Deviation: 81},
		"easy":     {Rating: 1200, Deviation: 50},
		"casual":   {Rating: 1536, Deviation: 82},
		"club":     {Rating: 1738, Deviation: 86},
		"strong":   {Rating: 2080, Deviation: 101},
		"medium":   {Rating: 2451, Deviation: 76},
		"hard":     {Rating: 2669, Deviation: 86},
	},
	// 420 games of docs/measurements/ladder-skyjo.log: every level, medium
	// and hard too (in Skyjo they are sample counts, not times).
	"skyjo": {
		"beginner": {Rating: 975, Deviation: 95},
		"easy":     {Rating: 1200, Deviation: 50},
		"casual":   {Rating: 1422, Deviation: 71},
		"club":     {Rating: 1562, Deviation: 69},
		"strong":   {Rating: 1688, Deviation: 70},
		"medium":   {Rating: 1841, Deviation: 73},
		"hard":     {Rating: 2004, Deviation: 78},
	},
	// CALIBRATED TABLE END
}

// RateVsAnchor is a bot's rating after one game against an anchor, score
// 1 a win, 0.5 a draw, 0 a loss: one Glicko-2 period against the anchor's
// fixed rating. The anchor's own rating stays as it is.
func RateVsAnchor(bot rating.Rating, anchor Anchor, score float64) rating.Rating {
	dev := anchor.Deviation
	if dev <= 0 {
		dev = AnchorDeviation
	}
	opp := rating.Rating{R: anchor.Rating, RD: dev, Vol: rating.DefaultVolatility}
	return rating.Update(bot, []rating.Result{{Opponent: opp, Score: score}}, rating.Tau)
}

// Measured is what an anchor's games say of its strength: the Glicko-2
// rating of a new player (1500 ± 350) after all of them as one period,
// each against its opponent's rating at the time. It is reported beside
// the fixed rating; the gap between them says how well the level is
// placed on the scale.
func Measured(results []rating.Result) rating.Rating {
	if len(results) == 0 {
		return rating.Default()
	}
	return rating.Update(rating.Default(), results, rating.Tau)
}
