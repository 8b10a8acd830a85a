package cluster

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/nats-io/nats.go"

	"github.com/tabula-games/tabula/analysis"
)

// Analysis jobs across nodes (analysis/remote.go says the rule). A job
// runs on the node where it was started and its id begins with that node's
// id and a dot (AnalysisPrefix). Another node asked for its events polls
// it on PREFIX.an.NODE, each poll waiting up to analysisPollWait for a new
// event; asked to stop it, it asks the same way. A node where a user
// starts a job says so on PREFIX.anstart, which every node hears, and each
// stops that user's older job.

const (
	// analysisPollWait is how long one poll waits for an event: below the
	// server's stream heartbeat, so that a quiet job's stream still beats.
	analysisPollWait = 10 * time.Second
	// analysisLease: a node that polls a job counts as its reader until it
	// has not polled for this long (it died, or lost its reader without
	// saying so).
	analysisLease = 30 * time.Second
	// analysisAskTimeout bounds a stop or a leave.
	analysisAskTimeout = 5 * time.Second
)

// AnalysisHost is what a node's remote publisher (Start's remote)
// implements to serve the analysis jobs that run on it to the other
// nodes, and to hear that a user started a job elsewhere.
type AnalysisHost interface {
	// PollAnalysis is analysis.Jobs.Poll for a reader on another node.
	PollAnalysis(ctx context.Context, reader string, user int64, id string, after int, wait, lease time.Duration) (analysis.State, error)
	// LeaveAnalysis is analysis.Jobs.Leave.
	LeaveAnalysis(reader string, user int64, id string)
	// StopAnalysis stops user's job id; analysis.ErrNoJob if it is not theirs or not here.
	StopAnalysis(user int64, id string) error
	// StopAnalysisBefore is analysis.Jobs.StopUserBefore.
	StopAnalysisBefore(user int64, t time.Time)
}

// The questions about a job.
const (
	analysisPoll  = "poll"
	analysisLeave = "leave"
	analysisStop  = "stop"
)

// analysisV1 is a question about job Job of user User (typeAnalysis).
type analysisV1 struct {
	Op     string `json:"op"`
	User   int64  `json:"user"`
	Job    string `json:"job"`
	After  int    `json:"after,omitempty"`
	WaitMs int64  `json:"waitMs,omitempty"`
}

// analysisRepV1 answers it (typeAnalysisRep): the job as it stands (a
// poll's), or why not.
type analysisRepV1 struct {
	Seq   int             `json:"seq,omitempty"`
	Event string          `json:"event,omitempty"`
	Data  json.RawMessage `json:"data,omitempty"`
	Done  bool            `json:"done,omitempty"`
	End   string          `json:"end,omitempty"`
	Err   *errorV1        `json:"err,omitempty"`
}

// analysisStartV1 says that user User started a job at At (typeAnalysisStart).
type analysisStartV1 struct {
	User int64     `json:"user"`
	At   time.Time `json:"at"`
}

// codeNoJob is the error code of analysis.ErrNoJob on the bus.
const codeNoJob = "no_job"

// AnalysisPrefix begins the ids of the jobs this node runs.
func (n *Node) AnalysisPrefix() string { return n.id + "." }

// AnalysisElsewhere is the node that runs job id, if not this one.
func (n *Node) AnalysisElsewhere(id string) (node string, ok bool) {
	node, _, found := strings.Cut(id, ".")
	if !found || node == n.id || !validID.MatchString(node) {
		return "", false
	}
	return node, true
}

// PollAnalysis asks the node that runs user's job id for its first event
// after number after, its end, or (after a wait) how it stands; this node
// counts as a reader of the job while it keeps asking. analysis.ErrNoJob
// when the job is not the user's or not there; another error when that
// node does not answer.
func (n *Node) PollAnalysis(ctx context.Context, user int64, id string, after int) (analysis.State, error) {
	rep, err := n.askAnalysis(ctx, analysisV1{Op: analysisPoll, User: user, Job: id, After: after, WaitMs: analysisPollWait.Milliseconds()}, analysisPollWait+analysisAskTimeout)
	if err != nil {
		return analysis.State{}, err
	}
	st := analysis.State{Seq: rep.Seq, Done: rep.Done, End: rep.End}
	if rep.Event != "" {
		st.Event = analysis.Event{Name: rep.Event, Data: rep.Data}
	}
	return st, nil
}

// LeaveAnalysis tells the node that runs user's job id that this node no
// longer reads it (its page left), best effort: otherwise its lease lapses.
func (n *Node) LeaveAnalysis(user int64, id string) {
	ctx, cancel := context.WithTimeout(n.ctx, analysisAskTimeout)
	defer cancel()
	if _, err := n.askAnalysis(ctx, analysisV1{Op: analysisLeave, User: user, Job: id}, analysisAskTimeout); err != nil && !errors.Is(err, analysis.ErrNoJob) && n.ctx.Err() == nil {
		n.log.Debug("leave a remote analysis", "job", id, "err", err)
	}
}

