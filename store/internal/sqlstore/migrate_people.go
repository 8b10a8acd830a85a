package sqlstore

// Migration 7 (finding people, issue 24): who is online on the whole site,
// and an index that answers a name-prefix search without reading the
// table.
//
// presence holds each node's word that a user is online there (an empty
// game_id), and each game page of theirs that is open there as a player
// (game_id: the game), stamped with the node's clock at its last beat.
// A node rewrites only its own rows; any node deletes the rows whose
// stamp is older than the expiry, so a node that died stops counting its
// users soon after (store.Presence).
//
// users_name_search is the registered users by name_key, in byte order: a
// prefix is one range of it (guests, whose names begin "guest-", are not
// in it, so a prefix such as "g" cannot make the search walk them). On
// PostgreSQL it is built in the "C" collation, so that the range is the
// same whatever the database's own collation (SQLite compares bytes by
// default).
func init() {
	register(Migration{
		Version: 7,
		Name:    "presence of users on every node, and the name-prefix search index (find people)",
		Up: func(d *Dialect) string {
			index := `CREATE INDEX users_name_search ON users(name_key) WHERE guest = 0`
			if d.Name == "postgres" {
				index = `CREATE INDEX users_name_search ON users((name_key COLLATE "C")) WHERE guest = 0`
			}
			return `
CREATE TABLE presence (
	node TEXT NOT NULL,
	user_id BIGINT NOT NULL,
	game_id TEXT NOT NULL,
	seen BIGINT NOT NULL,
	PRIMARY KEY (node, user_id, game_id)
);
CREATE INDEX presence_seen ON presence(seen);
` + index
		},
		Down: func(d *Dialect) string {
			return `
DROP INDEX users_name_search;
DROP TABLE presence`
		},
	},
	)
}
