// Taking a seat as this browser's player: the identity made on the first game (issue 16), my
// entropy for the deal a join may start (docs/fairness.md), and a room made and sat in. Used by
// the lobby, quick match, 再来一场 and the profile's invite.

import { api } from './api.js';
import { newEntropy } from './fairness.js';
import { getPlayer, saveFair, savePlayer, saveSeat } from './store.js';

/**
 * This browser's player, made now from ``nickname`` if there is none yet (a guest: POST
 * /api/players). Resolves to {player} ({player_id, name, token}) or {error} (the server's
 * explanation, e.g. the name is taken).
 */
export async function ensurePlayer(nickname) {
  const mine = getPlayer();
  if (mine) return { player: mine };
  const r = await api.newPlayer(nickname);
  if (!r.ok) return { error: r.error, code: r.data && r.data.detail && r.data.detail.code };
  savePlayer(r.data);
  return { player: r.data };
}

/**
 * Join a seat as this browser's player (made now from ``nickname`` on the first game, issue
 * 16) with my entropy for the room's open commitment (``commit`` of the room state): the join
 * may deal the first hand, so the entropy goes with it (docs/fairness.md). The commitment and
 * my entropy are kept for the check at the end of the hand.
 */
export async function joinFair(code, nickname, seat, commit) {
  const who = await ensurePlayer(nickname);
  if (who.error) return { ok: false, status: 409, data: null, error: who.error };
  const player = who.player.token;
  if (!commit) return api.join(code, nickname, seat, {}, player);
  const mine = newEntropy();
  const r = await api.join(code, nickname, seat, { entropy: mine, commitment: commit.commitment }, player);
  if (r.ok) {
    saveFair(r.data.code || code, commit.hand, {
      commitment: commit.commitment, hand_id: commit.hand_id, dealer: commit.dealer, mine,
      accepted: Boolean(r.data.entropy),
    });
  }
  return r;
}

/** Make a room of ``body`` (POST /api/rooms) and take its seat 0 as ``nickname`` (joinFair);
 * the seat is kept in the browser. Returns the join's answer ({ok, data: {code, seat,
 * token}, error}). */
export async function openRoom(body, nickname) {
  const made = await api.createRoom(body);
  const r = made.ok ? await joinFair(made.data.code, nickname, 0, made.data.room.commit) : made;
  if (r.ok) saveSeat(r.data.code, r.data.seat, r.data.token, nickname);
  return r;
}
