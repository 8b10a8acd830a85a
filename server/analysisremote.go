package server

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"time"

	"github.com/tabula-games/tabula/analysis"
	"github.com/tabula-games/tabula/store"
)

// Analysis jobs on a cluster (analysis/remote.go says the rule,
// cluster/analysis.go carries it): a page's request for a job's events or
// its stop may reach any node; the node that does not run the job asks the
// one that does, and a user's new job stops their older one on every node.

// analysisCluster is what a cluster node offers for analysis jobs that run
// on other nodes.
type analysisCluster interface {
	// AnalysisPrefix begins the ids of the jobs this node runs.
	AnalysisPrefix() string
	// AnalysisElsewhere is the node that runs job id, if not this one.
	AnalysisElsewhere(id string) (node string, ok bool)
	// PollAnalysis asks that node for the job's first event after number
	// after, its end, or how it stands after a wait.
	PollAnalysis(ctx context.Context, user int64, id string, after int) (analysis.State, error)
	// LeaveAnalysis tells it that this node no longer reads the job.
	LeaveAnalysis(user int64, id string)
	// StopAnalysis stops the job there.
	StopAnalysis(ctx context.Context, user int64, id string) error
	// AnalysisStarted tells every other node that user started a job at t.
	AnalysisStarted(user int64, t time.Time)
}

// analysisCluster is the node's cluster as analysisCluster, if it is one.
func (s *Server) analysisCluster() (analysisCluster, bool) {
	ac, ok := s.cfg.Cluster.(analysisCluster)
	return ac, ok
}

// remoteAnalysis is the cluster when job id runs on another node.
func (s *Server) remoteAnalysis(id string) (analysisCluster, bool) {
	ac, ok := s.analysisCluster()
	if !ok {
		return nil, false
	}
	_, elsewhere := ac.AnalysisElsewhere(id)
	return ac, elsewhere
}

// startedHere tells the other nodes that u started a job here, so that
// the job they run for u, older, stops.
func (s *Server) startedHere(u *store.User) {
	if ac, ok := s.analysisCluster(); ok {
		ac.AnalysisStarted(u.ID, time.Now())
	}
}

// remoteAnalysisErr is err from another node as the API's error.
func remoteAnalysisErr(err error) error {
	if errors.Is(err, analysis.ErrNoJob) {
		return err
	}
	return errf(http.StatusServiceUnavailable, "unavailable", "the server running this analysis does not answer: %v", err)
}

// streamRemoteAnalysis is handleAnalysisEvents for a job that runs on
// another node: the same stream, its events polled from there. A job that
// ends with its node ends the stream as a node's shutdown does.
func (s *Server) streamRemoteAnalysis(w http.ResponseWriter, r *http.Request, u *store.User, ac analysisCluster, id string) {
	ctx := r.Context()
	st, err := ac.PollAnalysis(ctx, u.ID, id, 0)
	if err != nil {
		writeError(w, remoteAnalysisErr(err))
		return
	}
	// The page left, or this node stops: the job's node hears it at once
	// (an analysis whose last reader leaves is stopped), not at its lease.
	defer func() {
		if !st.Done {
			ac.LeaveAnalysis(u.ID, id)
		}
	}()
	rc := openEventStream(w)
	sent := 0
	for {
		if st.Seq <= sent && !st.Done { // a poll with nothing new: the stream beats
			if _, err := fmt.Fprint(w, ": beat\n\n"); err != nil {
				return
			}
		}
		if !writeJobState(w, rc, st, &sent) {
			return
		}
		next, err := ac.PollAnalysis(ctx, u.ID, id, sent)
		switch {
		case ctx.Err() != nil || s.ctx.Err() != nil:
			return
		case err != nil:
			// Its node is gone, and the job with it.
			st = analysis.State{Seq: sent, Done: true, End: analysis.EndShutdown}
		default:
			st = next
		}
	}
}
