// The four games as the web page knows them: the board class, and the
// settings of a quick game against a bot.

import {SgolteBoard} from './sgolte/board.js'
import {SploofBoard} from './sploof/board.js'
import {SkjuubBoard} from './skjuub/board.js'
import {SkyjoBoard} from './skyjo/board.js'

export const games = {
  sgolte: {Board: SgolteBoard, icon: 'hex'},
  sploof: {Board: SploofBoard, icon: 'pyramid'},
  skjuub: {Board: SkjuubBoard, icon: 'cube'},
  skyjo: {Board: SkyjoBoard, icon: 'cards', quickOptions: {players: '2'}},
}

export const gameNames = ['sgolte', 'sploof', 'skjuub', 'skyjo']
