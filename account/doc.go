// Package account is the rules of the site's accounts, apart from any
// way in: who may have which name and password, how passwords are hashed
// and checked, guests, registration (a guest keeping its games), the
// sign-in and its back-off per account, sessions and API tokens as
// secrets of which the store keeps only a hash, and the cache of users'
// names that game summaries show. The server keeps what is HTTP — the
// cookie, the Authorization header, the limits per address, the mapping of
// this package's errors to statuses — and a command that manages accounts
// would use this package the same way.
//
// The back-off is kept in the store (store.Limits), so every node that
// shares the store counts the same failures: five free tries at one
// account from any addresses and any nodes, then waits that double.
package account
