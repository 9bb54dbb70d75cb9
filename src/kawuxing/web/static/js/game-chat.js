// Quick phrases and emotes at the table (Game, game.js; chat.js draws them): a bubble over the
// seat that said it, the panel to say one, muted players kept quiet.

import { bubblesEl, BUBBLE_MS, chatPanel, isMuted, sayText, toggleMute } from './chat.js';
import { el } from './dom.js';
import { lang, t } from './i18n.js';
import { playerLabel, position } from './seats.js';
import { toast } from './ui.js';

/** Methods of :class:`Game` (game.js), mixed into it. */
export const chatMethods = {
  /** A seat said something: shown over it for a while, unless I muted that player. */
  onChat(msg) {
    const players = this.s.players || [];
    if (isMuted(players[msg.seat])) return;
    const said = { say: msg.say, at: Date.now() };
    this.chats[msg.seat] = said;
    this.paintChat();
    const live = this.root.querySelector('.table-screen > .announcer');  // read out, as a discard is
    if (live) {
      live.appendChild(el('p', null, t('chat_said', { who: playerLabel(this.s.players, msg.seat), text: sayText(msg.say) })));
      while (live.children.length > 6) live.firstChild.remove();
    }
    setTimeout(() => { if (this.chats[msg.seat] === said) { delete this.chats[msg.seat]; this.paintChat(); } }, BUBBLE_MS + 50);
  },

  say(id) {
    if (!this.conn.send({ type: 'chat', say: id })) { toast(t('not_connected'), 'error'); return; }
    this.chatOpen = false;
    this.paintChat();
  },

  /** The chat button, its panel when open and the bubbles, over the table (not in the board). */
  paintChat() {
    const wrap = this.root.querySelector(':scope > .table-screen');
    if (!wrap || this.destroyed) return;
    wrap.querySelector(':scope > .chat-layer')?.remove();
    const nameOf = (seat) => playerLabel(this.s.players, seat);
    wrap.appendChild(bubblesEl(this.chats, (seat) => position(seat, this.seat), nameOf, Date.now()));
    // the dock is drawn anew only when what it shows changed (the focus stays in the panel)
    const players = this.s.players || [];
    const key = JSON.stringify([this.chatOpen, lang(), players.map((p, i) => [nameOf(i), p.kind, isMuted(p)])]);
    const old = wrap.querySelector(':scope > .chat-dock');
    if (old && old.dataset.key === key) { this.placeChat(); return; }
    old?.remove();
    const dock = el('div', 'chat-dock');
    dock.dataset.key = key;
    const btn = el('button', 'chat-btn' + (this.chatOpen ? ' on' : ''), t('chat'));
    btn.type = 'button';
    btn.setAttribute('aria-expanded', String(this.chatOpen));
    btn.addEventListener('click', () => { this.chatOpen = !this.chatOpen; this.paintChat(); if (this.chatOpen) wrap.querySelector('.chat-panel button')?.focus(); });
    dock.appendChild(btn);
    if (this.chatOpen) {
      dock.appendChild(chatPanel({
        players: this.s.players, me: this.seat, nameOf, onSay: (id) => this.say(id),
        onMute: (seat) => { toggleMute((this.s.players || [])[seat]); delete this.chats[seat]; this.paintChat(); },
      }));
    }
    wrap.appendChild(dock);
    this.placeChat();
  },

  /** Put the chat dock over its room in my plate's row (.chat-spot, table.js): the panel opens
   * above the button (below it when the window has more room there, under the top bar),
   * towards the middle of the page, no taller than that room. */
  placeChat() {
    const wrap = this.root.querySelector(':scope > .table-screen');
    const dock = wrap && wrap.querySelector(':scope > .chat-dock');
    const spot = wrap && wrap.querySelector('.seat.me > .chat-spot');
    if (!dock) return;
    if (!spot || !spot.offsetParent) { dock.hidden = true; return; }
    dock.hidden = false;
    const w = wrap.getBoundingClientRect();
    const r = spot.getBoundingClientRect();
    const toLeft = r.left + r.width / 2 > window.innerWidth / 2;
    dock.classList.toggle('to-left', toLeft);
    const bar = document.querySelector('.topbar');
    const above = r.top - (bar ? bar.getBoundingClientRect().bottom : 0);
    const below = window.innerHeight - r.bottom;
    const up = above >= Math.min(320, below);
    dock.classList.toggle('opens-down', !up);
    dock.style.bottom = up ? `${w.bottom - r.bottom}px` : '';
    dock.style.top = up ? '' : `${r.top - w.top}px`;
    dock.style.left = toLeft ? '' : `${r.left - w.left}px`;
    dock.style.right = toLeft ? `${w.right - r.right}px` : '';
    dock.style.setProperty('--spot-w', `${r.width}px`);
    dock.style.setProperty('--room', `${Math.max(160, (up ? above : below) - 8)}px`);
  },
};
