// Finding opponents in the lobby (issue 35): 快速开始 (quick match: POST /api/quick seats the
// player in a waiting public room of the chosen rules, or opens one whose open seats bots take
// after the chosen wait) and the public rooms waiting for players (GET /api/rooms), each with a
// join button. Joining goes through the lobby's fair join (the player's entropy for the open
// commitment, docs/fairness.md); nothing here decides who may sit where (the server does).

import { api } from './api.js';
import { el } from './dom.js';
import { t } from './i18n.js';
import { ensurePlayer } from './seating.js';
import { allSeats, saveSeat } from './store.js';
import { toast } from './ui.js';

const WAITS = [['30', 30], ['60', 60], ['120', 120], ['never', null]];  // seconds before bots sit
const REFRESH_MS = 15000;  // the public rooms are asked for again while the lobby is shown

/** What a public room's seat shows: the player's name, a bot's label, or "open". */
export function seatWords(seat) {
  if (seat.kind === 'open') return t('lobby_seat_open');
  if (seat.kind === 'bot') return t('lobby_seat_bot');
  return seat.nickname || '?';
}

/** One line of a public room for the list: rules, hands, who sits, open seats; "rules
 * changed" when options differ from the preset's (the server's ``changed``). */
export function roomLine(room) {
  return t('lobby_room_line', {
    preset: t(`preset_${room.preset}`), hands: room.hands, open: room.open,
    seats: room.seats.filter((s) => s.kind !== 'open').map(seatWords).join(' · '),
  }) + (Object.keys(room.changed || {}).length ? ` ${t('lobby_room_changed')}` : '');
}

/** Join ``code`` with the lobby's fair join, remember the seat and enter the room (at once
 * when this browser has a seat there already: its own waiting table). */
async function sit(code, seat, nick, join, onEnter) {
  if (allSeats()[code]) {
    onEnter(code);
    return { ok: true };
  }
  const info = await api.room(code);
  const r = await join(code, nick, seat, info.ok ? info.data.commit : null);
  if (!r.ok) return r;
  saveSeat(r.data.code || code, r.data.seat, r.data.token, nick);
  onEnter(r.data.code || code);
  return r;
}

/** The quick match card: rules, the wait for bots, a button. ``presetSelect()``: the lobby's
 * preset menu; ``needNick()``: the checked nickname or null; ``join``: the fair join. */
export function quickCard(presetSelect, needNick, join, onEnter) {
  const card = el('section', 'card quick-card');
  card.appendChild(el('h2', null, t('quick_title')));
  card.appendChild(el('p', 'muted', t('quick_help')));
  const form = el('form', 'quick-form');
  const preset = presetSelect();
  preset.name = 'quick_preset';  // (the create form's is 'preset')
  preset.setAttribute('aria-label', t('rules_preset'));
  const wait = el('select', 'quick-wait');
  wait.setAttribute('aria-label', t('quick_wait'));
  for (const [key] of WAITS) {
    const o = el('option', null, t(`quick_wait_${key}`));
    o.value = key;
    wait.appendChild(o);
  }
  wait.value = '60';
  const go = el('button', 'primary', t('quick_go'));
  go.type = 'submit';
  form.append(preset, wait, go);
  form.addEventListener('submit', async (ev) => {
    ev.preventDefault();
    const nick = needNick();
    if (!nick) return;
    go.disabled = true;
    const fillAfter = WAITS.find(([key]) => key === wait.value)[1];
    let r = null;
    const who = await ensurePlayer(nick);  // (a name the server refuses opens no room)
    for (let attempt = 0; attempt < 3 && !who.error; attempt += 1) {  // again when a room filled meanwhile
      const found = await api.quick(preset.value, fillAfter, nick, who.player.token);
      if (!found.ok) { r = found; break; }
      r = await sit(found.data.code, found.data.created ? 0 : undefined, nick, join, onEnter);
      if (r.ok || found.data.created) break;
    }
    go.disabled = false;
    if (who.error) toast(t('join_failed', { message: who.error }), 'error');
    else if (!r.ok) toast(t('join_failed', { message: r.error }), 'error');
  });
  card.appendChild(form);
  return card;
}

/** The public rooms card, asked for again every REFRESH_MS while it is in the page. */
export function publicRoomsCard(needNick, join, onEnter) {
  const card = el('section', 'card public-card');
  card.appendChild(el('h2', null, t('public_title')));
  const list = el('ul', 'public-list');
  const empty = el('p', 'muted', t('loading'));
  card.append(empty, list);
  async function refresh() {
    if (!card.isConnected && card.dataset.drawn) return;  // the lobby is gone: stop
    card.dataset.drawn = '1';
    const r = await api.publicRooms();
    if (!r.ok) { empty.textContent = t('load_failed', { message: r.error }); return; }
    list.replaceChildren();
    empty.textContent = r.data.rooms.length ? '' : t('public_none');
    for (const room of r.data.rooms) {
      const li = el('li', 'public-room');
      li.appendChild(el('span', 'code mono', room.code));
      li.appendChild(el('span', 'line', roomLine(room)));
      const b = el('button', null, t('join'));
      b.type = 'button';
      b.addEventListener('click', async () => {
        const nick = needNick();
        if (!nick) return;
        b.disabled = true;
        const got = await sit(room.code, undefined, nick, join, onEnter);
        b.disabled = false;
        if (!got.ok) { toast(t('join_failed', { message: got.error }), 'error'); refresh(); }
      });
      li.appendChild(b);
      list.appendChild(li);
    }
    setTimeout(refresh, REFRESH_MS);
  }
  refresh();
  return card;
}
