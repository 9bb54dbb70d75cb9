// One seat at one room: the connection, the state kept from the server's messages, and the
// screens of a room (waiting for players, the table, the settlement, the end of the match).
// Messages (docs/protocol.md): welcome, players, update/sync (events + the seat's view),
// missed (the end of a hand the client did not see), refused, error, auto, match_end,
// replaced, left, entropy_ok, hint. Sent: hello (by the connection), action, ready, auto, sync,
// entropy (this seat's random text for the next deal, after its commitment: docs/fairness.md),
// hint (the 提示 button: the expert's ranking of this seat's choices, shown until the view changes).
// The table's other jobs are mixed into Game from their own modules: game-keys.js (keyboard and
// help), game-chat.js (quick phrases), game-settle.js (fair deal, settlement, match end),
// game-waiting.js (the waiting room, bots for seats, leaving, 托管, the rules page),
// game-hint.js (提示) and game-screens.js (the top bar, connecting, a fatal error).

import { announcement } from './announce.js';
import { api } from './api.js';
import { playCallout, setMuted, soundSettings } from './audio.js';
import { paintAutoStrip, placeAutoStrip } from './autostrip.js';
import { Connection } from './conn.js';
import { el } from './dom.js';
import { onLangChange, t } from './i18n.js';
import { BANNER_MS, flyClaims, sayEvent, winBannerEl, winTilesOf } from './effects.js';
import { entropyAccepted, GameState } from './game-state.js';
import { hintable } from './hint.js';
import { forgetSeat, getFair, saveFair } from './store.js';
import { countHand, tipEl, tipFor } from './tips.js';
import { chatMethods } from './game-chat.js';
import { keyMethods } from './game-keys.js';
import { settleMethods } from './game-settle.js';
import { waitingMethods } from './game-waiting.js';
import { hintMethods } from './game-hint.js';
import { screenMethods } from './game-screens.js';
import { actionGroups, declareChoices } from './actionbar.js';
import { playerLabel } from './seats.js';
import { renderTable } from './table.js';
import { clearToasts, closeModal, modalKind, setConnStatus, setRoomBar, toast } from './ui.js';

let actionSeq = 0;
const ACK_TIMEOUT = 6000;  // ms: an action neither acked nor refused by then is forgotten

const WIN_PAUSE_MS = 1800;  // the ended hand on the table before its settlement opens (issue 35)

export class Game {
  constructor(root, code, seatInfo, { onLeave }) {
    this.root = root;
    clearToasts('warn');  // e.g. the lobby's 请先填写昵称: it does not belong on the table
    this.code = code.toUpperCase();
    this.token = seatInfo.token;
    this.onLeave = onLeave;
    this.s = new GameState(seatInfo.seat);  // everything kept from the server's messages
    this.settlementShownFor = null;
    this.fair = getFair(this.code);  // hand -> what came before its deal (commitment, my entropy)
    this.verdicts = {};  // hand -> the browser's own check of the ended hand's deal
    const s = this.s;
    // hintAsked: the version of the view a hint was asked for (the answer is pending until it comes)
    this.ui = { selected: null, declareMode: false, callouts: {}, hintAsked: null, get busy() { return s.busy; } };
    this.chats = {};  // seat -> {say, at}: the quick phrase or emote shown over it (chat.js)
    this.chatOpen = false;
    this.fatal = null;
    this.destroyed = false;
    this.settleTimer = null;  // the settlement waiting for the win pause (settleLater)
    this.bannerTimer = null;  // the win banner's end (showBanner)
    this.conn = new Connection(this.code, this.token, {
      onMessage: (m) => this.onMessage(m),
      onStatus: (st, info) => this.onStatus(st, info),
      onFatal: (r, m) => this.onFatal(r, m),
      resume: () => this.s.resume(),
    });
    this.keyHandler = (e) => this.onKey(e);
    this.pointerType = 'mouse';
    this.pointerHandler = (e) => { this.pointerType = e.pointerType || 'mouse'; this.pointerSeen = true; };
    document.addEventListener('keydown', this.keyHandler);
    document.addEventListener('pointerdown', this.pointerHandler, true);
    this.resizeHandler = () => { this.placeChat(); placeAutoStrip(this.root.querySelector(':scope > .table-screen')); };
    window.addEventListener('resize', this.resizeHandler);
    this.ticker = setInterval(() => this.tick(), 250);
    this.unLang = onLangChange(() => {
      if (this.fatal) { this.renderFatal(this.fatal, ''); return; }
      const settling = modalKind() === 'settle-modal';
      const reading = modalKind() === 'rules-modal';
      if (this.connStatus) setConnStatus(this.connStatus, this.connInfo);
      this.render();
      if (!this.s.view && !this.s.players) this.renderConnecting();
      if (settling) this.openSettlement(true, !this.settlementLive);
      if (reading) this.showRules();  // the rules page in the new language
    });
    window.__kwx = { game: this };
    this.renderConnecting();
    this.conn.start();
    this.refreshRoom();
  }

