// The table: three seats around a centre (you at the bottom, 下家 on the right, 上家 on the
// left: play goes counter-clockwise, R1.2); each seat's discards in rows of six in front of it,
// its melds at its right, a 亮倒 hand face up with its live waits; in the centre the wall, the
// dice (when the view has them), the dealer and the seat in turn; your hand with the actions the
// server says are legal (view.legal). Built from a seat view (engine/views.py seat_view) each time
// it changes and patched into the page (dom.js patch: what stays is kept, so focus stays and only
// what is new animates): the view is the truth — waits (view.declare_waits, view.ready_waits, a
// declared seat's waits) and unseen counts (view.unseen) come with it; nothing re-derives a rule.

import { el, patch } from './dom.js';
import { actionGroups, actionsEl, declareChoices, hintPanel } from './actionbar.js';
import { compassEl } from './compass.js';
import { winIndex } from './effects.js';
import { lang, t } from './i18n.js';
import { tileEl, tileName } from './tiles.js';
import { parseTiles } from './notation.js';
import { avatarEl, botLevel, connects, playerName, position, positionLabel, presenceEls } from './seats.js';

/** A meld as the view gives it: a concealed kong shows two backs and two faces where the view
 * gives its tile (its owner, everyone once the hand ends, option concealed_kong_visible) and
 * four backs where the tile is null (R6.1: the engine decides, not this page). */
function meldEl(meld, i) {
  const box = el('span', `meld meld-${meld.kind}`);
  box.dataset.key = `${i}-${meld.kind}`;  // a pung that becomes a kong enters anew
  box.title = t('meld_' + meld.kind);
  box.setAttribute('role', 'group');
  box.setAttribute('aria-label', meld.tile
    ? `${t('meld_' + meld.kind)} ${tileName(meld.tile, lang())}` : t('meld_' + meld.kind));
  const n = meld.kind === 'pung' ? 3 : 4;
  for (let i = 0; i < n; i++) {
    if (meld.kind === 'concealed_kong') {
      const faceUp = meld.tile && (i === 1 || i === 2);
      box.appendChild(faceUp ? tileEl(meld.tile, { lang: lang() }) : tileEl(null, { back: true, title: t('meld_concealed_kong') }));
    } else {
      box.appendChild(tileEl(meld.tile, { lang: lang() }));
    }
  }
  return box;
}

/** Unseen copies of a tile as the view's seat sees it (view.unseen, R13.1). */
export function unseen(view, code) {
  return (view.unseen && view.unseen[code]) || 0;
}

/** My hand as display order: the sorted concealed tiles with the drawn tile apart at the end. */
export function handLayout(view) {
  return splitDrawn(view.hand, view.drawn);
}

/** The codes of an MPSZ hand with the tile just drawn (if any) taken out and shown apart. */
function splitDrawn(text, drawnCode) {
  const codes = parseTiles(text);
  let drawn = null;
  if (drawnCode) {
    const i = codes.lastIndexOf(drawnCode);
    if (i >= 0) { codes.splice(i, 1); drawn = drawnCode; }
  }
  return { codes, drawn };
}

/** Who a seat is, for labels: '我' for the seat at the bottom of a game, else '上家 老张'; a
 * spectator's or a replay's bottom seat is nobody's 我: '座位 1 阿明'. */
export function seatWho(model, seat) {
  if (seat === model.seat && !model.readOnly) return t('pos_me');
  const pos = seat === model.seat ? t('seat_n', { n: seat + 1 }) : positionLabel(seat, model.seat);
  return t('seat_who', { pos, name: playerName(model.players, seat) });
}

