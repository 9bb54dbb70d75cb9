// One seat at one room: the connection, the state kept from the server's messages, and the
// screens of a room (waiting for players, the table, the settlement, the end of the match).
// Messages (docs/protocol.md): welcome, players, update/sync (events + the seat's view),
// missed (the end of a hand the client did not see), refused, error, auto, match_end,
// replaced, left, entropy_ok, hint. Sent: hello (by the connection), action, ready, auto, sync,
// entropy (this seat's random text for the next deal, after its commitment: docs/fairness.md),
// hint (the 提示 button: the expert's ranking of this seat's choices, shown until the view changes).

import { announcement } from './announce.js';
import { api } from './api.js';
import { playCallout, playClick, playTile, setMuted, setTileVoice, setVolume, soundSettings } from './audio.js';
import { paintBetween } from './between.js';
import { bubblesEl, BUBBLE_MS, chatPanel, isMuted, sayText, toggleMute } from './chat.js';
import { Connection } from './conn.js';
import { el } from './dom.js';
import { newEntropy, verifyHand } from './fairness.js';
import { hasText, lang, onLangChange, t } from './i18n.js';
import { entropyAccepted, entropyPlan, GameState } from './game-state.js';
import { hintable } from './hint.js';
import { loadSchemas } from './lobby.js';
import { playAgain } from './rematch.js';
import { rulesPageEl } from './rulespage.js';
import { fairnessEl, matchEndEl, settlementEl } from './settle.js';
import { forgetSeat, getFair, saveFair } from './store.js';
import { countHand, tipEl, tipFor } from './tips.js';
import { actionGroups, avatarEl, connects, declareChoices, handLayout, KEYS_HELP, playerLabel, position, renderTable } from './table.js';
import { clearToasts, closeModal, modalKind, openModal, setConnStatus, setRoomBar, toast } from './ui.js';

let actionSeq = 0;
const ACK_TIMEOUT = 6000;  // ms: an action neither acked nor refused by then is forgotten

