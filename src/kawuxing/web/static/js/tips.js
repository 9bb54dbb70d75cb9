// First-hand tips (issue 12): on a player's first hands, a short strip above the hand says how
// to do what the moment offers — discard, 碰/杠/胡 on a discard, 亮倒, the hint button — one tip
// at a time. "Got it" puts one tip away, "No more tips" all of them; both are remembered in
// localStorage ('kwx.tips': {hands: [hands seen, at most FIRST_HANDS], done: [tip ids], off}).
// What is legal comes from the view (table.js actionGroups): this file decides no rule.

import { el } from './dom.js';
import { hasText, t } from './i18n.js';
import { actionGroups } from './actionbar.js';

const KEY = 'kwx.tips';
/** Tips show during this many of a player's first hands (in this browser). */
export const FIRST_HANDS = 3;
/** The tips, most urgent first: a claim window closes, a 亮倒 is a choice of the turn. */
export const TIPS = ['claim', 'declare', 'discard', 'hint'];

/** What is kept: ``{hands: [ids], done: [tip ids], off: bool}`` (defaults when unreadable). */
export function tipsState() {
  let v = null;
  try { v = JSON.parse(localStorage.getItem(KEY)); } catch (e) { v = null; }
  if (!v || typeof v !== 'object') v = {};
  return { hands: Array.isArray(v.hands) ? v.hands : [], done: Array.isArray(v.done) ? v.done : [], off: v.off === true };
}

function save(s) {
  try { localStorage.setItem(KEY, JSON.stringify(s)); } catch (e) { /* private mode: tips again next time */ }
}

/** A hand dealt to this player (``id``: room code and hand number): counted once, while it is
 * among the first FIRST_HANDS. Returns whether tips may show in it. */
export function countHand(id) {
  const s = tipsState();
  if (!s.hands.includes(id) && s.hands.length < FIRST_HANDS) {
    s.hands.push(id);
    save(s);
  }
  return !s.off && s.hands.includes(id);
}

/** The tip for ``view`` in hand ``id`` (one of TIPS), or null: none put away yet that fits
 * what the view lets me do; ``hintable``: the room offers the hint button now. */
export function tipFor(view, id, hintable) {
  const s = tipsState();
  if (s.off || !s.hands.includes(id) || !view || !(view.legal || []).length) return null;
  const g = actionGroups(view);
  const fits = {
    claim: Boolean(g.pass && (g.win || g.pung || g.kong.length)),
    declare: g.declare,
    discard: g.discards.size > 0,
    hint: g.discards.size > 0 && hintable,
  };
  return TIPS.find((k) => fits[k] && !s.done.includes(k)) || null;
}

/** Put tip ``id`` away for good. */
export function tipDone(id) {
  const s = tipsState();
  if (!s.done.includes(id)) s.done.push(id);
  save(s);
}

/** No more tips in this browser. */
export function tipsOff() {
  save({ ...tipsState(), off: true });
}

/** The strip of tip ``id``; ``onChange()`` is called after a button put it (or all) away.
 * ``touch``: the player touches the screen (its own words where the tip has them). */
export function tipEl(id, onChange, touch = false) {
  const box = el('div', 'tip-strip');
  box.dataset.key = `tip-${id}`;
  box.dataset.tip = id;
  box.setAttribute('role', 'note');
  box.appendChild(el('span', 'tip-label', t('tip_title')));
  box.appendChild(el('span', 'tip-text', t(touch && hasText(`tip_${id}_touch`) ? `tip_${id}_touch` : `tip_${id}`)));
  const ok = el('button', 'tip-ok', t('tip_ok'));
  ok.type = 'button';
  ok.onclick = () => { tipDone(id); onChange(); };
  const off = el('button', 'tip-off', t('tip_off'));
  off.type = 'button';
  off.onclick = () => { tipsOff(); onChange(); };
  box.append(ok, off);
  return box;
}