function seatHead(model, seat) {
  const { view, players, totals } = model;
  const s = view.seats[seat];
  const head = el('div', 'head');
  const pos = el('span', 'pos', positionLabel(seat, model.seat));
  if (!(model.watching && seat === model.seat)) head.appendChild(pos);  // a spectator is not 我
  head.appendChild(avatarEl(players, seat));
  const name = el('span', 'name', playerName(players, seat));
  head.appendChild(name);
  const p = players && players[seat];
  if (p && p.kind === 'bot') {  // the level as a tag (老张 · 困难), or 托管 for a seat a player left
    const tag = el('span', 'badge bot', p.vacated ? t('bot_took_over') : botLevel(p) || 'AI');
    tag.title = p.vacated ? t('bot_took_over_title') : t('bot');
    head.appendChild(tag);
  }
  if (view.dealer === seat) head.appendChild(el('span', 'badge dealer', t('dealer_short')));
  if (s.piao !== null && s.piao !== undefined && (model.rules?.piao_choices || []).length) {
    head.appendChild(el('span', 'badge piao', t('piao_n', { n: s.piao })));
  }
  if (s.declared) head.appendChild(el('span', 'badge declared', t('declared_badge')));
  // the match standing the server sent with the view, or in a replay the hand's deltas
  const score = totals ? totals[seat] : view.deltas[seat];
  const sc = el('span', 'score' + (score > 0 ? ' plus' : score < 0 ? ' minus' : ''), (score > 0 ? '+' : '') + score);
  sc.title = t('score_title');
  head.appendChild(sc);
  if (connects(p) && !model.replay) head.append(...presenceEls(model, seat, p));  // (a replay: nobody online or not)
  return head;
}

/** A seat's discards in rows of six (a real table's river), the one on the table or the last
 * one marked; tiles a pung or kong took are dimmed. */
function riverEl(model, seat) {
  const { view } = model;
  const s = view.seats[seat];
  const river = el('div', 'river');
  river.dataset.seat = seat;
  river.setAttribute('role', 'group');
  river.setAttribute('aria-label', t('discards_of', { who: seatWho(model, seat) }));
  s.discards.forEach((code, i) => {
    let cls = s.claimed[i] ? 'taken' : '';
    const last = i === s.discards.length - 1;
    if (last && view.table && view.table.seat === seat && !view.table.robbing) cls += ' on-table';
    else if (last && model.lastDiscard && model.lastDiscard.seat === seat) cls += ' last';
    const name = tileName(code, lang());
    const title = s.claimed[i] ? `${name} · ${t('taken')}` : cls.includes('on-table') || cls.includes('last') ? `${name} · ${t('last_discard')}` : undefined;
    const tile = tileEl(code, { lang: lang(), cls, title });
    if (title) tile.setAttribute('aria-label', title);
    tile.dataset.key = `${i}`;
    river.appendChild(tile);
  });
  return river;
}

function waitsEl(view, codes, label) {
  const box = el('div', 'waits');
  box.appendChild(el('span', 'label', label || t('waits')));
  for (const code of codes) {
    const w = el('span', 'wait');
    w.dataset.key = code;
    w.appendChild(tileEl(code, { lang: lang() }));
    const n = unseen(view, code);
    const left = el('span', 'left' + (n === 0 ? ' dead' : ''), `×${n}`);
    left.title = t('unseen_title', { n });
    w.appendChild(left);
    box.appendChild(w);
  }
  if (!codes.length) box.appendChild(el('span', 'muted', '—'));
  return box;
}

/** A seat's state as classes: in turn, declared (亮倒), won (the hand's result names it). */
function seatState(box, view, seat) {
  if (view.turn === seat && view.phase !== 'ended') box.classList.add('turn');
  if (view.seats[seat].declared) box.classList.add('is-declared');
  if (view.result && (view.result.winners || []).includes(seat)) box.classList.add('won');
}

