package analysis

import (
	"context"
	"time"
)

// Jobs read from other nodes. On a cluster a page's requests may reach any
// node: a job runs where it was started (its id begins with that node's
// id, JobsConfig.IDPrefix), and a node asked for the events of a job that
// runs elsewhere asks that node, each ask a long poll (Poll), the asking
// node counted as one of the job's readers for as long as it keeps asking.
// A node where a user starts a job tells the others, which stop the user's
// older job there (StopUserBefore): a user holds one job on the whole site,
// as on one node.

// remoteRead is one other node's reading of a job, until its timer fires.
type remoteRead struct{ timer *time.Timer }

// Poll waits until user's job id has an event after number after, is over,
// or wait has passed, and returns the job as it then stands. reader names
// the node that asks: it counts as a reader of the job (an analysis nobody
// reads is stopped) until lease has passed without a Poll from it, or it
// Leaves. Another user's job, or one that is not here, is ErrNoJob.
func (js *Jobs) Poll(ctx context.Context, reader string, user int64, id string, after int, wait, lease time.Duration) (State, error) {
	j, err := js.Of(user, id)
	if err != nil {
		return State{}, err
	}
	j.watchRemote(reader, lease)
	timer := time.NewTimer(wait)
	defer timer.Stop()
	for {
		st := j.State()
		if st.Seq > after || st.Done {
			return st, nil
		}
		select {
		case <-st.Changed:
		case <-timer.C:
			return st, nil
		case <-ctx.Done():
			return st, ctx.Err()
		}
	}
}

// Leave ends reader's reading of user's job id at once (the page reading
// it through that node left): an analysis whose last reader leaves is
// stopped, wherever its readers were.
func (js *Jobs) Leave(reader string, user int64, id string) {
	if j, err := js.Of(user, id); err == nil {
		j.unwatchRemote(reader)
	}
}

// StopUserBefore stops user's job here if it started before t: the user
// started another, on another node, at t. A job started here after t is
// the newer one and stays.
func (js *Jobs) StopUserBefore(user int64, t time.Time) {
	js.mu.Lock()
	j := js.byUser[user]
	js.mu.Unlock()
	if j != nil && j.started.Before(t) {
		j.Stop(EndStopped)
	}
}

// watchRemote counts reader as a reader of the job for lease from now.
func (j *Job) watchRemote(reader string, lease time.Duration) {
	j.mu.Lock()
	defer j.mu.Unlock()
	if r, ok := j.remote[reader]; ok {
		if r.timer.Stop() {
			r.timer.Reset(lease)
			return
		}
		// Its lease ran out just now: the lapse, finding another read in
		// its place, leaves the count as it is, and this read takes over.
		j.remote[reader] = j.newRemoteRead(reader, lease)
		return
	}
	if j.remote == nil {
		j.remote = map[string]*remoteRead{}
	}
	j.watchers++
	j.watched = true
	j.remote[reader] = j.newRemoteRead(reader, lease)
}

// newRemoteRead is reader's read, lapsing after lease; j.mu is held.
func (j *Job) newRemoteRead(reader string, lease time.Duration) *remoteRead {
	r := &remoteRead{}
	r.timer = time.AfterFunc(lease, func() { j.endRemote(reader, r) })
	return r
}

// unwatchRemote ends reader's read of the job, if it has one.
func (j *Job) unwatchRemote(reader string) {
	j.mu.Lock()
	r := j.remote[reader]
	j.mu.Unlock()
	if r != nil {
		r.timer.Stop()
		j.endRemote(reader, r)
	}
}

// endRemote ends read r of reader, unless another has taken its place.
func (j *Job) endRemote(reader string, r *remoteRead) {
	j.mu.Lock()
	if j.remote[reader] != r {
		j.mu.Unlock()
		return
	}
	delete(j.remote, reader)
	j.watchers--
	j.mu.Unlock()
	j.readerLeft()
}
