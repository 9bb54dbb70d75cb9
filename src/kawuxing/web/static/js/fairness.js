// The provably fair deal in the browser (docs/fairness.md, RULES.md R3.1): the client's own
// entropy, and the check at the end of a hand — the commitment received before the deal is
// SHA-256 of the revealed seed and hand id, the client's entropy is in the record, and the wall
// the seed gives deals exactly the hand and the draws this seat saw. Computed here with the
// Web Crypto API, not taken from the server. crypto.subtle exists only in secure contexts
// (https, localhost, 127.0.0.1 over plain http): elsewhere the check says it cannot run.

import { codeOf, kindOf, kindsInPlay, parseTiles } from './notation.js';

export const ALGORITHM = 'kawuxing-wall-v1';
const COMMIT_LABEL = 'kawuxing-wall-v1/commitment';
const WALL_LABEL = 'kawuxing-wall-v1/wall';
const U32 = 4294967296;
const enc = new TextEncoder();

/** The Web Crypto SubtleCrypto of this page, or null (not a secure context). */
export function subtleCrypto() {
  const c = globalThis.crypto;
  return c && c.subtle && globalThis.isSecureContext !== false ? c.subtle : null;
}

export function toHex(bytes) {
  return Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
}

export function fromHex(text) {
  if (typeof text !== 'string' || !/^(?:[0-9a-f]{2})*$/.test(text)) throw new Error('not hex');
  const out = new Uint8Array(text.length / 2);
  for (let i = 0; i < out.length; i++) out[i] = parseInt(text.slice(2 * i, 2 * i + 2), 16);
  return out;
}

/** 32 hex characters from crypto.getRandomValues (128 bits): this seat's entropy for a hand. */
export function newEntropy() {
  const bytes = new Uint8Array(16);
  globalThis.crypto.getRandomValues(bytes);
  return toHex(bytes);
}

// lp(b) = 4-byte big-endian length ‖ b; strings are ASCII (UTF-8 of ASCII is the same)
function lp(data) {
  const bytes = typeof data === 'string' ? enc.encode(data) : data;
  const out = new Uint8Array(4 + bytes.length);
  new DataView(out.buffer).setUint32(0, bytes.length);
  out.set(bytes, 4);
  return out;
}

function concat(parts) {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) { out.set(p, at); at += p.length; }
  return out;
}

/** hex SHA-256(lp(label) ‖ lp(hand id) ‖ lp(seed)): the commitment to ``seed`` (bytes). */
export async function commitment(seed, handId, subtle = subtleCrypto()) {
  const digest = await subtle.digest('SHA-256', concat([lp(COMMIT_LABEL), lp(handId), lp(seed)]));
  return toHex(new Uint8Array(digest));
}

async function hmac(subtle, key, data) {
  const k = await subtle.importKey('raw', key, { name: 'HMAC', hash: 'SHA-256' }, false, ['sign']);
  return new Uint8Array(await subtle.sign('HMAC', k, data));
}

/**
 * The wall (84 tile kinds, dealing order) of seed (bytes), hand id and the three seats' entropy:
 * Fisher–Yates on the HMAC-SHA256 counter stream with rejection sampling (docs/fairness.md).
 */
export async function deriveWall(suits, seed, handId, entropy, subtle = subtleCrypto()) {
  const key = await hmac(subtle, seed, concat([lp(WALL_LABEL), lp(handId), ...entropy.map((e) => lp(e))]));
  const k = await subtle.importKey('raw', key, { name: 'HMAC', hash: 'SHA-256' }, false, ['sign']);
  let counter = 0;
  let block = null;
  let at = 32;
  const next = async () => {
    if (at >= 32) {
      const c = new Uint8Array(8);
      new DataView(c.buffer).setBigUint64(0, BigInt(counter++));
      block = new DataView(await subtle.sign('HMAC', k, c));
      at = 0;
    }
    const word = block.getUint32(at);
    at += 4;
    return word;
  };
  const order = ['m', 'p', 's'].filter((s) => suits.includes(s));
  const deck = [];
  for (const kind of kindsInPlay(order)) for (let c = 0; c < 4; c++) deck.push(kind);
  for (let i = deck.length - 1; i > 0; i--) {
    const n = i + 1;
    const limit = U32 - (U32 % n);
    let word = await next();
    while (word >= limit) word = await next();
    const j = word % n;
    [deck[i], deck[j]] = [deck[j], deck[i]];
  }
  return deck;
}

/** R3.1's deal of a wall: {hands: three lists of kinds, draws: the draw order}. */
export function deal(wall, dealer) {
  const hands = [[], [], []];
  let pos = 0;
  for (const size of [4, 4, 4, 1]) {
    for (let i = 0; i < 3; i++) {
      hands[(dealer + i) % 3].push(...wall.slice(pos, pos + size));
      pos += size;
    }
  }
  return { hands, draws: wall.slice(pos) };
}