function opponentEl(model, seat) {
  const { view } = model;
  const s = view.seats[seat];
  const posName = position(seat, model.seat);
  const box = el('section', `seat opp opp-${posName}`);
  box.dataset.seat = seat;
  box.dataset.key = `seat-${seat}`;
  box.setAttribute('aria-label', seatWho(model, seat));
  seatState(box, view, seat);
  box.appendChild(seatHead(model, seat));
  const row = el('div', 'hand-row');
  const melds = el('span', 'melds');
  melds.setAttribute('role', 'group');
  melds.setAttribute('aria-label', t('melds_of', { who: seatWho(model, seat) }));
  s.melds.forEach((m, i) => melds.appendChild(meldEl(m, i)));
  if (s.revealed !== undefined && s.revealed !== null) {
    const shown = el('span', 'tiles revealed');
    shown.dataset.key = 'revealed';  // appears (turns face up) once, at the 亮倒
    shown.setAttribute('role', 'group');
    shown.setAttribute('aria-label', t('hand_of_who', { who: seatWho(model, seat) }));
    // the whole-table view (views.table_view) gives each seat's tile just drawn: shown apart
    const { codes, drawn } = splitDrawn(s.revealed, s.drawn);
    const winAt = drawn ? -1 : winIndex(model, seat, codes);
    codes.forEach((code, i) => shown.appendChild(tileEl(code, { lang: lang(), cls: i === winAt ? 'win-tile' : '' })));
    // the face-down groups of a 亮倒 (R8.6, R8.11): how many tiles, never which
    for (let i = 0; i < (s.hidden_tiles || 0); i++) shown.appendChild(tileEl(null, { back: true, title: t('hidden_triplet') }));
    if (drawn) {
      shown.appendChild(tileEl(drawn, { lang: lang(), cls: drawn === (model.winTiles || {})[seat] ? 'drawn win-tile' : 'drawn' }));
    } else if (view.turn === seat && view.phase === 'turn' && s.declared && !model.revealAll) {
      shown.appendChild(tileEl(null, { back: true, cls: 'drawn', title: t('drawn_tile') }));
    }
    row.appendChild(shown);
  } else {
    const backs = el('span', 'tiles backs');
    backs.dataset.key = 'backs';
    backs.setAttribute('role', 'img');
    backs.setAttribute('aria-label', t('concealed_count', { n: s.concealed_count }));
    for (let i = 0; i < s.concealed_count; i++) backs.appendChild(tileEl(null, { back: true }));
    row.appendChild(backs);
    const count = el('span', 'count', `×${s.concealed_count}`);
    count.setAttribute('aria-hidden', 'true');
    count.title = t('concealed_count', { n: s.concealed_count });
    row.appendChild(count);
  }
  row.appendChild(melds);
  box.appendChild(row);
  if (s.declared) box.appendChild(waitsEl(view, s.waits || [], t('declared_waits')));
  box.appendChild(riverEl(model, seat));
  box.appendChild(calloutEl(model, seat));
  return box;
}

/** The call-out of a seat (碰！ 杠！ 胡！ …) while it shows, keyed so each one pops anew. */
function calloutEl(model, seat) {
  const c = model.callouts && model.callouts[seat];
  const box = el('div', 'callout-slot');
  box.setAttribute('aria-hidden', 'true');  // the live region says it in words
  if (c) {
    const pop = el('div', 'callout', c.text);
    pop.dataset.key = String(c.id);
    box.appendChild(pop);
  }
  return box;
}

function declarePanel(model, handlers) {
  const choices = declareChoices(model.view);
  const panel = el('div', 'declare-panel');
  panel.appendChild(el('div', 'title', t('declare_title')));
  panel.appendChild(el('div', 'hint', t('declare_hint')));
  const list = el('div', 'options');
  for (const ch of choices) {
    const row = el('div', 'option');
    row.dataset.tile = ch.tile;
    row.dataset.key = ch.tile;
    const discard = el('button', 'pick');
    discard.type = 'button';
    discard.appendChild(el('span', 'label', t('discard_verb')));
    discard.appendChild(tileEl(ch.tile, { lang: lang() }));
    discard.setAttribute('aria-label', `${t('discard_verb')} ${tileName(ch.tile, lang())} · ${t('act_declare')}`);
    const plain = ch.variants.find((v) => !v.hidden.length) || ch.variants[0];
    discard.onclick = () => handlers.act(plain.action);
    row.appendChild(discard);
    row.appendChild(waitsEl(model.view, ch.waits, t('then_waits')));
    const total = ch.waits.reduce((n, code) => n + unseen(model.view, code), 0);
    row.appendChild(el('span', 'live', t('live_tiles', { n: total })));
    for (const v of ch.variants) {
      if (!v.hidden.length) continue;
      const b = el('button', 'hide-variant', t('declare_hiding', { tiles: v.hidden.map((c) => tileName(c, lang())).join(' ') }));
      b.type = 'button';
      b.dataset.key = v.hidden.join('');
      b.onclick = () => handlers.act(v.action);
      row.appendChild(b);
    }
    list.appendChild(row);
  }
  panel.appendChild(list);
  return panel;
}

