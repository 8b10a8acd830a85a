package sqlstore

// Follows and the inbox (issue 24, items 5 and 6): who follows whom, the
// inbox's stored notices, and the read marks of every inbox item by key.
func init() {
	register(Migration{
		Version: 9,
		Name:    "follows, inbox notices and inbox read marks",
		Up: func(d *Dialect) string {
			return `
CREATE TABLE follows (
	user_id BIGINT NOT NULL REFERENCES users(id),
	followed_id BIGINT NOT NULL REFERENCES users(id),
	created BIGINT NOT NULL,
	PRIMARY KEY (user_id, followed_id)
);
CREATE INDEX follows_followed ON follows(followed_id, created);
CREATE TABLE inbox_notices (
	id ` + d.Serial + `,
	user_id BIGINT NOT NULL REFERENCES users(id),
	kind TEXT NOT NULL,
	title TEXT NOT NULL,
	link TEXT NOT NULL,
	created BIGINT NOT NULL
);
CREATE INDEX inbox_notices_user ON inbox_notices(user_id, id);
CREATE TABLE inbox_reads (
	user_id BIGINT NOT NULL REFERENCES users(id),
	item_key TEXT NOT NULL,
	at BIGINT NOT NULL,
	PRIMARY KEY (user_id, item_key)
);
CREATE INDEX inbox_reads_at ON inbox_reads(user_id, at)`
		},
		Down: func(d *Dialect) string {
			return `
DROP TABLE inbox_reads;
DROP TABLE inbox_notices;
DROP TABLE follows`
		},
	})
}
