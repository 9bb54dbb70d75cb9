// 再来一场 (issue 35): at the end of a match any player asks for the next one (POST
// /api/rooms/{code}/rematch: one new room, the same rules and bots, every player's seat kept
// open for them) and takes their seat there with the lobby's fair join (their entropy for the
// open commitment, docs/fairness.md); the others are told (`rematch`) and do the same.

import { api } from './api.js';
import { joinFair } from './seating.js';
import { saveSeat } from './store.js';

/** Ask for (or find) the rematch of room ``code`` as the seat of ``token`` and sit down there
 * as ``nickname``; resolves to {ok, code} or {ok: false, error}. */
export async function playAgain(code, token, nickname) {
  const asked = await api.rematch(code, token);
  if (!asked.ok) return asked;
  const next = asked.data.code;
  const info = await api.room(next);
  const r = await joinFair(next, nickname, asked.data.seat, info.ok ? info.data.commit : null);
  if (!r.ok) return r;
  saveSeat(next, r.data.seat, r.data.token, nickname);
  return { ok: true, code: next };
}
