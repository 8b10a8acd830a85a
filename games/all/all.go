// Package all registers every Tabula game; import it for its side effect.
package all
