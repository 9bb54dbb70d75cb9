// A room before its match and the seat's controls (Game, game.js): the waiting room (the link
// to share, the seats, a bot for an open seat), handing a dropped player's seat to a bot,
// leaving, 托管 and the rules page.

import { api } from './api.js';
import { el } from './dom.js';
import { t } from './i18n.js';
import { openRoomRules } from './rulespage.js';
import { forgetSeat } from './store.js';
import { avatarEl, connects, playerLabel } from './seats.js';
import { copyText, toast } from './ui.js';

/** Methods of :class:`Game` (game.js), mixed into it. */
export const waitingMethods = {
  renderWaiting() {
    const box = el('div', 'screen waiting');
    box.appendChild(el('h2', null, t('waiting_title')));
    const link = `${location.origin}${location.pathname}#/join/${this.code}`;
    const share = el('div', 'share');
    share.appendChild(el('span', 'label', t('room_code')));
    share.appendChild(el('strong', 'code', this.code));
    const input = el('input', 'link');
    input.readOnly = true;
    input.value = link;
    input.setAttribute('aria-label', t('share_link'));
    share.appendChild(input);
    const copy = el('button', null, t('copy_link'));
    copy.type = 'button';
    copy.addEventListener('click', () => copyText(link, input));
    share.appendChild(copy);
    box.appendChild(share);
    if (!this.bots) this.loadBots();
    const seats = el('ol', 'seat-list');
    const open = [];
    (this.s.players || []).forEach((p, i) => {
      const li = el('li', p.kind === 'open' ? 'open' : '');
      li.dataset.seat = i;
      li.appendChild(avatarEl(this.s.players, i));
      const openLabel = p.kept ? t('seat_open_kept') : t('seat_open');  // 再来一场: kept for its player
      li.appendChild(el('span', 'sname', p.kind === 'open' ? openLabel : playerLabel(this.s.players, i)));
      if (i === this.seat) li.appendChild(el('span', 'badge', t('you')));
      if (connects(p)) li.appendChild(el('span', 'dot ' + (p.connected ? 'on' : p.arriving ? 'wait' : 'off')));
      if (p.kind === 'open') {
        open.push(i);
        li.appendChild(this.fillControls(i));
      }
      seats.appendChild(li);
    });
    box.appendChild(seats);
    box.appendChild(el('p', 'muted', t('waiting_hint')));
    const settings = this.s.settings || {};  // public, and the wait before bots (issue 35)
    if (settings.public) box.appendChild(el('p', 'muted waiting-public', t('waiting_public')));
    if (settings.fill_after !== null && settings.fill_after !== undefined) {
      box.appendChild(el('p', 'muted waiting-fill', t('waiting_fill', { n: Math.round(settings.fill_after) })));
    }
    if (this.s.rules) {
      const rules = el('button', 'rules-btn', t('rules_btn'));
      rules.type = 'button';
      rules.title = t('rules_btn_title');
      rules.addEventListener('click', () => this.showRules());
      box.appendChild(rules);
    }
    if (open.length) {
      const now = el('button', 'primary start-now', t('start_now'));
      now.type = 'button';
      now.addEventListener('click', async () => {
        for (const seat of open) {  // each open seat with the bot chosen in its menu
          const pick = box.querySelector(`.seat-list li[data-seat="${seat}"] select.fill-bot`);
          if (!(await this.fillSeat(seat, pick ? pick.value || null : null))) return;
        }
      });
      box.appendChild(now);
    }
    const leave = el('button', 'danger', t('leave'));
    leave.type = 'button';
    leave.addEventListener('click', () => this.leave());
    box.appendChild(leave);
    this.root.replaceChildren(box);
  },

  /** The bot choices of the server (GET /api/bots), loaded once for the waiting room. */
  async loadBots() {
    this.bots = { choices: [], suggested: null };
    const r = await api.bots();
    if (r.ok) this.bots = { choices: r.data.choices, suggested: r.data.suggested };
    if (!this.view) this.render();  // still waiting: the choices appear
  },

  /** An open seat's bot choice and its "fill with a bot" button. */
  fillControls(seat) {
    const wrap = el('span', 'fill-seat');
    const pick = el('select', 'fill-bot');
    pick.setAttribute('aria-label', t('seat_fill_pick', { n: seat + 1 }));
    for (const c of this.bots ? this.bots.choices : []) {
      const o = el('option', null, t(c.label));
      o.value = c.spec;
      if (c.spec === this.bots.suggested) o.selected = true;
      pick.appendChild(o);
    }
    const go = el('button', 'fill', t('seat_fill_bot'));
    go.type = 'button';
    go.addEventListener('click', () => this.fillSeat(seat, pick.value || null));
    wrap.append(pick, go);
    return wrap;
  },

  /** Fill open ``seat`` with ``bot`` (null: the server's suggestion); false if refused. */
  async fillSeat(seat, bot) {
    const r = await api.seatToBot(this.code, seat, this.token, bot);
    if (!r.ok) toast(t('seat_fill_failed', { message: r.error }), 'error');
    return r.ok;
  },

  /** Hand a dropped player's seat to 托管 now (the server does it after its grace anyway). */
  async handToBot(seat) {
    const r = await api.seatToBot(this.code, seat, this.token);
    toast(r.ok ? t('hand_to_bot_done', { name: playerLabel(this.s.players, seat) })
      : t('seat_fill_failed', { message: r.error }), r.ok ? '' : 'error');
  },

  async leave() {
    if (!window.confirm(t('leave_confirm'))) return;
    const r = await api.leave(this.code, this.token);
    if (!r.ok && r.status !== 403) {
      toast(t('leave_failed', { message: r.error }), 'error');
      return;
    }
    forgetSeat(this.code);
    this.onLeave(true);
  },

  toggleAuto() {
    if (!this.conn.send({ type: 'auto', on: !this.s.auto })) toast(t('not_connected'), 'error');
  },

  /** The rules in force in this room (rulespage.js), the patterns scored by the server under
   * them (one request per rule set). */
  showRules() {
    if (!this.s.rules) return;
    this.patterns = this.patterns || {};
    openRoomRules(this.s.rules, this.s.preset, this.patterns, () => !this.destroyed && Boolean(this.s.rules));
  },
};