/** Keys of my hand's tiles: a sorted tile by the hand's number, its kind and copy ('0:5p.1'),
 * the tile just drawn by the wall count it was drawn at, so that a new deal and a new draw
 * enter anew and a kept tile keeps its element (and the focus) when others move. */
export function handKeys(codes, drawn, wall, handNo = '') {
  const seen = {};
  const keys = codes.map((c) => { seen[c] = (seen[c] || 0) + 1; return `${handNo}:${c}.${seen[c]}`; });
  if (drawn) keys.push(`${handNo}:drawn-${drawn}-${wall}`);
  return keys;
}

function meEl(model, handlers) {
  const { view } = model;
  const seat = model.seat;
  const s = view.seats[seat];
  const box = el('section', 'seat me');
  box.dataset.seat = seat;
  box.dataset.key = 'me';
  box.setAttribute('aria-label', model.readOnly ? seatWho(model, seat) : t('your_seat'));
  seatState(box, view, seat);
  box.appendChild(seatHead(model, seat));
  const g = actionGroups(view);
  box.appendChild(actionsEl(model, handlers));
  if (model.chatSpot) {  // the room of the 快捷语 button in my plate's row: it never covers a tile or a key
    const spot = el('div', 'chat-spot');
    spot.dataset.key = 'chat-spot';
    spot.setAttribute('aria-hidden', 'true');
    box.appendChild(spot);
  }
  if (model.tipNode) box.appendChild(model.tipNode);  // a first-hand tip (tips.js)
  // ready hint: my waits when declared, else what a 13-tile hand waits on
  const info = el('div', 'me-info');
  if (s.declared) info.appendChild(waitsEl(view, s.waits || [], t('declared_waits')));
  else if (!model.readOnly && (view.ready_waits || []).length) {
    info.appendChild(waitsEl(view, view.ready_waits, t('ready_waits')));
  }
  box.appendChild(info);
  if (model.declareMode && g.declare) box.appendChild(declarePanel(model, handlers));
  const row = el('div', 'hand-row');
  const melds = el('span', 'melds');
  melds.setAttribute('role', 'group');
  melds.setAttribute('aria-label', t('melds_of', { who: seatWho(model, seat) }));
  s.melds.forEach((m, i) => melds.appendChild(meldEl(m, i)));
  const hand = el('div', 'hand');
  hand.setAttribute('role', 'group');
  hand.setAttribute('aria-label', model.readOnly ? t('hand_label_of', { who: seatWho(model, seat) }) : t('your_hand'));
  const { codes, drawn } = handLayout(view);
  const declareTiles = model.declareMode ? new Set(declareChoices(view).map((c) => c.tile)) : null;
  const all = drawn ? [...codes, drawn] : codes;
  const keys = handKeys(codes, drawn, view.wall, model.handNo ?? '');
  const myTurn = !model.readOnly && (g.discards.size > 0 || declareTiles);
  const winAt = winIndex(model, seat, all);
  // a spectator (model.watching) sees the bottom seat's hand face down until 亮倒 or the end (R13)
  if (model.watching && !all.length) for (let i = 0; i < s.concealed_count; i++) hand.appendChild(tileEl(null, { back: true }));
  all.forEach((code, i) => {
    const isDrawn = drawn !== null && i === all.length - 1;
    const can = declareTiles ? declareTiles.has(code) : g.discards.has(code);
    const cls = [isDrawn ? 'drawn' : '', i === winAt ? 'win-tile' : '', model.selected === i ? 'selected' : '', myTurn && !can ? 'dim' : '', myTurn && can ? 'can' : '']
      .filter(Boolean).join(' ');
    const b = tileEl(code, { tag: model.readOnly ? 'span' : 'button', lang: lang(), cls });
    b.dataset.idx = i;
    b.dataset.key = keys[i];
    if (isDrawn) {
      b.dataset.drawn = '1';
      b.setAttribute('aria-label', `${tileName(code, lang())} · ${t('drawn_tile')}`);
    }
    if (!model.readOnly) {
      if (!myTurn || !can || model.busy) b.setAttribute('aria-disabled', 'true');
      if (model.selected === i) b.setAttribute('aria-pressed', 'true');
      b.onclick = (ev) => handlers.tile(i, code, ev);
    }
    hand.appendChild(b);
  });
  row.appendChild(hand);
  row.appendChild(melds);  // at my right, as on a real table
  box.appendChild(row);
  if (model.hint && !model.readOnly) {
    box.classList.add('with-hint');
    box.appendChild(hintPanel(model, handlers));
  }
  box.appendChild(calloutEl(model, seat));
  return box;
}

