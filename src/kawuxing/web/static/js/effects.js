// The table's claim and win effects (issue 35): each event said aloud with its call-out, the
// claimed tile flying from the discarder's
// river to the claimer's new meld, and the 胡 / 自摸 banner over the board with the winner and
// the hand's patterns (from the ended view's result: the client derives nothing), the winning
// tile marked in the winner's hand (the one its win event names). Nothing
// moves under prefers-reduced-motion (the banner still shows, without its entrance).

import { playCallout, playClick, playTile } from './audio.js';
import { el } from './dom.js';
import { t } from './i18n.js';
import { playerName } from './seats.js';

const FLY_MS = 420;
/** The win banner's life on the board (a table's settlement covers it from 1.8 s). */
export const BANNER_MS = 2800;
const CALLOUT = { pung: 'call_pung', kong: 'call_kong', declare: 'call_declare', win: 'call_win', adding_kong: 'call_adding_kong' };

/** Say a fresh event aloud (audio.js): a discard clicks, then its tile's name; a claim or a
 * win its call-out. Returns the call-out's text key to show over the seat (碰！ 自摸！ …), or
 * null for an event that has none. */
export function sayEvent(e) {
  if (e.type === 'discard') {  // a click, then the tile's name (the apps say every discard)
    playClick();
    setTimeout(() => playTile(e.tile), 90);
  }
  const selfDraw = e.type === 'win' && e.by === 'self_draw';
  const key = selfDraw ? 'call_self_draw' : CALLOUT[e.type];
  if (!key || e.seat === undefined) return null;
  playCallout(selfDraw ? 'self_draw' : e.type);
  return key;
}

/** Whether the player asked the system for less motion. */
export function reducedMotion() {
  return typeof matchMedia === 'function' && matchMedia('(prefers-reduced-motion: reduce)').matches;
}

/** The claims among ``events`` whose tile came from a discard: ``[{from, seat}]`` for each
 * pung and exposed kong (the event's ``from``, docs/protocol.md events). */
export function claimsOf(events) {
  return (events || []).filter((e) => (e.type === 'pung' || (e.type === 'kong' && e.from !== undefined && e.from !== null)))
    .map((e) => ({ from: e.from, seat: e.seat }));
}

/** Fly each claimed tile from the discarder's river (its last discard, the tile taken) to the
 * claimer's newest meld, in ``board`` as drawn now (Web Animations: the meld starts where the
 * tile lay and settles in place). */
export function flyClaims(board, events) {
  if (!board || reducedMotion()) return;
  for (const c of claimsOf(events)) {
    const tile = board.querySelector(`.river[data-seat="${c.from}"] .tile:last-child`);
    const meld = board.querySelector(`.seat[data-seat="${c.seat}"] .melds .meld:last-child`);
    if (!tile || !meld || typeof meld.animate !== 'function') continue;
    const a = tile.getBoundingClientRect();
    const b = meld.getBoundingClientRect();
    if (!b.width || !a.width) continue;
    const dx = a.left + a.width / 2 - (b.left + b.width / 2);
    const dy = a.top + a.height / 2 - (b.top + b.height / 2);
    meld.animate([
      { transform: `translate(${dx}px, ${dy}px) scale(${Math.min(1, (a.width * 1.4) / b.width)})`, opacity: 0.6 },
      { transform: 'none', opacity: 1 },
    ], { duration: FLY_MS, easing: 'cubic-bezier(.2,.7,.3,1)' });
  }
}

/** The win banner of ``banner`` ({id, seats, selfDraw}) over the table of ``view`` (its
 * ``result`` names each winner's patterns and multiplier once the hand is over). */
export function winBannerEl(banner, view, players) {
  const box = el('div', 'win-banner' + (banner.selfDraw ? ' self-draw' : ''));
  box.dataset.key = `banner-${banner.id}`;
  box.setAttribute('aria-hidden', 'true');  // the live region says the win in words
  box.appendChild(el('div', 'big', banner.selfDraw ? t('banner_self_draw') : t('banner_win')));
  const values = (view.result && view.result.values) || {};
  for (const seat of banner.seats) {
    const line = el('div', 'who');
    line.dataset.seat = seat;
    line.appendChild(el('span', 'name', playerName(players, seat)));
    const value = values[String(seat)];
    if (value) {
      const names = value.patterns.map((p) => p.name).join(' · ');
      line.appendChild(el('span', 'patterns', names));
      line.appendChild(el('span', 'mult', `×${value.multiplier}`));
    }
    box.appendChild(line);
  }
  return box;
}

/** Where the winning tile of ``seat`` is among the ``codes`` shown of its hand (the last copy),
 * or -1: the tile the server's win event names (model.winTiles, {seat: code}), never a guess. */
export function winIndex(model, seat, codes) {
  const tile = model.winTiles && model.view.phase === 'ended' ? model.winTiles[seat] : null;
  return tile ? codes.lastIndexOf(tile) : -1;
}

/** The winning tile of each winner of a hand, from its ``win`` events ({seat: event}, as
 * GameState.settlement keeps them): {seat: code}. */
export function winTilesOf(winEvents) {
  const out = {};
  for (const [seat, e] of Object.entries(winEvents || {})) if (e && e.tile) out[seat] = e.tile;
  return out;
}
