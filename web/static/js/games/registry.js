// The four games as the web page knows them: the board class, the
// settings of a quick game against a bot, and, where a seat's side can
// change during a game (Sgolte's pie swap), how to name it: seatName(view,
// seat) now, moverSides(moves) for each move when it was made.

import {SgolteBoard} from './sgolte/board.js'
import {colourOf, moverColours} from './sgolte/model.js'
import {SploofBoard} from './sploof/board.js'
import {SkjuubBoard} from './skjuub/board.js'
import {SkyjoBoard} from './skyjo/board.js'

export const games = {
  sgolte: {Board: SgolteBoard, icon: 'hex', seatName: colourOf, moverSides: moverColours},
  sploof: {Board: SploofBoard, icon: 'pyramid'},
  skjuub: {Board: SkjuubBoard, icon: 'cube'},
  skyjo: {Board: SkyjoBoard, icon: 'cards', quickOptions: {players: '2'}},
}

export const gameNames = ['sgolte', 'sploof', 'skjuub', 'skyjo']