const CALLOUT = { pung: 'call_pung', kong: 'call_kong', declare: 'call_declare', win: 'call_win', adding_kong: 'call_adding_kong' };

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
    this.conn = new Connection(this.code, this.token, {
      onMessage: (m) => this.onMessage(m),
      onStatus: (st, info) => this.onStatus(st, info),
      onFatal: (r, m) => this.onFatal(r, m),
      resume: () => this.s.resume(),
    });
    this.keyHandler = (e) => this.onKey(e);
    this.pointerType = 'mouse';
    this.pointerHandler = (e) => { this.pointerType = e.pointerType || 'mouse'; };
    document.addEventListener('keydown', this.keyHandler);
    document.addEventListener('pointerdown', this.pointerHandler, true);
    this.resizeHandler = () => this.placeChat();
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

  destroy() {
    this.destroyed = true;
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
    if (out.serverError && hasText('err_' + msg.code)) toast(t('err_' + msg.code), 'warn');
    else if (out.serverError) toast(t('server_error', { message: msg.message || msg.code }), 'error');
    if (out.chat) this.onChat(out.chat);
    if (out.rematch && out.rematch.by !== this.seat) toast(t('rematch_offered', { name: playerLabel(this.s.players, out.rematch.by) }));
    if (out.between) this.paintBetween();
    if (out.autoTimeouts) toast(t('auto_on_timeouts'), 'warn');
    if (out.newHand) {
      this.ui.declareMode = false;
      this.ui.selected = null;
      this.ui.callouts = {};
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
        setTimeout(() => { if (!this.destroyed && this.hand === hand) this.openSettlement(false); }, WIN_PAUSE_MS);
      }
    }
    if (out.hint) this.ui.hintAsked = null;  // answered: shown until the view changes
    if (out.refused) this.onRefused(out);
    if (out.matchEnd) setTimeout(() => { if (!this.destroyed) this.openSettlement(true); }, WIN_PAUSE_MS);
    if (out.render) this.render();
  }

  // --- the fair deal (docs/fairness.md) ------------------------------------------------
  /** A commitment for a hand not dealt yet: keep it, and send my entropy for that hand. */
  onCommit(c) {
    const known = this.fair[c.hand];
    const plan = entropyPlan(c, known);
    if (plan === 'none') return;
    if (plan === 'resend') {
      this.conn.send({ type: 'entropy', hand: c.hand, value: known.mine });
      return;
    }
    // a new commitment (or a new one after a server restart): fresh entropy, bound to it
    const info = { commitment: c.commitment, hand_id: c.hand_id, dealer: c.dealer, mine: newEntropy(), accepted: false };
    this.fair[c.hand] = info;
    saveFair(this.code, c.hand, info);
    this.conn.send({ type: 'entropy', hand: c.hand, value: info.mine });
  }

  /** Check an ended hand's deal here, with Web Crypto, then show the verdict. */
  checkFair(hand, fairness, view, events) {
    if (this.verdicts[hand] || !fairness || !fairness.seed) {
      if (!fairness && !this.verdicts[hand]) this.verdicts[hand] = { status: 'none', problems: [] };
      return;
    }
    this.verdicts[hand] = { status: 'checking', problems: [], commitment: (this.fair[hand] || fairness).commitment };
    const suits = (this.s.rules && this.s.rules.suits) || ['p', 's'];
    verifyHand({ fairness, before: this.fair[hand] || null, seat: this.s.seat, suits, dealer: view.dealer, events: [...(events || [])] })
      .catch((e) => ({ status: 'mismatch', problems: [String(e)], commitment: fairness.commitment }))
      .then((verdict) => {
        this.verdicts[hand] = verdict;
        const box = document.querySelector('#modal .settlement .fairness');
        if (box && Number(box.dataset.hand) === hand) box.replaceWith(fairnessEl(verdict, hand));
      });
  }

  /** Tell a refusal (out.refused), unless it is an entropy one; resync after a stale one. */
  onRefused(out) {
    const msg = out.refused;
    if (out.quiet) return;  // entropy that came too late for its deal: that hand's check will say so
    const what = t('refused_' + msg.code);
    const detail = msg.reason ? ` — ${msg.reason}` : '';
    const rule = msg.rule ? ` (${msg.rule})` : '';
    toast(`${t('refused')}: ${what === 'refused_' + msg.code ? msg.code : what}${detail}${rule}`, 'error');
    if (out.resync) this.conn.send({ type: 'sync' });
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
    if (e.type === 'discard') {  // a click, then the tile's name (the apps say every discard)
      playClick();
      setTimeout(() => playTile(e.tile), 90);
    }
    const kind = e.type === 'win' && e.by === 'self_draw' ? 'self_draw' : e.type;
    const key = kind === 'self_draw' ? 'call_self_draw' : CALLOUT[e.type];
    if (!key || e.seat === undefined) return;
    playCallout(kind);
    const c = { id: `${this.hand}-${e.n}`, text: t(key) };
    this.ui.callouts[e.seat] = c;
    const seat = e.seat;
    setTimeout(() => {
      if (this.ui.callouts[seat] === c) { delete this.ui.callouts[seat]; this.render(); }
    }, 1200);
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

  // --- the hint (提示) ---------------------------------------------------------------------
  /** Where the hint stands for the view shown: null (not asked), 'pending' or 'open'. */
  hintState() {
    if (this.s.hint) return 'open';
    return this.ui.hintAsked === this.s.version && this.ui.hintAsked !== null ? 'pending' : null;
  }

  /** The 提示 button: ask for the expert's ranking of this view's choices, or close it. */
  toggleHint() {
    const state = this.hintState();
    if (state === 'open') { this.closeHint(); return; }
    if (state === 'pending' || !hintable(this.view) || this.s.auto) return;
    if (!this.conn.send({ type: 'hint' })) { toast(t('not_connected'), 'error'); return; }
    this.ui.hintAsked = this.s.version;
    this.render();
  }

  closeHint() {
    this.ui.hintAsked = null;
    if (this.s.closeHint()) this.render();
  }

  /** A plain discard picked in the hint panel: raise its tile (the tile just drawn if it is
   * that one), as a selection by keyboard does; Enter or a click then discards it. */
  hintPick(action) {
    const { codes, drawn } = handLayout(this.view);
    const all = drawn ? [...codes, drawn] : codes;
    const i = drawn === action[2] ? all.length - 1 : all.indexOf(action[2]);
    if (i < 0) return;
    this.ui.selected = i;
    this.render();
    this.root.querySelector('.hand .tile.selected')?.focus();
  }

  toggleDeclare() {
    this.ui.declareMode = !this.ui.declareMode;
    this.ui.selected = null;
    this.render();
  }

  onKey(e) {
    if (e.ctrlKey || e.metaKey || e.altKey) return;
    const target = e.target;
    if (target && (target.tagName === 'INPUT' || target.tagName === 'SELECT' || target.tagName === 'TEXTAREA')) return;
    const modal = document.getElementById('modal');
    if (e.key === 'Escape' && this.chatOpen) {  // the chat panel closes first, the focus back on its button
      this.chatOpen = false;
      this.paintChat();
      this.root.querySelector('.chat-dock .chat-btn')?.focus();
      e.preventDefault();
      return;
    }
    if (modal && !modal.hidden) {  // the waiting room's too (the rules page)
      if (e.key === 'Escape') { closeModal(); e.preventDefault(); }
      return;
    }
    if (!this.view) return;
    const key = e.key;
    // Enter and space on a focused button (a menu, the settlement) keep their usual meaning
    if (target && target.tagName === 'BUTTON' && !target.classList.contains('tile') && (key === ' ' || key === 'Enter')) return;
    const g = actionGroups(this.view);
    const { codes, drawn } = handLayout(this.view);
    const all = drawn ? [...codes, drawn] : codes;
    const lower = key.length === 1 ? key.toLowerCase() : key;
    let used = true;
    if (lower === 'h' && g.win) this.act(g.win);
    else if (lower === 'p' && g.pung) this.act(g.pung);
    else if (lower === 'k' && g.kong.length) this.act(g.kong[0]);
    else if (lower === 'l' && g.declare) this.toggleDeclare();
    else if (lower === 'r' && this.s.rules) this.showRules();
    else if (key === ' ' && g.pass) this.act(g.pass);
    else if (lower === 't' && (hintable(this.view) || this.s.hint)) this.toggleHint();
    else if (lower === 'd' && drawn && (g.discards.has(drawn) || this.ui.declareMode)) this.tileClicked(all.length - 1, drawn);
    else if (/^[0-9]$/.test(key) && all.length) {
      const i = key === '0' ? 9 : Number(key) - 1;
      if (i < all.length) this.select(i);
    } else if ((key === 'ArrowLeft' || key === 'ArrowRight') && all.length) {
      const cur = this.ui.selected === null ? (key === 'ArrowLeft' ? all.length : -1) : this.ui.selected;
      this.select((cur + (key === 'ArrowLeft' ? -1 : 1) + all.length) % all.length);
    } else if (key === 'Enter' && this.ui.selected !== null && all[this.ui.selected]) {
      const code = all[this.ui.selected];
      const saved = this.pointerType;
      this.pointerType = 'keyboard';
      this.tileClicked(this.ui.selected, code);
      this.pointerType = saved;
    } else if (key === 'Escape' && this.s.hint) {
      this.closeHint();  // the hint first; a second Escape cancels a selection
    } else if (key === 'Escape') {
      this.ui.declareMode = false;
      this.ui.selected = null;
      this.render();
    } else if (lower === 'm') this.toggleMute();
    else if (key === '?') this.showHelp();
    else used = false;
    if (used) e.preventDefault();
  }

  /** Raise tile ``i`` of my hand (keyboard); the focus follows it when it was on a tile. */
  select(i) {
    this.ui.selected = i;
    const onTile = document.activeElement && document.activeElement.closest && document.activeElement.closest('.hand');
    this.render();
    if (onTile) this.root.querySelector(`.hand .tile[data-idx="${i}"]`)?.focus();
  }

  showHelp() {
    const box = el('div', 'help');
    box.appendChild(el('h2', null, t('keys_title')));
    const table = el('table', 'keys');
    for (const [k, label] of KEYS_HELP) {
      const tr = el('tr');
      const td = el('td');
      td.appendChild(el('kbd', null, k));
      tr.appendChild(td);
      tr.appendChild(el('td', null, t(label)));
      table.appendChild(tr);
    }
    box.appendChild(table);
    box.appendChild(el('p', 'muted', t('keys_touch')));
    box.appendChild(soundControls(() => this.topBar()));
    openModal(box, { label: t('keys_title') });
  }

  // --- quick phrases and emotes (chat.js) -----------------------------------------------
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
  }

  say(id) {
    if (!this.conn.send({ type: 'chat', say: id })) { toast(t('not_connected'), 'error'); return; }
    this.chatOpen = false;
    this.paintChat();
  }

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
  }

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
  }

  /** The countdown to the next hand and who is ready, in the settlement (between.js). */
  paintBetween() {
    const slot = document.querySelector('#modal .settlement-between');
    if (!slot) return;
    const left = this.matchEnd ? null : this.s.countdown(Date.now());
    paintBetween(slot, left, this.s.between && this.s.between.ready, (seat) => playerLabel(this.s.players, seat));
    const next = document.querySelector('#modal .next-hand');
    if (next && this.s.between && this.s.between.ready[this.seat] && !next.disabled) {
      next.disabled = true;  // 托管 (or my ready): nothing to press
      next.textContent = t('ready_done');
    }
  }

  // --- settlement ---------------------------------------------------------------------
  openSettlement(force, missed = false) {
    const ctx = this.s.lastSettlement;
    if (!ctx && !this.matchEnd) return;
    const box = el('div', 'settle-wrap');
    if (ctx) {
      box.appendChild(settlementEl({ ...ctx, players: this.s.players, handsPerMatch: this.s.handsPerMatch,
        fair: this.verdicts[ctx.handNo] || null }));
      if (missed) box.prepend(el('p', 'note', t('missed_hand')));
    }
    const buttons = el('div', 'buttons');
    if (this.matchEnd) {
      box.appendChild(matchEndEl({ players: this.s.players, hands: this.matchEnd.hands, totals: this.matchEnd.totals, rating: this.matchEnd.rating }));
      const again = el('button', 'primary play-again', t('rematch_btn'));
      again.type = 'button';
      again.addEventListener('click', async () => {
        again.disabled = true;
        const me = (this.s.players || [])[this.seat];
        const r = await playAgain(this.code, this.token, (me && me.nickname) || '');
        again.disabled = false;
        if (!r.ok) { toast(t('rematch_failed', { message: r.error }), 'error'); return; }
        closeModal();
        location.hash = `#/room/${r.code}`;
      });
      buttons.appendChild(again);
      const lobby = el('button', null, t('back_to_lobby'));
      lobby.type = 'button';
      lobby.addEventListener('click', () => { closeModal(); this.onLeave(false); });
      buttons.appendChild(lobby);
    } else if (this.view && this.view.result && ctx && ctx.handNo === this.hand) {
      const next = el('button', 'primary next-hand', t('ready_btn'));
      next.type = 'button';
      next.addEventListener('click', () => {
        if (!this.conn.send({ type: 'ready' })) { toast(t('not_connected'), 'error'); return; }
        next.disabled = true;
        next.textContent = t('ready_done');
      });
      const row = el('div', 'ready-row');  // first in the dialog: the countdown (paintBetween) and 准备
      row.append(el('div', 'settlement-between'), next);
      box.prepend(row);
    }
    if (ctx && this.s.matchId) {
      const rp = el('a', 'button', t('replay_this'));
      rp.href = `#/replay/${this.s.matchId}/${ctx.handNo}`;
      rp.addEventListener('click', () => closeModal());
      buttons.appendChild(rp);
    }
    const close = el('button', null, t('close'));
    close.type = 'button';
    close.addEventListener('click', () => closeModal());
    buttons.appendChild(close);
    box.appendChild(buttons);
    this.settlementShownFor = ctx ? ctx.handNo : null;
    this.settlementLive = !missed;
    openModal(box, { label: t('settlement'), wide: true, cls: 'settle-modal' });
    this.paintBetween();
  }

  // --- drawing -------------------------------------------------------------------------
  renderConnecting() {
    const box = el('div', 'screen center-screen');
    box.appendChild(el('p', 'muted', t('connecting')));
    this.root.replaceChildren(box);
  }

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
  }

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
      li.appendChild(el('span', 'sname', p.kind === 'open' ? t('seat_open') : playerLabel(this.s.players, i)));
      if (i === this.seat) li.appendChild(el('span', 'badge', t('you')));
      if (connects(p)) li.appendChild(el('span', 'dot ' + (p.connected ? 'on' : 'off')));
      if (p.kind === 'open') {
        open.push(i);
        li.appendChild(this.fillControls(i));
      }
      seats.appendChild(li);
    });
    box.appendChild(seats);
    box.appendChild(el('p', 'muted', t('waiting_hint')));
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
  }

  /** The bot choices of the server (GET /api/bots), loaded once for the waiting room. */
  async loadBots() {
    this.bots = { choices: [], suggested: null };
    const r = await api.bots();
    if (r.ok) this.bots = { choices: r.data.choices, suggested: r.data.suggested };
    if (!this.view) this.render();  // still waiting: the choices appear
  }

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
  }

  /** Fill open ``seat`` with ``bot`` (null: the server's suggestion); false if refused. */
  async fillSeat(seat, bot) {
    const r = await api.seatToBot(this.code, seat, this.token, bot);
    if (!r.ok) toast(t('seat_fill_failed', { message: r.error }), 'error');
    return r.ok;
  }

  /** Hand a dropped player's seat to 托管 now (the server does it after its grace anyway). */
  async handToBot(seat) {
    const r = await api.seatToBot(this.code, seat, this.token);
    toast(r.ok ? t('hand_to_bot_done', { name: playerLabel(this.s.players, seat) })
      : t('seat_fill_failed', { message: r.error }), r.ok ? '' : 'error');
  }

  async leave() {
    if (!window.confirm(t('leave_confirm'))) return;
    const r = await api.leave(this.code, this.token);
    if (!r.ok && r.status !== 403) {
      toast(t('leave_failed', { message: r.error }), 'error');
      return;
    }
    forgetSeat(this.code);
    this.onLeave(true);
  }

  toggleAuto() {
    if (!this.conn.send({ type: 'auto', on: !this.s.auto })) toast(t('not_connected'), 'error');
  }

  /** The rules in force in this room (rulespage.js), labelled from GET /api/rules, with the
   * patterns and their examples scored by the server under the room's rules (one request per
   * rule set). */
  async showRules() {
    let schema;
    const rules = this.s.rules;
    const key = JSON.stringify(rules);
    try {
      schema = (await loadSchemas()).rules;
      if (!this.patterns || this.patterns.key !== key) {
        const r = await api.rulePatterns(rules);
        if (!r.ok) throw new Error(r.error);
        this.patterns = { key, table: r.data };
      }
    } catch (e) {
      toast(t('load_failed', { message: e.message }), 'error');
      return;
    }
    if (this.destroyed || !this.s.rules) return;
    openModal(rulesPageEl(schema, this.s.rules, this.s.preset, this.patterns.table), { label: t('rules_title'), wide: true, cls: 'rules-modal' });
  }

  topBar() {
    const parts = {
      code: this.code,
      hand: this.hand !== null ? t('hand_of', { n: this.hand + 1, total: this.s.handsPerMatch || '?' }) : null,
      preset: this.s.rules ? presetLabel(this.s.rules, this.s.preset) : null,
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
  }

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
    model.tipNode = tip ? tipEl(tip, () => this.render()) : null;
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
    wrap.querySelector(':scope > .auto-banner')?.remove();
    if (this.s.auto) {
      const banner = el('div', 'auto-banner');
      banner.appendChild(el('span', null, t('auto_banner')));
      const off = el('button', null, t('auto_off'));
      off.type = 'button';
      off.addEventListener('click', () => this.toggleAuto());
      banner.appendChild(off);
      wrap.appendChild(banner);
    }
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

/** Mute, volume and the tiles' voice for the help panel (kept in localStorage by audio.js);
 * changed() after each change. */
function soundControls(changed) {
  const box = el('fieldset', 'sound-controls');
  box.appendChild(el('legend', null, t('sound')));
  const mute = el('label', 'mute');
  const check = el('input');
  check.type = 'checkbox';
  check.checked = soundSettings().muted;
  check.onchange = () => { setMuted(check.checked); changed(); };
  mute.append(check, el('span', null, t('sound_mute')));
  const vol = el('label', 'volume');
  const range = el('input');
  range.type = 'range';
  range.min = '0';
  range.max = '100';
  range.value = String(Math.round(soundSettings().volume * 100));
  range.oninput = () => { setVolume(Number(range.value) / 100); check.checked = soundSettings().muted; changed(); };
  vol.append(el('span', null, t('sound_volume')), range);
  const tiles = el('label', 'mute tile-voice');
  const say = el('input');
  say.type = 'checkbox';
  say.checked = soundSettings().tiles;
  say.onchange = () => { setTileVoice(say.checked); changed(); };
  tiles.append(say, el('span', null, t('sound_tiles')));
  box.append(mute, vol, tiles);
  return box;
}

function presetLabel(rules, preset) {
  const name = preset ? t('preset_' + preset).replace(/（.*|\s\(.*/, '') : '';
  const cap = rules && rules.cap ? t('cap_short', { cap: rules.cap }) : t('no_cap_short');
  return name ? `${name} · ${cap}` : cap;
}

export async function copyText(text, input) {
  try {
    await navigator.clipboard.writeText(text);
    toast(t('copied'), 'ok');
  } catch (e) {
    if (input) { input.focus(); input.select(); }
    toast(t('copy_manually', { text }), 'warn');
  }
}