/**
 * Draw the table into ``root``, patching the board already there (dom.js patch). model: {view,
 * seat, handNo (the hand's number in the match, if known), players, totals (the match standing
 * sent with the view, or null: the hand's deltas),
 * rules, readOnly, revealAll, replay (a hand's replay: no online dots), chatSpot (room for the 快捷语 button, game.js), selected, declareMode, busy, lastDiscard, callouts ({seat: {id,
 * text}}), hintable (show the 提示 button), hintState (null, 'pending', 'open'), hint (the
 * `hint` answer of this view, or null), tipNode (a first-hand tip strip, tips.js, or null), bannerNode
 * (the win banner, effects.js, or null), winTiles (each winner's winning tile once the hand has
 * ended, {seat: code}: winTilesOf)}. handlers: {act(action), tile(index, code, event),
 * toggleDeclare(), hint(), closeHint(), hintPick(action)}. Returns the board element.
 */
export function renderTable(root, model, handlers) {
  const { view } = model;
  const board = el('div', 'board');
  board.dataset.phase = view.phase;
  if (view.turn !== null && view.turn !== undefined && view.phase !== 'ended') board.dataset.turn = position(view.turn, model.seat);
  const left = (model.seat + 2) % 3;
  const right = (model.seat + 1) % 3;
  board.appendChild(opponentEl(model, left));
  const center = el('div', 'center');
  const compass = compassEl(model);
  center.appendChild(compass);
  const mine = el('div', 'my-river');
  mine.appendChild(riverEl(model, model.seat));
  center.appendChild(mine);
  board.appendChild(center);
  board.appendChild(opponentEl(model, right));
  board.appendChild(meEl(model, handlers));
  if (model.bannerNode) compass.appendChild(model.bannerNode);  // the win banner (effects.js), over the compass alone
  const old = root.querySelector(':scope > .board');
  if (!old) {
    root.prepend(board);
    return board;
  }
  // focus on what goes (a tile discarded, an action taken) moves on, not to the page: a tile
  // to its kind's next copy, else its place in the hand; an action to the next action, else
  // a tile I may discard
  const focused = document.activeElement;
  const was = focused && old.contains(focused) ? focused : null;
  const inHand = Boolean(was && was.closest('.hand'));
  patch(old, board);
  const now = document.activeElement;  // the hand is over: no tile stays focused (its ring is no win mark)
  if (view.phase === 'ended' && now && old.contains(now) && now.closest('.hand')) now.blur();
  else if (was && !was.isConnected) {
    const hand = old.querySelector('.hand');
    const next = (inHand && hand && (hand.querySelector(`.tile[data-code="${was.dataset.code}"]`)
      || hand.querySelector(`.tile[data-idx="${Math.min(Number(was.dataset.idx), hand.children.length - 1)}"]`)))
      || old.querySelector('.actions button:not([disabled])') || old.querySelector('.hand .tile.can, .hand .tile');
    if (next) next.focus({ preventScroll: true });
  }
  return old;
}