  // read by the page tests (window.__kwx.game): the hand shown, its view, the match end
  get hand() { return this.s.hand; }
  get view() { return this.s.view; }
  get matchEnd() { return this.s.matchEnd; }
  get seat() { return this.s.seat; }

  /** Open the settlement (with the match end once it came) after the win pause, unless another
   * hand began meanwhile. One timer at a time: a second call waits for the first one's dialog. */
  settleLater(hand) {
    clearTimeout(this.settleTimer);
    clearTimeout(this.bannerTimer);
    this.settleTimer = setTimeout(() => {
      this.settleTimer = null;
      if (!this.destroyed && (this.matchEnd || this.hand === hand)) this.openSettlement(Boolean(this.matchEnd));
    }, WIN_PAUSE_MS);
  }

  destroy() {
    this.destroyed = true;
    clearTimeout(this.settleTimer);
    this.conn.stop();
    clearInterval(this.ticker);
    document.removeEventListener('keydown', this.keyHandler);
    document.removeEventListener('pointerdown', this.pointerHandler, true);
    window.removeEventListener('resize', this.resizeHandler);
    this.unLang();
    setConnStatus(null);
    setRoomBar(null);
    closeModal();
  }

  // --- server messages: the state takes them, the screen follows its outcome ------------
  onMessage(msg) {
    if (msg.type === 'entropy_ok') {
      if (entropyAccepted(msg, this.fair[msg.hand])) {
        this.fair[msg.hand] = { ...this.fair[msg.hand], accepted: true };
        saveFair(this.code, msg.hand, this.fair[msg.hand]);
      }
      return;
    }
    if (msg.type === 'welcome') this.fatal = null;
    const out = this.s.receive(msg, Date.now());
    if (out.serverError) this.onServerError(msg);
    if (out.chat) this.onChat(out.chat);
    if (out.rematch && out.rematch.by !== this.seat) toast(t('rematch_offered', { name: playerLabel(this.s.players, out.rematch.by) }));
    if (out.between) this.paintBetween();
    if (out.autoTimeouts) toast(t('auto_on_timeouts'), 'warn');
    if (out.newHand) {
      this.ui.declareMode = false;
      this.ui.selected = null;
      this.ui.callouts = {};
      this.ui.banner = null;
      // a settlement seen live closes when the next hand starts (the bar's button reopens it);
      // one of a hand missed while away stays until read
      if (modalKind() === 'settle-modal' && this.settlementLive && this.settlementShownFor !== msg.hand) closeModal();
      this.refreshRoom();
    }
    if (msg.type === 'update' || msg.type === 'sync') {
      if (!msg.view.legal.length) this.ui.declareMode = false;
      else if (this.ui.declareMode && !actionGroups(msg.view).declare) this.ui.declareMode = false;
    }
    for (const e of out.fresh || []) this.callout(e);
    if (out.fresh && out.fresh.length) this.announce(out.fresh);
    if (out.commit) this.onCommit(out.commit);
    if (out.ended) {
      const { hand, view, events, fairness, missed } = out.ended;
      this.checkFair(hand, fairness, view, events);
      if (missed) this.openSettlement(false, true);
      else if (this.settlementShownFor !== hand) {
        // the win (its 胡/自摸 call-out, the hands face up) stays on the table a moment first
        this.settlementShownFor = hand;
        this.settleLater(hand);
      }
    }
    if (out.hint) this.ui.hintAsked = null;  // answered: shown until the view changes
    if (out.refused) this.onRefused(out);
    // the match end joins a settlement still waiting (one dialog opened once), else opens after the pause
    if (out.matchEnd && !this.settleTimer) this.settleLater(this.hand);
    if (out.render) this.render();
    if (out.render && out.fresh) flyClaims(this.root.querySelector('.board'), out.fresh);
  }

  onStatus(status, info) {
    this.connStatus = status;
    this.connInfo = info;
    if (status !== 'open') this.ui.hintAsked = null;  // a hint asked on a dropped link is asked again
    setConnStatus(status, info);
    const wasOpen = this.linkOpen;
    this.linkOpen = status === 'open';
    if ((status === 'waiting' && this.s.disconnected()) || wasOpen !== this.linkOpen) this.render();
  }

