// Tile notation only (no rules): MPSZ codes such as '5p' or '7z', and the engine's 30-kind
// numbering (kawuxing.tiles): 0-8 1m-9m (万), 9-17 1p-9p (筒), 18-26 1s-9s (条), 27-29 5z 6z 7z
// (白 发 中). What is legal, the waits and what is unseen come from the server's views.

const SUIT_BASE = { m: 0, p: 9, s: 18 };

/** The kind (0-29) of an MPSZ code such as '5p' or '7z'. */
export function kindOf(code) {
  const n = Number(code[0]);
  const suit = code[1];
  if (suit === 'z') return 27 + n - 5;
  return SUIT_BASE[suit] + n - 1;
}

/** The MPSZ code of a kind (0-29). */
export function codeOf(kind) {
  if (kind >= 27) return `${kind - 27 + 5}z`;
  return `${(kind % 9) + 1}${'mps'[Math.floor(kind / 9)]}`;
}

/** Codes of an MPSZ string: '469p 123s' -> ['4p','6p','9p','1s','2s','3s'] (also '4p 6p'). */
export function parseTiles(text) {
  const out = [];
  let digits = [];
  for (const ch of String(text || '')) {
    if (ch >= '0' && ch <= '9') digits.push(ch);
    else if ('mpsz'.includes(ch)) {
      for (const d of digits) out.push(d + ch);
      digits = [];
    }
  }
  return out;
}

/** Kinds in play for the given suits, in the order given (R1.1), then the dragons; with the
 * suits in 万 筒 条 order this is kawuxing.tiles.kinds_for_suits (docs/fairness.md). */
export function kindsInPlay(suits = ['p', 's']) {
  const out = [];
  for (const s of suits) for (let i = 0; i < 9; i++) out.push(SUIT_BASE[s] + i);
  out.push(27, 28, 29);
  return out;
}
