// Quick phrases (快捷语) and emotes between the players (issue 12). The server relays only ids
// of this fixed list (src/kawuxing/server/chat.py SAYINGS: the same ids, same order), never text;
// the page words them (i18n say_<id>) and draws the emotes (small SVG faces, no emoji font
// needed). A player muted here (per player, remembered in localStorage) is not shown.

import { el } from './dom.js';
import { t } from './i18n.js';
import { getMuted, setMuted } from './store.js';

export const PHRASES = ['hello', 'hurry', 'nice', 'thanks', 'oops', 'again', 'well_played', 'bye'];
export const EMOTES = ['smile', 'laugh', 'cry', 'angry', 'shock', 'thumbs'];
export const BUBBLE_MS = 4000;  // how long a phrase stays over its seat

const FACE = '<circle cx="16" cy="16" r="14" fill="#f7c948" stroke="#8a5a00" stroke-width="1.5"/>';
const EYES = '<circle cx="11" cy="13" r="1.8" fill="#3b2a00"/><circle cx="21" cy="13" r="1.8" fill="#3b2a00"/>';
const ART = {
  smile: FACE + EYES + '<path d="M10 19 Q16 25 22 19" fill="none" stroke="#3b2a00" stroke-width="2" stroke-linecap="round"/>',
  laugh: FACE + '<path d="M8 13 l3-2 3 2M18 13 l3-2 3 2" fill="none" stroke="#3b2a00" stroke-width="1.8" stroke-linecap="round"/><path d="M9 18 H23 Q16 29 9 18Z" fill="#7a1f1f"/>',
  cry: FACE + EYES + '<path d="M11 23 Q16 18 21 23" fill="none" stroke="#3b2a00" stroke-width="2" stroke-linecap="round"/><path d="M9 16 q-2 5 0 7 q2-2 0-7Z" fill="#3fa9f5"/>',
  angry: '<circle cx="16" cy="16" r="14" fill="#f08a5d" stroke="#8a2b00" stroke-width="1.5"/>' + EYES + '<path d="M8 9 l6 3M24 9 l-6 3" stroke="#3b2a00" stroke-width="2" stroke-linecap="round"/><path d="M11 23 Q16 19 21 23" fill="none" stroke="#3b2a00" stroke-width="2" stroke-linecap="round"/>',
  shock: FACE + '<circle cx="11" cy="12" r="2.5" fill="#fff" stroke="#3b2a00"/><circle cx="21" cy="12" r="2.5" fill="#fff" stroke="#3b2a00"/><ellipse cx="16" cy="22" rx="3" ry="4" fill="#3b2a00"/>',
  thumbs: '<circle cx="16" cy="16" r="14" fill="#d9f2e3" stroke="#1f7a4d" stroke-width="1.5"/><path d="M9 15 h4 v9 h-4z M13 15 l4-7 q2 0 2 3 l-1 3 h5 q2 0 1.6 2 l-1.4 6 q-.4 2-2.4 2 H13z" fill="#1f7a4d"/>',
};

/** True when ``id`` is an emote (drawn), false for a phrase (worded). */
export function isEmote(id) { return EMOTES.includes(id); }

/** The words of a saying (a phrase's text, an emote's name). */
export function sayText(id) { return t('say_' + id); }

/** An emote as an SVG image with its name. */
export function emoteEl(id, cls = 'emote') {
  const box = el('span', cls);
  box.setAttribute('role', 'img');
  box.setAttribute('aria-label', sayText(id));
  box.innerHTML = `<svg viewBox="0 0 32 32" aria-hidden="true">${ART[id] || FACE}</svg>`;
  return box;
}

/** The key a mute is remembered by: the player's id if the seat has one, else its nickname. */
export function muteKey(player) {
  if (!player) return null;
  if (player.player_id) return `id:${player.player_id}`;
  return player.nickname ? `nick:${player.nickname}` : null;
}

export function isMuted(player) {
  const key = muteKey(player);
  return Boolean(key) && getMuted().includes(key);
}

export function toggleMute(player) {
  const key = muteKey(player);
  if (!key) return;
  const now = getMuted();
  setMuted(now.includes(key) ? now.filter((k) => k !== key) : [...now, key]);
}

/**
 * The chat panel: the phrases, the emotes (each a button: onSay(id)) and, for each other player
 * (players: the seats' public dicts; me: my seat), a mute toggle (onMute(seat)); nameOf(seat)
 * names a seat.
 */
export function chatPanel({ players, me, onSay, onMute, nameOf }) {
  const panel = el('div', 'chat-panel');
  panel.setAttribute('role', 'dialog');
  panel.setAttribute('aria-label', t('chat_title'));
  panel.tabIndex = -1;
  panel.appendChild(el('h3', null, t('chat_phrases')));
  const phrases = el('div', 'phrases');
  for (const id of PHRASES) {
    const b = el('button', 'phrase', sayText(id));
    b.type = 'button';
    b.dataset.say = id;
    b.addEventListener('click', () => onSay(id));
    phrases.appendChild(b);
  }
  panel.appendChild(phrases);
  panel.appendChild(el('h3', null, t('chat_emotes')));
  const emotes = el('div', 'emotes');
  for (const id of EMOTES) {
    const b = el('button', 'emote-btn');
    b.type = 'button';
    b.dataset.say = id;
    b.title = sayText(id);
    b.setAttribute('aria-label', sayText(id));
    b.appendChild(emoteEl(id));
    b.addEventListener('click', () => onSay(id));
    emotes.appendChild(b);
  }
  panel.appendChild(emotes);
  const others = (players || []).map((p, i) => [p, i]).filter(([p, i]) => i !== me && p && p.kind === 'human');
  if (others.length) {
    panel.appendChild(el('h3', null, t('chat_mute_head')));
    const mutes = el('div', 'mutes');
    for (const [p, i] of others) {
      const muted = isMuted(p);
      const b = el('button', 'mute' + (muted ? ' on' : ''), t(muted ? 'chat_unmute' : 'chat_mute', { name: nameOf(i) }));
      b.type = 'button';
      b.dataset.seat = i;
      b.setAttribute('aria-pressed', String(muted));
      b.addEventListener('click', () => onMute(i));
      mutes.appendChild(b);
    }
    panel.appendChild(mutes);
  }
  return panel;
}

/**
 * The layer of speech bubbles over the table: bubbles {seat: {say, at}} (at: ms received),
 * where(seat) the seat's place ('me', 'left', 'right'), nameOf(seat) for the words read out.
 * Bubbles older than BUBBLE_MS are left out.
 */
export function bubblesEl(bubbles, where, nameOf, now) {
  const layer = el('div', 'chat-layer');
  for (const [seat, b] of Object.entries(bubbles)) {
    if (now - b.at > BUBBLE_MS) continue;
    const bubble = el('div', `chat-bubble at-${where(Number(seat))}` + (isEmote(b.say) ? ' is-emote' : ''));
    bubble.dataset.seat = seat;
    bubble.dataset.say = b.say;
    if (isEmote(b.say)) bubble.appendChild(emoteEl(b.say, 'emote big'));
    else bubble.appendChild(el('span', 'words', sayText(b.say)));
    bubble.title = t('chat_said', { who: nameOf(Number(seat)), text: sayText(b.say) });
    layer.appendChild(bubble);
  }
  return layer;
}
