package sqlstore

// Bot accounts (users.bot, one way) and API tokens with scopes and a last
// use (issue 26). A token made before this migration gets the full scope,
// which is what it could do before.
func init() {
	register(Migration{
		Version: 11,
		Name:    "bot accounts; API token scopes and last use",
		Up: func(d *Dialect) string {
			return `
ALTER TABLE users ADD COLUMN bot INTEGER NOT NULL DEFAULT 0;
ALTER TABLE tokens ADD COLUMN scopes TEXT NOT NULL DEFAULT 'full';
ALTER TABLE tokens ADD COLUMN last_used BIGINT NOT NULL DEFAULT 0`
		},
		Down: func(d *Dialect) string {
			return `
ALTER TABLE tokens DROP COLUMN last_used;
ALTER TABLE tokens DROP COLUMN scopes;
ALTER TABLE users DROP COLUMN bot`
		},
	})
}
