// Tiles as data: MPSZ codes, kinds (the engine's 30-kind numbering), counts, winning shapes and
// waits (RULES.md R7.1, R8.1). The client uses these only to *explain* (which waits a 亮倒
// discard leaves, replays); the server alone decides what is legal.

// kinds: 0-8 1m-9m (万), 9-17 1p-9p (筒), 18-26 1s-9s (条), 27-29 5z 6z 7z (白 发 中)
const SUIT_BASE = { m: 0, p: 9, s: 18 };

/** The kind (0-29) of an MPSZ code such as '5p' or '7z'. */
export function kindOf(code) {
  const n = Number(code[0]);
  const suit = code[1];
  if (suit === 'z') return 27 + n - 5;
  return SUIT_BASE[suit] + n - 1;
}

/** The MPSZ code of a kind. */
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

/** Codes sorted in the engine's order (万 筒 条, then 白 发 中). */
export function sortCodes(codes) {
  return [...codes].sort((a, b) => kindOf(a) - kindOf(b));
}

/** A counts vector (30 ints) of codes. */
export function countsOf(codes) {
  const c = new Array(30).fill(0);
  for (const code of codes) c[kindOf(code)] += 1;
  return c;
}

/** Codes of a counts vector, in kind order. */
export function codesOf(counts) {
  const out = [];
  counts.forEach((n, k) => { for (let i = 0; i < n; i++) out.push(codeOf(k)); });
  return out;
}

/** Kinds in play for the rule set's two suits (R1.1) and the dragons. */
export function kindsInPlay(suits = ['p', 's']) {
  const out = [];
  for (const s of suits) for (let i = 0; i < 9; i++) out.push(SUIT_BASE[s] + i);
  out.push(27, 28, 29);
  return out;
}

function sets(c, i, pairLeft) {
  while (i < 30 && c[i] === 0) i++;
  if (i === 30) return !pairLeft;
  if (c[i] >= 3) {
    c[i] -= 3;
    const ok = sets(c, i, pairLeft);
    c[i] += 3;
    if (ok) return true;
  }
  if (pairLeft && c[i] >= 2) {
    c[i] -= 2;
    const ok = sets(c, i, false);
    c[i] += 2;
    if (ok) return true;
  }
  if (i < 27 && i % 9 <= 6 && c[i + 1] > 0 && c[i + 2] > 0) {  // runs within one suit, no dragons
    c[i] -= 1; c[i + 1] -= 1; c[i + 2] -= 1;
    const ok = sets(c, i, pairLeft);
    c[i] += 1; c[i + 1] += 1; c[i + 2] += 1;
    if (ok) return true;
  }
  return false;
}

/** R7.1: concealed counts that are sets plus exactly one pair (declared melds count apart). */
export function isStandardWin(counts) {
  const total = counts.reduce((a, b) => a + b, 0);
  if (total % 3 !== 2) return false;
  return sets([...counts], 0, true);
}

/** R7.1 七对: 14 concealed tiles in pairs (four of a kind is two pairs). */
export function isSevenPairs(counts) {
  const total = counts.reduce((a, b) => a + b, 0);
  return total === 14 && counts.every((n) => n % 2 === 0);
}

export function isWin(counts) {
  return isStandardWin(counts) || isSevenPairs(counts);
}

/**
 * R8.1: the kinds that would complete a concealed hand (13, 10, 7, 4 or 1 tiles), leaving out
 * a kind whose four copies the player already holds (``held``: concealed + melds).
 */
export function waits(counts, held = counts, suits = ['p', 's']) {
  const out = [];
  const c = [...counts];
  for (const k of kindsInPlay(suits)) {
    if (held[k] >= 4) continue;
    c[k] += 1;
    if (isWin(c)) out.push(k);
    c[k] -= 1;
  }
  return out;
}

/** Counts of everything a seat holds: concealed counts plus its melds' tiles. */
export function heldCounts(counts, melds) {
  const held = [...counts];
  for (const m of melds || []) {
    if (m.tile) held[kindOf(m.tile)] += m.kind === 'pung' ? 3 : 4;
  }
  return held;
}