const sortedKinds = (codes) => codes.map(kindOf).sort((a, b) => a - b);
const same = (a, b) => a.length === b.length && a.every((x, i) => x === b[i]);
const mpsz = (kinds) => kinds.map(codeOf).join(' ');

/**
 * Check one ended hand as a seat saw it. fairness: the revealed object (algorithm, hand_id,
 * commitment, seed, entropy); before: what came before the deal {commitment, dealer?, mine?,
 * accepted?} or null; seat; suits; dealer; events: the seat's events of the hand (the deal and
 * draws are checked when they start at n = 0).
 * Returns {status: 'verified' | 'mismatch' | 'late' (no commitment before the deal, but the
 * rest holds) | 'unavailable' | 'none', problems: [...], commitment}.
 */
export async function verifyHand({ fairness, before, seat, suits, dealer, events }, subtle = subtleCrypto()) {
  if (!fairness || !fairness.seed) return { status: 'none', problems: [], commitment: null };
  const shown = (before && before.commitment) || fairness.commitment;
  if (!subtle) return { status: 'unavailable', problems: [], commitment: shown };
  const problems = [];
  if (fairness.algorithm !== ALGORITHM) {
    return { status: 'mismatch', problems: [`algorithm ${fairness.algorithm}`], commitment: shown };
  }
  let seed;
  try { seed = fromHex(fairness.seed); } catch (e) { seed = null; }
  if (!seed || seed.length !== 32) {
    return { status: 'mismatch', problems: ['seed: not 32 bytes of hex'], commitment: shown };
  }
  const computed = await commitment(seed, fairness.hand_id, subtle);
  if (computed !== fairness.commitment) problems.push(`commitment: SHA-256 gives ${computed.slice(0, 16)}…, the server says ${String(fairness.commitment).slice(0, 16)}…`);
  if (before && before.commitment && before.commitment !== computed) {
    problems.push(`commitment before the deal was ${before.commitment.slice(0, 16)}…, the seed gives ${computed.slice(0, 16)}…`);
  }
  if (before && before.dealer !== undefined && before.dealer !== null && before.dealer !== dealer) {
    problems.push(`dealer: seat ${before.dealer} was announced, seat ${dealer} dealt`);
  }
  const entropy = Array.isArray(fairness.entropy) ? fairness.entropy : [];
  if (before && before.accepted && before.mine && entropy[seat] !== before.mine) {
    problems.push(`entropy: mine was ${before.mine}, the record has ${JSON.stringify(entropy[seat])}`);
  }
  if (entropy.length !== 3) {
    problems.push('entropy: not three texts');
  } else {
    const wall = await deriveWall(suits, seed, fairness.hand_id, entropy, subtle);
    const { hands, draws } = deal(wall, dealer);
    const evs = events || [];
    if (evs.length && evs[0].n === 0 && evs[0].type === 'deal') {
      const mine = sortedKinds(parseTiles(evs[0].hand));
      const want = [...hands[seat]].sort((a, b) => a - b);
      if (!same(mine, want)) problems.push(`my dealt hand: ${mpsz(mine)}, the seed deals ${mpsz(want)}`);
      let k = 0;
      for (const e of evs) {
        if (e.type !== 'draw') continue;
        if (e.seat === seat && e.tile && kindOf(e.tile) !== draws[k]) {
          problems.push(`draw ${k + 1}: I drew ${e.tile}, the seed gives ${codeOf(draws[k])}`);
        }
        k += 1;
      }
    }
  }
  let status = problems.length ? 'mismatch' : 'verified';
  if (status === 'verified' && !(before && before.commitment)) status = 'late';
  return { status, problems, commitment: shown };
}

/**
 * Check a whole record (GET /api/hands/…): commitment, and every dealt hand and the draw order.
 * Returns {status: 'verified' | 'mismatch' | 'unavailable' | 'none', problems}.
 */
export async function verifyRecord(record, subtle = subtleCrypto()) {
  const f = record && record.fairness;
  if (!f || !f.seed) return { status: 'none', problems: [] };
  if (!subtle) return { status: 'unavailable', problems: [] };
  const problems = [];
  let seed;
  try { seed = fromHex(f.seed); } catch (e) { seed = null; }
  if (f.algorithm !== ALGORITHM || !seed || seed.length !== 32 || !Array.isArray(f.entropy) || f.entropy.length !== 3) {
    return { status: 'mismatch', problems: ['fairness data unusable'] };
  }
  if (await commitment(seed, f.hand_id, subtle) !== f.commitment) problems.push('commitment');
  const suits = (record.rules && record.rules.suits) || ['p', 's'];
  const { hands, draws } = deal(await deriveWall(suits, seed, f.hand_id, f.entropy, subtle), record.dealer);
  hands.forEach((h, s) => {
    if (!same(sortedKinds(parseTiles(record.hands[s])), [...h].sort((a, b) => a - b))) problems.push(`hand ${s}`);
  });
  if (!same(parseTiles(record.draws).map(kindOf), draws)) problems.push('draws');
  return { status: problems.length ? 'mismatch' : 'verified', problems };
}
