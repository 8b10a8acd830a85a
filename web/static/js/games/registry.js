// The games the web page can draw: the board class, swatches (a seat's
// side has a colour: black, white, 1, 2), isCapture(move, before, after)
// for the capture sound, and, where a seat's side can change during a game
// (Sgolte's pie swap), how to name it: seatName(view, seat) now,
// moverSides(moves) for each move when it was made; where a game is played
// in rounds (Skyjo), roundStarts(moves, startView) for the move list. Which games the site
// offers, in what order, and their facts (seats, options, hidden
// information) come from the server's catalog (../catalog.js).

import {SgolteBoard} from './sgolte/board.js'
import * as sgolte from './sgolte/model.js'
import {SploofBoard} from './sploof/board.js'
import * as sploof from './sploof/model.js'
import {SkjuubBoard} from './skjuub/board.js'
import * as skjuub from './skjuub/model.js'
import {SkyjoBoard} from './skyjo/board.js'
import * as skyjo from './skyjo/model.js'

export const games = {
  sgolte: {Board: SgolteBoard, icon: 'hex', swatches: true, isCapture: sgolte.isCapture, seatName: sgolte.colourOf, moverSides: sgolte.moverColours},
  sploof: {Board: SploofBoard, icon: 'pyramid', swatches: true, isCapture: sploof.isCapture},
  skjuub: {Board: SkjuubBoard, icon: 'cube', swatches: true, isCapture: skjuub.isCapture},
  skyjo: {Board: SkyjoBoard, icon: 'cards', isCapture: skyjo.isCapture, roundStarts: skyjo.roundStarts, roundLabel: 'skyjo.round'},
}
