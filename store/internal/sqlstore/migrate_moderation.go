package sqlstore

// The tables of moderation (store.Moderation, moderation.go): reports,
// the moderator role, mutes, closed accounts and the moderation log.
func init() {
	register(Migration{
		Version: 10,
		Name:    "moderation: reports, moderators, mutes, closed accounts and their log",
		Up: func(d *Dialect) string {
			return `
CREATE TABLE reports (
	id ` + d.Serial + `,
	reporter_id BIGINT NOT NULL REFERENCES users(id),
	user_id BIGINT NOT NULL REFERENCES users(id),
	game_id TEXT NOT NULL,
	line BIGINT NOT NULL,
	line_text TEXT NOT NULL,
	context TEXT NOT NULL,
	reason TEXT NOT NULL,
	text TEXT NOT NULL,
	created BIGINT NOT NULL,
	status TEXT NOT NULL,
	resolved_by BIGINT NOT NULL,
	resolved BIGINT NOT NULL
);
CREATE INDEX reports_status ON reports(status, id);
CREATE INDEX reports_reporter ON reports(reporter_id, created);
CREATE INDEX reports_user ON reports(user_id, id);
CREATE TABLE moderators (
	user_id BIGINT PRIMARY KEY REFERENCES users(id),
	granted_by BIGINT NOT NULL,
	granted BIGINT NOT NULL
);
CREATE TABLE mutes (
	user_id BIGINT PRIMARY KEY REFERENCES users(id),
	until BIGINT NOT NULL,
	by_id BIGINT NOT NULL,
	reason TEXT NOT NULL,
	created BIGINT NOT NULL
);
CREATE TABLE account_closures (
	user_id BIGINT PRIMARY KEY REFERENCES users(id),
	by_id BIGINT NOT NULL,
	reason TEXT NOT NULL,
	created BIGINT NOT NULL
);
CREATE TABLE moderation_log (
	id ` + d.Serial + `,
	actor_id BIGINT NOT NULL,
	actor TEXT NOT NULL,
	action TEXT NOT NULL,
	target_id BIGINT NOT NULL,
	report_id BIGINT NOT NULL,
	reason TEXT NOT NULL,
	detail TEXT NOT NULL,
	at BIGINT NOT NULL
)`
		},
		Down: func(d *Dialect) string {
			return `
DROP TABLE moderation_log;
DROP TABLE account_closures;
DROP TABLE mutes;
DROP TABLE moderators;
DROP TABLE reports`
		},
	})
}