// StopAnalysis stops user's job id on the node that runs it.
func (n *Node) StopAnalysis(ctx context.Context, user int64, id string) error {
	_, err := n.askAnalysis(ctx, analysisV1{Op: analysisStop, User: user, Job: id}, analysisAskTimeout)
	return err
}

// AnalysisStarted tells the other nodes that user started a job here at
// t: each stops the user's job started before t.
func (n *Node) AnalysisStarted(user int64, t time.Time) {
	data, err := encode(typeAnalysisStart, n.id, analysisStartV1{User: user, At: t})
	if err == nil {
		err = n.nc.Publish(n.subject("anstart"), data)
	}
	if err != nil && n.ctx.Err() == nil {
		n.log.Warn("say that a user started an analysis", "user", user, "err", err)
	}
}

// askAnalysis sends q to the node that runs q.Job and reads its answer.
func (n *Node) askAnalysis(ctx context.Context, q analysisV1, timeout time.Duration) (analysisRepV1, error) {
	node, ok := n.AnalysisElsewhere(q.Job)
	if !ok {
		return analysisRepV1{}, analysis.ErrNoJob
	}
	data, err := encode(typeAnalysis, n.id, q)
	if err != nil {
		return analysisRepV1{}, err
	}
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	m, err := n.nc.RequestWithContext(ctx, n.subject("an", node), data)
	if err != nil {
		if errors.Is(err, nats.ErrNoResponders) {
			// The node is gone, and its jobs with it.
			return analysisRepV1{}, analysis.ErrNoJob
		}
		return analysisRepV1{}, fmt.Errorf("cluster: analysis on node %s: %w", node, err)
	}
	var rep analysisRepV1
	if _, err := decode(m.Data, typeAnalysisRep, &rep); err != nil {
		return analysisRepV1{}, fmt.Errorf("cluster: analysis on node %s: %w", node, err)
	}
	if rep.Err != nil {
		if rep.Err.Code == codeNoJob {
			return analysisRepV1{}, analysis.ErrNoJob
		}
		return analysisRepV1{}, fmt.Errorf("cluster: analysis on node %s: %s", node, rep.Err.Message)
	}
	return rep, nil
}

// serveAnalysis answers the other nodes' questions about the jobs that run
// here, each on its own goroutine (a poll waits).
func (n *Node) serveAnalysis(h AnalysisHost) nats.MsgHandler {
	return func(m *nats.Msg) {
		go func() {
			var q analysisV1
			var rep analysisRepV1
			msg, err := decode(m.Data, typeAnalysis, &q)
			if err != nil {
				n.foreign(m.Subject, err)
				rep.Err = &errorV1{Code: "bad_request", Message: "unreadable question about an analysis"}
			} else {
				reader := msg.Node
				switch q.Op {
				case analysisPoll:
					wait := min(time.Duration(q.WaitMs)*time.Millisecond, analysisPollWait)
					ctx, cancel := context.WithTimeout(n.ctx, wait+time.Second)
					var st analysis.State
					st, err = h.PollAnalysis(ctx, reader, q.User, q.Job, q.After, wait, analysisLease)
					cancel()
					if err == nil {
						rep.Seq, rep.Done, rep.End = st.Seq, st.Done, st.End
						if st.Event.Name != "" {
							rep.Event = st.Event.Name
							rep.Data, err = json.Marshal(st.Event.Data)
						}
					}
				case analysisLeave:
					h.LeaveAnalysis(reader, q.User, q.Job)
				case analysisStop:
					err = h.StopAnalysis(q.User, q.Job)
				default:
					err = fmt.Errorf("unknown question %q", q.Op)
				}
				switch {
				case errors.Is(err, analysis.ErrNoJob):
					rep = analysisRepV1{Err: &errorV1{Code: codeNoJob, Message: err.Error()}}
				case err != nil:
					rep = analysisRepV1{Err: &errorV1{Code: "unavailable", Message: err.Error()}}
				}
			}
			data, err := encode(typeAnalysisRep, n.id, rep)
			if err == nil {
				err = m.Respond(data)
			}
			if err != nil && n.ctx.Err() == nil {
				n.log.Warn("answer a question about an analysis", "err", err)
			}
		}()
	}
}

// serveAnalysisStarts hands another node's news that a user started a job
// to h.
func (n *Node) serveAnalysisStarts(h AnalysisHost) nats.MsgHandler {
	return func(m *nats.Msg) {
		var b analysisStartV1
		msg, err := decode(m.Data, typeAnalysisStart, &b)
		if err != nil {
			n.foreign(m.Subject, err)
			return
		}
		if msg.Node != n.id {
			h.StopAnalysisBefore(b.User, b.At)
		}
	}
}
