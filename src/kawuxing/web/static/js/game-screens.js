// The room's frame around the table (Game, game.js): the top bar (room code, hand, rules,
// 托管, rules page, last settlement, invite and watch links, sound, help, leave), and the
// screens shown instead of the table while connecting or after a fatal error; a refusal or
// a server error told in the page's words.

import { soundSettings } from './audio.js';
import { Connection } from './conn.js';
import { el } from './dom.js';
import { hasText, t } from './i18n.js';
import { copyText, setRoomBar, toast } from './ui.js';

/** Methods of :class:`Game` (game.js), mixed into it. */
export const screenMethods = {
  /** Tell a refusal (out.refused), unless it is an entropy one; resync after a stale one. The
   * words are the page's for its code (a general line for a code it does not know); the
   * server's English reason goes to the console and the toast's title only. */
  onRefused(out) {
    const msg = out.refused;
    if (out.quiet) return;  // entropy that came too late for its deal: that hand's check will say so
    const what = hasText('refused_' + msg.code) ? t('refused_' + msg.code) : t('refused_unknown');
    const rule = msg.rule ? ` (${msg.rule})` : '';
    if (msg.reason) console.info(`refused ${msg.code}: ${msg.reason}`);
    toast(`${t('refused')}: ${what}${rule}`, 'error', msg.reason ? `${msg.code}: ${msg.reason}` : msg.code);
    if (out.resync) this.conn.send({ type: 'sync' });
  },

  /** Tell a server ``error`` by its code in the page's words (wserr_<code>, else the HTTP
   * code's err_<code>, else a general line); its English message only in the console and title. */
  onServerError(msg) {
    const key = ['wserr_' + msg.code, 'err_' + msg.code].find((k) => hasText(k));
    if (msg.message) console.info(`server error ${msg.code}: ${msg.message}`);
    toast(key ? t(key) : t('server_error'), key ? 'warn' : 'error', `${msg.code}: ${msg.message || ''}`);
  },

  renderConnecting() {
    const box = el('div', 'screen center-screen');
    box.appendChild(el('p', 'muted', t('connecting')));
    this.root.replaceChildren(box);
  },

  renderFatal(reason, message) {
    const box = el('div', 'screen center-screen fatal');
    box.dataset.reason = reason;
    const own = hasText('fatal_' + reason);
    box.appendChild(el('h2', null, own ? t('fatal_' + reason) : reason));
    if (message && !own) box.appendChild(el('p', 'muted', message));  // the page's own words suffice
    const row = el('div', 'buttons');
    if (reason === 'replaced') {
      const again = el('button', 'primary', t('play_here'));
      again.type = 'button';
      again.addEventListener('click', () => {
        this.conn.stop();
        this.conn = new Connection(this.code, this.token, this.conn.h);
        this.fatal = null;
        this.renderConnecting();
        this.conn.start();
      });
      row.appendChild(again);
    }
    const lobby = el('a', 'button', t('back_to_lobby'));
    lobby.href = '#/';
    row.appendChild(lobby);
    box.appendChild(row);
    this.root.replaceChildren(box);
  },

  topBar() {
    const parts = {
      code: this.code,
      hand: this.hand !== null ? t('hand_of', { n: this.hand + 1, total: this.s.handsPerMatch || '?' }) : null,
      preset: this.s.rules ? presetLabel(this.s.rules, this.s.preset) : null,
      presetName: this.s.preset || null,
      buttons: [],
    };
    if (this.view && !this.matchEnd) {
      parts.buttons.push({ label: this.s.auto ? t('auto_off') : t('auto_on'), cls: this.s.auto ? 'on auto' : 'auto', onClick: () => this.toggleAuto(), title: t('auto_title') });
    }
    if (this.s.rules) parts.buttons.push({ label: t('rules_btn'), cls: 'rules-btn', onClick: () => this.showRules(), title: t('rules_btn_title') });
    if (this.s.lastSettlement || this.matchEnd) {
      parts.buttons.push({ label: t('last_settlement'), cls: 'settle-btn', onClick: () => this.openSettlement(true) });
    }
    parts.buttons.push({ label: t('invite'), cls: 'invite', onClick: () => copyText(`${location.origin}${location.pathname}#/join/${this.code}`) });
    parts.buttons.push({ label: t('watch_link'), cls: 'watch-link', onClick: () => copyText(`${location.origin}${location.pathname}#/watch/${this.code}`) });
    if (this.s.spectators) parts.watchers = { text: t('spectators_n', { n: this.s.spectators }), title: t('spectators_title', { n: this.s.spectators }) };
    const muted = soundSettings().muted;
    parts.buttons.push({ label: muted ? t('sound_off') : t('sound_on'), cls: 'sound-btn' + (muted ? ' muted' : ''), onClick: () => this.toggleMute(), title: t('sound_title') });
    parts.buttons.push({ label: '?', cls: 'help-btn', onClick: () => this.showHelp(), title: t('keys_title') });
    if (!this.matchEnd) parts.buttons.push({ label: t('leave'), cls: 'leave', onClick: () => this.leave() });
    setRoomBar(parts);
  },
};

function presetLabel(rules, preset) {
  const name = preset ? t('preset_' + preset).replace(/（.*|\s\(.*/, '') : '';
  const cap = rules && rules.cap ? t('cap_short', { cap: rules.cap }) : t('no_cap_short');
  return name ? `${name} · ${cap}` : cap;
}