  onFatal(reason, message) {
    this.fatal = reason;
    if (reason === 'bad_token' || reason === 'no_room') forgetSeat(this.code);
    this.renderFatal(reason, message);
  }

  /** A fresh event's call-out over its seat (碰！ 胡！ …) for 1.2 s, said aloud; a discard clicks. */
  callout(e) {
    if (e.type === 'win') this.showBanner(e);
    const key = sayEvent(e);
    if (!key) return;
    const c = { id: `${this.hand}-${e.n}`, text: t(key) };
    this.ui.callouts[e.seat] = c;
    const seat = e.seat;
    setTimeout(() => {
      if (this.ui.callouts[seat] === c) { delete this.ui.callouts[seat]; this.render(); }
    }, 1200);
  }

  /** The win banner (effects.js) for a fresh ``win`` event: one banner a hand, naming every
   * winner of it (R4.3 一炮多响), gone after BANNER_MS. */
  showBanner(e) {
    const id = `${this.hand}`;
    const b = this.ui.banner && this.ui.banner.id === id ? this.ui.banner
      : { id, seats: [], selfDraw: e.by === 'self_draw' };
    if (!b.seats.includes(e.seat)) b.seats.push(e.seat);
    this.ui.banner = b;
    clearTimeout(this.bannerTimer);
    this.bannerTimer = setTimeout(() => {
      if (this.ui.banner === b) { this.ui.banner = null; this.render(); }
    }, BANNER_MS);
  }

  /** Say the fresh events and what I may do now in the live region (aria-live, page language):
   * one line per update added, the last six kept. */
  announce(events) {
    const box = this.root.querySelector('.table-screen > .announcer');
    if (!box || !this.view) return;
    const text = announcement(events, { view: this.view, seat: this.seat, players: this.s.players, readOnly: false });
    if (!text) return;
    box.appendChild(el('p', null, text));
    while (box.children.length > 6) box.firstChild.remove();
  }

  toggleMute() {
    setMuted(!soundSettings().muted);
    this.topBar();
  }

  async refreshRoom() {
    const r = await api.room(this.code);
    if (!r.ok || this.destroyed) return;
    this.s.roomInfo(r.data);
    this.render();
  }

  // --- acting -------------------------------------------------------------------------
  act(action) {
    if (this.ui.busy) return;
    const id = `a${this.seat}-${Date.now().toString(36)}-${++actionSeq}`;
    const ok = this.conn.send({ type: 'action', id, version: this.s.version, action });
    if (!ok) {
      toast(t('not_connected'), 'error');
      return;
    }
    this.s.sent(id);
    if (action[1] === 'pass') playCallout('pass');  // 过: my own answer, said to me only
    this.ui.declareMode = false;
    this.ui.selected = null;
    setTimeout(() => { if (this.s.expire(id)) this.render(); }, ACK_TIMEOUT);
    this.render();
  }

  tileClicked(index, code) {
    const view = this.view;
    if (!view || this.ui.busy) return;
    const g = actionGroups(view);
    if (this.ui.declareMode) {
      const choice = declareChoices(view).find((c) => c.tile === code);
      if (!choice) { toast(t('not_declarable'), 'warn'); return; }
      const plain = choice.variants.find((v) => !v.hidden.length) || choice.variants[0];
      this.act(plain.action);
      return;
    }
    if (!g.discards.has(code)) {
      if (view.legal.length && view.phase === 'turn') toast(t('cannot_discard'), 'warn');
      return;
    }
    if (this.pointerType === 'touch' && this.ui.selected !== index) {
      this.ui.selected = index;  // a first tap raises the tile; a second one discards it
      this.render();
      return;
    }
    this.act([this.seat, 'discard', code]);
  }

  toggleDeclare() {
    this.ui.declareMode = !this.ui.declareMode;
    this.ui.selected = null;
    this.render();
  }

