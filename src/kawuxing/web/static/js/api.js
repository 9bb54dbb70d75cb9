// The server's HTTP API (src/kawuxing/server/api.py): JSON in, JSON out. Every call resolves to
// {ok, status, data, error}: ``error`` is the server's explanation as text in the page's
// language: the translation of its ``detail.code`` (i18n key err_<code>), with what was wrong
// (bad rules, seats, a nickname) added: in an English page the server's own words, in a
// Chinese page only the field the server's ``errors`` name (its ``loc``), in the page's words —
// never the server's English.

import { hasText, lang, t } from './i18n.js';

// codes whose message says which part of the input was wrong: shown after the translation
const WITH_DETAIL = new Set(['bad_rules', 'bad_seats', 'bad_walls', 'invalid', 'bad_time',
  'bad_entropy']);

/** The field the first of the server's ``errors`` names (its ``loc``, e.g. ["body",
 * "options", "cap"]) in the page's words: a rule option by its name (optname_<option>),
 * another field by field_<name>; null when the page has no words for it. */
function fieldName(detail) {
  const first = Array.isArray(detail.errors) ? detail.errors[0] : null;
  const loc = first && Array.isArray(first.loc) ? first.loc.map(String) : [];
  for (let i = loc.length - 1; i >= 1; i -= 1) {
    if (loc[i - 1] === 'options' && hasText(`optname_${loc[i]}`)) return t(`optname_${loc[i]}`);
    if (hasText(`field_${loc[i]}`)) return t(`field_${loc[i]}`);
  }
  return null;
}

/** The text of a failed call (exported for tests). */
export function explain(status, data) {
  const english = lang() === 'en';  // the server's words are English: shown in an English page only
  const detail = data && data.detail;
  if (detail && typeof detail.code === 'string' && hasText(`err_${detail.code}`)) {
    const text = t(`err_${detail.code}`);
    if (!WITH_DETAIL.has(detail.code)) return text;
    const what = english && typeof detail.message === 'string' ? detail.message : fieldName(detail);
    return what ? t('err_with_detail', { text, detail: what }) : text;
  }
  if (!english) return t('err_http', { status });
  if (typeof detail === 'string') return detail;
  if (detail && typeof detail.message === 'string') return detail.message;
  if (Array.isArray(detail)) {
    return detail.map((d) => `${(d.loc || []).slice(1).join('.')}: ${d.msg}`).join('; ');
  }
  return t('err_http', { status });
}

async function call(method, path, body, token) {
  const headers = { Accept: 'application/json' };
  if (body !== undefined) headers['Content-Type'] = 'application/json';
  if (token) headers.Authorization = `Bearer ${token}`;
  let response;
  try {
    response = await fetch(path, {
      method, headers, body: body === undefined ? undefined : JSON.stringify(body),
    });
  } catch (e) {
    return { ok: false, status: 0, data: null, error: t('err_network') };
  }
  let data = null;
  try { data = await response.json(); } catch (e) { data = null; }
  return {
    ok: response.ok, status: response.status, data,
    error: response.ok ? null : explain(response.status, data),
  };
}

export const api = {
  createRoom: (body) => call('POST', '/api/rooms', body),
  // the public rooms waiting for players; quick match (issue 35)
  publicRooms: () => call('GET', '/api/rooms'),
  rematch: (code, token) => call('POST', `/api/rooms/${encodeURIComponent(code)}/rematch`, undefined, token),
  // the name is checked before any room is looked for (player: my player token, issue 16)
  quick: (preset, fillAfter, nickname, player = null) => call('POST', '/api/quick',
    { preset, fill_after: fillAfter, nickname }, player),
  room: (code) => call('GET', `/api/rooms/${encodeURIComponent(code)}`),
  // extra: {entropy, commitment}: my entropy for the hand of that commitment (docs/fairness.md);
  // player: my player token (issue 16): the seat records me, under my player's name
  join: (code, nickname, seat, extra = {}, player = null) => call('POST', `/api/rooms/${encodeURIComponent(code)}/join`,
    seat === undefined || seat === null ? { nickname, ...extra } : { nickname, seat, ...extra }, player),
  leave: (code, token) => call('POST', `/api/rooms/${encodeURIComponent(code)}/leave`, undefined, token),
  // before the start: fill an open seat with ``bot`` (a spec; null: the server's suggestion);
  // during the match: hand a disconnected player's seat to 托管
  seatToBot: (code, seat, token, bot = null) => call('POST', `/api/rooms/${encodeURIComponent(code)}/seats/${seat}/bot`,
    bot ? { bot } : {}, token),
  hands: (limit = 50, match) => call('GET', `/api/hands?limit=${limit}${match ? `&match=${encodeURIComponent(match)}` : ''}`),
  // the whole record of an ended hand: for the match's players only (token: the player's, R13)
  hand: (match, number, token = null) => call('GET', `/api/hands/${encodeURIComponent(match)}/${number}`, undefined, token),
  // every step of an ended hand as the engine draws it: perspective 0-2, 'table' or 'public'
  // (null: the server's choice, the table for a player of the match, else public)
  // the AI review (复盘) of a seat's decisions in an ended hand: the match's players only
  review: (match, number, seat, token) => call('GET', `/api/hands/${encodeURIComponent(match)}/${number}/review?seat=${seat}`, undefined, token),
  frames: (match, number, perspective = null, token = null) => call('GET', `/api/hands/${encodeURIComponent(match)}/${number}/frames${perspective === null ? '' : `?perspective=${perspective}`}`, undefined, token),
  matches: (limit = 50) => call('GET', `/api/matches?limit=${limit}`),
  match: (id) => call('GET', `/api/matches/${encodeURIComponent(id)}`),
  // the rule options and presets, and the bot registry: forms are built from them
  rules: () => call('GET', '/api/rules'),
  tutorial: () => call('GET', '/api/tutorial'),
  // a room's patterns, each with an example hand the server scored under the room's rules
  rulePatterns: (rules) => call('POST', '/api/rules/patterns', { rules }),
  bots: () => call('GET', '/api/bots'),
  health: () => call('GET', '/api/health'),
  // players (issue 16, docs/ratings.md): a guest identity, sign-in, profiles, the leaderboard
  newPlayer: (name) => call('POST', '/api/players', { name }),
  login: (name, password) => call('POST', '/api/players/login', { name, password }),
  me: (token) => call('GET', '/api/players/me', undefined, token),
  setPassword: (token, password, oldPassword) => call('POST', '/api/players/me/password',
    oldPassword === undefined ? { password } : { password, old_password: oldPassword }, token),
  player: (id) => call('GET', `/api/players/${encodeURIComponent(id)}`),
  leaderboard: (limit = 100) => call('GET', `/api/leaderboard?limit=${limit}`),
  botBoards: (minHands = 20) => call('GET', `/api/leaderboard/bots?min_hands=${minHands}`),
};
