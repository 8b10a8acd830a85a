package match

// ClockKind is the kind of a game's time control.
type ClockKind string

// The time controls.
const (
	ClockNone           ClockKind = "none"
	ClockRealtime       ClockKind = "realtime"       // a chess clock per seat
	ClockCorrespondence ClockKind = "correspondence" // days per decision
)

// Clock is a game's time control.
type Clock struct {
	Kind        ClockKind `json:"kind"`
	InitialMs   int64     `json:"initialMs,omitempty"`   // realtime: each seat's starting time
	IncrementMs int64     `json:"incrementMs,omitempty"` // realtime: added after each of the seat's moves
	Days        int       `json:"days,omitempty"`        // correspondence: time per decision
}