  // --- drawing -------------------------------------------------------------------------
  render() {
    if (this.destroyed || this.fatal) return;
    this.topBar();
    if (!this.view) {
      if (this.s.players) this.renderWaiting();
      return;
    }
    const model = {
      view: this.view, seat: this.seat, handNo: this.hand, players: this.s.players, totals: this.s.totals,
      rules: this.s.rules, selected: this.ui.selected, declareMode: this.ui.declareMode,
      busy: this.ui.busy, callouts: this.ui.callouts, lastDiscard: this.s.lastDiscard(),
      hintable: hintable(this.view) && !this.s.auto, hintState: this.hintState(), hint: this.s.hint,
      toBot: (seat) => this.handToBot(seat),
      linkOpen: this.linkOpen !== false,  // my own connection: my dot goes red when it drops
      chatSpot: true,  // the 快捷语 button's place in my plate's row (paintChat puts it there)
    };
    // a first-hand tip: what this view lets me do, in my first hands (tips.js)
    const handId = `${this.code}:${this.hand}`;
    const tip = this.hand !== null && countHand(handId) ? tipFor(this.view, handId, model.hintable) : null;
    // the tip says what a touch does on a touch screen (tileClicked: a first tap raises the tile)
    const touch = this.pointerSeen ? this.pointerType === 'touch' : matchMedia('(pointer: coarse)').matches;
    model.tipNode = tip ? tipEl(tip, () => this.render(), touch) : null;
    const ended = this.s.lastSettlement;  // the winning tiles the win events name, once it is over
    model.winTiles = ended && ended.handNo === this.hand ? winTilesOf(ended.winEvents) : null;
    const banner = this.ui.banner;
    model.bannerNode = banner && this.view.result ? winBannerEl(banner, this.view, this.s.players) : null;
    // the board is patched (focus stays on what stays): the focus moves into the hint panel
    // when the answer asked from its button comes, and back to the button when the panel goes
    const focusKey = document.activeElement && document.activeElement.dataset ? document.activeElement.dataset.focusKey : null;
    const hadPanel = Boolean(this.root.querySelector('.hint-panel'));
    let wrap = this.root.querySelector(':scope > .table-screen');
    if (!wrap) {
      wrap = el('div', 'screen table-screen');
      const live = el('div', 'announcer sr-only');  // discards, claims and turns in words
      live.setAttribute('aria-live', 'polite');
      live.setAttribute('aria-relevant', 'additions');
      live.setAttribute('role', 'log');
      wrap.appendChild(live);
      this.root.replaceChildren(wrap);
    }
    wrap.classList.toggle('auto-on', this.s.auto);
    renderTable(wrap, model, {
      act: (a) => this.act(a),
      tile: (i, code) => this.tileClicked(i, code),
      toggleDeclare: () => this.toggleDeclare(),
      hint: () => this.toggleHint(),
      closeHint: () => this.closeHint(),
      hintPick: (a) => this.hintPick(a),
    });
    if (focusKey) {
      const panel = wrap.querySelector('.hint-panel');
      if (focusKey === 'hint' && panel && !hadPanel) panel.focus();
      else if (!wrap.querySelector(`[data-focus-key="${focusKey}"]`) && focusKey.startsWith('hint')) {
        wrap.querySelector('[data-focus-key="hint"]')?.focus();
      }
    }
    paintAutoStrip(wrap, this.s.auto, () => this.toggleAuto());
    this.paintChat();
    this.tick();
  }

  tick() {
    if (this.s.between) this.paintBetween();
    const box = document.getElementById('timer');
    if (!box) return;
    const c = this.s.clock;
    if (!c || !this.view || !this.view.legal.length) {
      box.textContent = '';
      box.className = 'timer';
      return;
    }
    const left = Math.max(0, c.seconds - (Date.now() - c.at) / 1000);
    const reserve = Math.min(c.reserve || 0, left);
    const main = left - reserve;
    box.className = 'timer' + (main <= 0 ? ' reserve' : main < 5 ? ' urgent' : '');
    box.replaceChildren();
    // said in words on hover and to a screen reader: my time now, then the reserve (18 +30)
    let words;
    if (main > 0) {
      box.appendChild(el('span', 'main', String(Math.ceil(main))));
      if (reserve >= 1) box.appendChild(el('span', 'bank', `+${Math.floor(reserve)}`));
      words = reserve >= 1 ? t('timer_words', { n: Math.ceil(main), r: Math.floor(reserve) })
        : t('timer_words_only', { n: Math.ceil(main) });
    } else {
      box.appendChild(el('span', 'main', String(Math.ceil(left))));
      box.appendChild(el('span', 'bank', t('reserve')));
      words = t('timer_words_reserve', { n: Math.ceil(left) });
    }
    box.title = words;
    box.setAttribute('aria-label', words);
  }
}

// the table's other jobs, each in its own module
Object.assign(Game.prototype, keyMethods, chatMethods, settleMethods, waitingMethods, hintMethods,
  screenMethods);
