// Watching a room (旁观, issue 12): #/watch/CODE. The socket says {type: 'watch'} instead of a
// hello (conn.js with no token) and the server sends what every seat may see and nothing more
// (R13, docs/protocol.md: engine/views.spectator_view — no concealed hand before 亮倒 or the
// end, no options, no clock). The table is drawn read-only with seat 0 at the bottom, its hand
// face down; the players' quick phrases show over their seats (mutes apply); between hands the
// settlement and the countdown are shown under the table. A spectator cannot act or chat; the
// top bar's menu opens the room's rules page.

import { paintBetween } from './between.js';
import { bubblesEl, BUBBLE_MS, isMuted } from './chat.js';
import { Connection } from './conn.js';
import { el } from './dom.js';
import { winTilesOf } from './effects.js';
import { GameState } from './game-state.js';
import { hasText, onLangChange, t } from './i18n.js';
import { openRoomRules } from './rulespage.js';
import { matchEndEl, settlementEl } from './settle.js';
import { playerLabel, position } from './seats.js';
import { renderTable } from './table.js';
import { setConnStatus, setRoomBar } from './ui.js';

const BOTTOM = 0;  // the seat drawn at the bottom

/** Watch room ``code`` in ``root``; returns a cleanup function. */
export function renderWatch(root, code) {
  code = code.toUpperCase();
  const s = new GameState(null);
  const chats = {};
  let fatal = null;
  let gone = false;
  const patterns = {};  // the rules page's patterns, asked once (rulespage.js openRoomRules)
  const page = el('div', 'screen watch');
  const head = el('div', 'watch-head');
  const wrap = el('div', 'screen table-screen watch-table');
  const below = el('div', 'watch-below');
  page.append(head, wrap, below);
  root.replaceChildren(page);
  const nameOf = (seat) => playerLabel(s.players, seat);

  function drawHead() {
    head.replaceChildren(el('h2', null, t('watch_title')), el('p', 'muted', t('watch_note')));
    if (s.spectators) head.appendChild(el('span', 'watchers', t('spectators_n', { n: s.spectators })));
    // the room's own rules page (its preset, its options, its patterns scored by the server)
    const buttons = s.rules ? [{ label: t('rules_btn'), cls: 'rules-btn', title: t('rules_btn_title'),
      onClick: () => openRoomRules(s.rules, s.preset, patterns, () => !gone) }] : [];
    setRoomBar({ code, hand: s.hand !== null ? t('hand_of', { n: s.hand + 1, total: s.handsPerMatch || '?' }) : null, presetName: s.preset, buttons });
  }

  function draw() {
    drawHead();
    if (fatal) {
      const own = hasText('fatal_' + fatal);
      wrap.replaceChildren(el('p', 'error', own ? t('fatal_' + fatal) : fatal));
      return;
    }
    if (!s.view) {
      wrap.replaceChildren(el('p', 'muted', s.players ? t('waiting_title') : t('connecting')));
      return;
    }
    if (!wrap.querySelector(':scope > .board')) wrap.replaceChildren();
    renderTable(wrap, {
      view: { ...s.view, seat: BOTTOM, hand: s.view.seats[BOTTOM].revealed || '', drawn: null, legal: [] },
      seat: BOTTOM, players: s.players, totals: s.totals, rules: s.rules, readOnly: true, watching: true,
      selected: null, declareMode: false, busy: false, callouts: {}, lastDiscard: s.lastDiscard(),
      winTiles: s.lastSettlement && s.lastSettlement.handNo === s.hand ? winTilesOf(s.lastSettlement.winEvents) : null,
    }, { act() {}, tile() {}, toggleDeclare() {} });
    paintBubbles();
    drawBelow();
  }

  function paintBubbles() {
    wrap.querySelector(':scope > .chat-layer')?.remove();
    wrap.appendChild(bubblesEl(chats, (seat) => position(seat, BOTTOM), nameOf, Date.now()));
  }

  function drawBelow() {
    const ctx = s.lastSettlement;
    if (s.matchEnd) {
      below.replaceChildren(matchEndEl({ players: s.players, hands: s.matchEnd.hands, totals: s.matchEnd.totals, rating: s.matchEnd.rating }));
    } else if (ctx && s.view && s.view.result && ctx.handNo === s.hand) {
      if (below.dataset.hand !== String(ctx.handNo)) {
        below.dataset.hand = String(ctx.handNo);
        below.replaceChildren(el('div', 'settlement-between'),
          settlementEl({ ...ctx, seat: null, players: s.players, handsPerMatch: s.handsPerMatch }));
      }
    } else {
      below.dataset.hand = '';
      below.replaceChildren();
    }
    tick();
  }

  function tick() {
    paintBetween(below.querySelector('.settlement-between'), s.countdown(Date.now()),
      s.between && s.between.ready, nameOf);
  }

  const conn = new Connection(code, null, {
    onMessage: (msg) => {
      const out = s.receive(msg, Date.now());
      if (msg.type === 'error' && msg.code === 'no_spectators') fatal = 'no_spectators';
      if (out.chat && !isMuted((s.players || [])[out.chat.seat])) {
        const said = { say: out.chat.say, at: Date.now() };
        chats[out.chat.seat] = said;
        paintBubbles();
        setTimeout(() => { if (chats[out.chat.seat] === said) { delete chats[out.chat.seat]; paintBubbles(); } }, BUBBLE_MS + 50);
      }
      if (out.between) tick();
      if (out.render || out.matchEnd || out.ended) draw();
    },
    onStatus: (st, info) => setConnStatus(st, info),
    onFatal: (reason) => { fatal = reason; draw(); },
  });
  const ticker = setInterval(tick, 250);
  const unLang = onLangChange(() => { below.dataset.hand = ''; draw(); });
  window.__kwxWatch = { state: s, conn };
  draw();
  conn.start();
  return () => {
    gone = true;
    conn.stop();
    clearInterval(ticker);
    unLang();
    setConnStatus(null);
    setRoomBar(null);
  };
}
