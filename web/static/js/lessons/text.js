// The words of the lesson and puzzle pages, in every interface language.
// They live here rather than in lang/*.js so that the lessons stay one
// self-contained part of the site; lesson texts themselves are in the
// lesson data (learn/lessons/<game>.json), keyed by language.

import {lang, pluralKey} from '../i18n.js'

const words = {
  en: {
    'learn.title': 'Learn to play',
    'learn.lead': 'Short lessons on the real board: one idea, one task each. Your progress stays in this browser.',
    'learn.cta': 'Learn {game} in {minutes} minutes',
    'learn.puzzles': '{game} puzzles',
    'learn.progress': '{done} of {total} done',
    'learn.lessons': 'Lessons',
    'learn.step': 'Step {n} of {total}',
    'learn.next': 'Next',
    'learn.again': 'Try this step again',
    'learn.reset': 'Start the path again',
    'learn.engine': 'The rules engine says: {reason}',
    'learn.notTask': 'That is a legal move, but not what this step asks for.',
    'learn.wrongTry': 'Not allowed.',
    'learn.finished': 'You have finished the {game} lessons.',
    'learn.startGame': 'Start the game',
    'learn.you': 'You',
    'learn.opponent': 'Opponent',
    'learn.resign': 'Resign',
    'learn.resignConfirm': 'Resign this game?',
    'learn.gameOver': 'The game is over. You have finished the {game} lessons.',
    'learn.hints': 'Hints',
    'learn.waiting': 'The bot is thinking…',
    'learn.hint.movable': 'Your skjuubs that can move: {list}.',
    'learn.hint.noneMovable': 'None of your skjuubs can slide or tumble.',
    'learn.hint.place': 'Place a skjuub from your pool: click an empty square, then choose its direction. A placement may not make an active skjuub of your opponent inactive.',
    'learn.hint.captures': 'Moves that capture: {list}.',
    'learn.hint.sacrifices': 'Moves that sacrifice (and earn a bonus action): {list}.',
    'learn.hint.danger': 'Careful: only {n} of your skjuubs can move. If none can at the start of your turn, you lose.',
    'learn.hint.bonus': 'Bonus action: place, slide or tumble another skjuub, pick one up, turn one a quarter, or pass.',
    'learn.hint.legal': 'You have {n} legal moves; the board marks where you may click.',
    'learn.hint.legal.one': 'You have {n} legal move; the board marks where you may click.',
    'learn.hint.theirTurn': 'Wait for the bot’s move.',
    'puzzle.title': '{game} puzzles',
    'puzzle.lead': 'Each position comes from a game between bots. Exactly one move wins by force within a few plies (a ply is one move of one player). Find it.',
    'puzzle.of': 'Puzzle {n} of {total}',
    'puzzle.task': '{side} to move and win within {plies} plies ({moves} of your moves).',
    'puzzle.hint': 'Hint',
    'puzzle.solution': 'Show the solution',
    'puzzle.next': 'Next puzzle',
    'puzzle.prev': 'Previous puzzle',
    'puzzle.solved': 'Solved! {move} is the only move that wins by force.',
    'puzzle.notIt': '{move} does not win by force: the opponent has a defence. Try again.',
    'puzzle.line': 'The winning line: {line}.',
    'puzzle.solvedCount': '{done} of {total} solved',
    'puzzle.hintLevel': 'The winning move places a ball on level {level}.',
    'puzzle.hintSpecial': 'The winning move is {move}.',
    'puzzle.hintRemove': 'The winning move removes a red ball.',
    'puzzle.hintRow': 'The winning move is in row {row}.',
    'puzzle.hintFlips': 'The winning move flips {n} stones.',
    'puzzle.hintFlips.one': 'The winning move flips {n} stone.',
  },
  ko: {
    'learn.title': '배우기',
    'learn.lead': '실제 보드에서 하는 짧은 레슨입니다. 단계마다 아이디어 하나, 과제 하나. 진행 상황은 이 브라우저에 남습니다.',
    'learn.cta': '{minutes}분 만에 배우는 {game}',
    'learn.puzzles': '{game} 퍼즐',
    'learn.progress': '{total}개 중 {done}개 완료',
    'learn.lessons': '레슨',
    'learn.step': '{total}단계 중 {n}단계',
    'learn.next': '다음',
    'learn.again': '이 단계 다시 하기',
    'learn.reset': '처음부터 다시',
    'learn.engine': '규칙 엔진: {reason}',
    'learn.notTask': '합법적인 수이지만 이 단계의 과제는 아닙니다.',
    'learn.wrongTry': '허용되지 않습니다.',
    'learn.finished': '{game} 레슨을 모두 마쳤습니다.',
    'learn.startGame': '게임 시작',
    'learn.you': '나',
    'learn.opponent': '상대',
    'learn.resign': '기권',
    'learn.resignConfirm': '이 게임을 기권할까요?',
    'learn.gameOver': '게임이 끝났습니다. {game} 레슨을 모두 마쳤습니다.',
    'learn.hints': '힌트',
    'learn.waiting': '봇이 생각 중입니다…',
    'learn.hint.movable': '움직일 수 있는 내 스쿠브: {list}.',
    'learn.hint.noneMovable': '밀거나 굴릴 수 있는 내 스쿠브가 없습니다.',
    'learn.hint.place': '풀에서 스쿠브를 놓으세요. 빈 칸을 누르고 방향을 고르세요. 놓기로 상대의 활성 스쿠브를 비활성으로 만들 수는 없습니다.',
    'learn.hint.captures': '잡는 수: {list}.',
    'learn.hint.sacrifices': '희생하는 수(보너스 행동을 얻음): {list}.',
    'learn.hint.danger': '조심하세요. 움직일 수 있는 내 스쿠브가 {n}개뿐입니다. 내 차례가 시작될 때 하나도 없으면 집니다.',
    'learn.hint.bonus': '보너스 행동: 다른 스쿠브를 놓거나 밀거나 굴리기, 하나 집어 들기, 돌리기, 또는 패스.',
    'learn.hint.legal': '합법적인 수가 {n}개 있습니다. 보드가 누를 수 있는 곳을 표시합니다.',
    'learn.hint.theirTurn': '봇의 수를 기다리세요.',
    'puzzle.title': '{game} 퍼즐',
    'puzzle.lead': '각 국면은 봇끼리 둔 게임에서 나왔습니다. 몇 플라이(플라이는 한 사람의 수 하나) 안에 반드시 이기는 수가 정확히 하나 있습니다. 찾아보세요.',
    'puzzle.of': '{total}개 중 {n}번째 퍼즐',
    'puzzle.task': '{side} 차례, {plies}플라이({moves}수) 안에 이기세요.',
    'puzzle.hint': '힌트',
    'puzzle.solution': '정답 보기',
    'puzzle.next': '다음 퍼즐',
    'puzzle.prev': '이전 퍼즐',
    'puzzle.solved': '정답! {move}만이 반드시 이기는 수입니다.',
    'puzzle.notIt': '{move}로는 반드시 이기지 못합니다. 상대에게 방어 수가 있습니다. 다시 해 보세요.',
    'puzzle.line': '이기는 수순: {line}.',
    'puzzle.solvedCount': '{total}개 중 {done}개 해결',
    'puzzle.hintLevel': '이기는 수는 {level}층에 공을 놓습니다.',
    'puzzle.hintSpecial': '이기는 수는 {move}입니다.',
    'puzzle.hintRemove': '이기는 수는 빨간 공을 제거합니다.',
    'puzzle.hintRow': '이기는 수는 {row}행에 있습니다.',
    'puzzle.hintFlips': '이기는 수는 돌 {n}개를 뒤집습니다.',
  },
  mn: {
    'learn.title': 'Тоглож сурах',
    'learn.lead': 'Жинхэнэ самбар дээрх богино хичээлүүд: алхам бүрт нэг санаа, нэг даалгавар. Таны ахиц энэ хөтөчид хадгалагдана.',
    'learn.cta': '{game}-г {minutes} минутад сур',
    'learn.puzzles': '{game} бодлогууд',
    'learn.progress': '{total}-аас {done} дууссан',
    'learn.lessons': 'Хичээлүүд',
    'learn.step': '{total}-ийн {n}-р алхам',
    'learn.next': 'Дараах',
    'learn.again': 'Энэ алхмыг дахин',
    'learn.reset': 'Эхнээс нь дахин',
    'learn.engine': 'Дүрмийн хөдөлгүүр: {reason}',
    'learn.notTask': 'Зөв нүүдэл ч энэ алхмын даалгавар биш.',
    'learn.wrongTry': 'Болохгүй.',
    'learn.finished': 'Та {game}-ийн хичээлүүдийг дуусгалаа.',
    'learn.startGame': 'Тоглолт эхлүүлэх',
    'learn.you': 'Та',
    'learn.opponent': 'Өрсөлдөгч',
    'learn.resign': 'Бууж өгөх',
    'learn.resignConfirm': 'Энэ тоглолтод бууж өгөх үү?',
    'learn.gameOver': 'Тоглолт дууслаа. Та {game}-ийн хичээлүүдийг дуусгалаа.',
    'learn.hints': 'Зөвлөмж',
    'learn.waiting': 'Бот бодож байна…',
    'learn.hint.movable': 'Нүүж чадах таны скюүбүүд: {list}.',
    'learn.hint.noneMovable': 'Таны аль ч скюүб гулсаж, онхолдож чадахгүй.',
    'learn.hint.place': 'Нөөцөөсөө скюүб тавь: хоосон нүдэн дээр дараад чиглэлийг нь сонго. Тавилт өрсөлдөгчийн идэвхтэй скюүбийг идэвхгүй болгож болохгүй.',
    'learn.hint.captures': 'Олзлох нүүдлүүд: {list}.',
    'learn.hint.sacrifices': 'Золиослох нүүдлүүд (нэмэлт үйлдэл авна): {list}.',
    'learn.hint.danger': 'Болгоомжил: таны ердөө {n} скюүб нүүж чадна. Ээлжийн эхэнд нэг нь ч чадахгүй бол та хожигдоно.',
    'learn.hint.bonus': 'Нэмэлт үйлдэл: өөр скюүбийг тавих, гулсуулах, онхолдуулах, нэгийг авах, дөрөвний нэг эргүүлэх, эсвэл өнжих.',
    'learn.hint.legal': 'Танд {n} зөв нүүдэл бий; самбар дарж болох газрыг тэмдэглэнэ.',
    'learn.hint.theirTurn': 'Ботын нүүдлийг хүлээ.',
    'puzzle.title': '{game} бодлогууд',
    'puzzle.lead': 'Байрлал бүр ботуудын тоглолтоос гарсан. Цөөн нүүдлийн (нэг тоглогчийн нэг нүүдэл) дотор албадан хожих яг ганц нүүдэл бий. Түүнийг ол.',
    'puzzle.of': '{total}-ийн {n}-р бодлого',
    'puzzle.task': '{side} нүүж, {plies} нүүдлийн ({moves} таны нүүдэл) дотор хож.',
    'puzzle.hint': 'Зөвлөмж',
    'puzzle.solution': 'Шийдлийг харах',
    'puzzle.next': 'Дараах бодлого',
    'puzzle.prev': 'Өмнөх бодлого',
    'puzzle.solved': 'Зөв! {move} бол албадан хожих цорын ганц нүүдэл.',
    'puzzle.notIt': '{move} албадан хожихгүй: өрсөлдөгчид хамгаалалт бий. Дахин оролд.',
    'puzzle.line': 'Хожих дараалал: {line}.',
    'puzzle.solvedCount': '{total}-аас {done} бодсон',
    'puzzle.hintLevel': 'Хожих нүүдэл {level}-р давхарт бөмбөг тавина.',
    'puzzle.hintSpecial': 'Хожих нүүдэл: {move}.',
    'puzzle.hintRemove': 'Хожих нүүдэл улаан бөмбөг авна.',
    'puzzle.hintRow': 'Хожих нүүдэл {row} мөрөнд байна.',
    'puzzle.hintFlips': 'Хожих нүүдэл {n} чулуу эргүүлнэ.',
  },
}

/** lt('key', {game: 'Skjuub'}) is a lesson-page string in the interface language. */
export function lt(key, params) {
  const dict = words[lang()] || words.en
  key = pluralKey(dict, key, params, lang())
  let str = dict[key] ?? words.en[key] ?? key
  if (params) str = str.replace(/\{(\w+)\}/g, (m, k) => (k in params ? String(params[k]) : m))
  return str
}

/** pick chooses a lesson text ({en, ko, mn}) in the interface language. */
export function pick(text) {
  if (!text) return ''
  return text[lang()] || text.en || ''
}

export const languages = Object.keys(words)

// About how long each game's lesson path takes a new player (the first
// game not counted): Skjuub has twice the steps of the others.
const MINUTES = {sgolte: 5, sploof: 5, skjuub: 10, skyjo: 5}

/** cta is the link to a game's lesson path: "Learn Sgolte in 5 minutes". */
export function cta(game, title) {
  return lt('learn.cta', {game: title, minutes: MINUTES[game] || 5})
}
