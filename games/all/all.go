// Package all registers every Tabula game, and the exact solvers some of
// them offer; import it for its side effect.
package all

import (
	_ "github.com/tabula-games/tabula/games/sgolte"
	_ "github.com/tabula-games/tabula/games/skjuub"
	_ "github.com/tabula-games/tabula/games/skyjo"
	_ "github.com/tabula-games/tabula/games/sploof"
	_ "github.com/tabula-games/tabula/games/sploof/solve"
)
