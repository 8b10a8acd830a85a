// Package compute is a node's one pool of search workers. Every costly
// search the node runs on behalf of someone — a server bot's move in a live
// game, an analysis or a review a user asked for — waits here for cores, so
// that all of them together never use more than the cores given to the pool,
// the cores left over serve people, and no user crowds out the others.
//
// The pool knows nothing of games or HTTP: a task is a function, the user
// it is charged to, its class and how many cores its search uses.
//
//	pool := compute.New(compute.Config{Cores: 1})
//	err := pool.Run(ctx, compute.Task{User: uid, Class: compute.Background, Cores: 1, Label: "analysis"},
//		func(ctx context.Context) error { ...search until ctx ends or the budget is spent... })
//
// Work in slices (a long analysis that should let bot moves in between)
// takes the pool for each slice instead:
//
//	release, err := pool.Acquire(ctx, task) // ...one slice of search... ; release()
//
// # Scheduling
//
//   - Capacity. The pool has Config.Cores core units. A task says how many
//     goroutines its search runs at once (Task.Cores, at least 1; a task
//     asking for more than the pool has gets the whole pool and runs
//     alone). Tasks run while their cores fit; the others wait.
//   - Priority classes. Live (a bot's move in a game being played) goes
//     before Background (analysis, reviews): no Background task starts
//     while a Live task waits, and Background tasks never hold more than
//     Config.BackgroundCores cores at once. A running task is never
//     interrupted, so a Live task may wait for a Background task to finish:
//     submit background work in short pieces (a second or so each).
//   - Fair share. Within a class, the next task is the oldest of the user
//     who holds the fewest cores now, and among those the one who used the
//     least core time lately (usage halves every Config.HalfLife). A user
//     who submits a hundred tasks therefore gets the pool only while nobody
//     else asks for it; a newcomer's task goes before the flood's next one.
//     Each user's own tasks run in the order they came.
//   - No backfill. When the next task does not fit, smaller tasks behind it
//     wait too, so a task that needs more cores is never starved by small
//     ones.
//   - Bounds. A user may have at most Config.MaxWaitingPerUser tasks
//     waiting and the pool at most Config.MaxWaiting; beyond that Run fails
//     at once with ErrBusy (the HTTP layer answers 429).
//
// A task that ends (or whose ctx ends while it waits) gives its cores back
// at once, a panic included.
//
// # Keeping to the cores
//
// The pool counts cores; the work must keep to them. Grant says how many
// cores a task gets (a task asking for more than the pool has gets the
// pool's): a search runs no more goroutines than that (agent.WithCores).
// LowerPriority, called first thing on a goroutine that ends with the
// work, puts its OS thread below the node's others (Linux: nice +10), so
// that when the machine's cores are all busy the kernel runs the threads
// serving people first. `tabula serve` adds the pool's cores to Go's
// processors (GOMAXPROCS), so that a running search never holds a
// processor that would serve people.
//
// # Load
//
// Load reports what the pool holds (cores busy, tasks waiting per class,
// the recent wait of Live tasks); Saturated says whether a Live task
// submitted now would wait for at least a whole round of running ones — a
// node that is saturated should not take more bot games (the question a
// cluster asks before placing one).
//
// # Memory
//
// The pool's Memory is the node's budget of bytes for what its searches
// hold (Config.Memory, default 512 MiB): a search reserves its tree before
// growing it and gives it back when done, and what bots keep between moves
// (a subtree to reuse) holds at most half of it. A
// reservation that does not fit is refused and the search does with less;
// Pressed says that the budget is nearly spent, when a node should take no
// more bot games.
package compute
