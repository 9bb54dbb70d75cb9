// The settlement of a hand (view.result, engine/views.py hand_result): the winning hand and its
// reading, each pattern with its × (Chinese name, English gloss on hover), raw product, cap,
// 包胡, then every transfer (who pays whom, how much, why, which rule) and the scores, and the
// fair-deal mark (the browser's own check, fairness.js). And the end of a match: totals and a
// chart of the running scores hand by hand (inline SVG).

import { scoreChart } from './chart.js';
import { el, tableEl } from './dom.js';
import { lang, t, transferText } from './i18n.js';
import { tileEl, tileRow } from './tiles.js';
import { parseTiles } from './notation.js';
import { avatarEl, playerLabel, playerName, positionLabel, SEAT_COLORS } from './seats.js';

function signed(n) { return (n > 0 ? '+' : '') + n; }

function who(ctx, seat) {
  const name = playerName(ctx.players, seat);
  if (ctx.seat === null || ctx.seat === undefined) return name;
  return t('name_with_place', { name, place: seat === ctx.seat ? t('you') : positionLabel(seat, ctx.seat) });
}

/** A meld face up (a concealed kong: two backs, two faces), as the settlement and the rules
 * page's examples show it. */
export function meldEl(meld) {
  const box = el('span', `meld meld-${meld.kind}`);
  box.title = t('meld_' + meld.kind);
  const n = meld.kind === 'pung' ? 3 : 4;
  for (let i = 0; i < n; i++) {
    if (meld.kind === 'concealed_kong' && (i === 0 || i === 3)) box.appendChild(tileEl(null, { back: true }));
    else box.appendChild(tileEl(meld.tile, { lang: lang() }));
  }
  return box;
}

/** A reading (value.reading) as groups of tiles: sets and the pair, or seven pairs. */
function readingEl(reading, winTile) {
  const box = el('div', 'reading');
  let marked = false;
  const mark = (row) => {
    if (marked || !winTile) return;
    const hit = row.querySelector(`[data-code="${winTile}"]`);
    if (hit) { hit.classList.add('win-tile'); marked = true; }
  };
  const group = (codes, label) => {
    const g = el('span', 'group');
    const row = tileRow(codes, { lang: lang() });
    g.appendChild(row);
    if (label) g.appendChild(el('span', 'glabel', label));
    box.appendChild(g);
    return row;
  };
  if (!reading) return box;
  if (reading.seven_pairs) {
    const rows = reading.seven_pairs.map((p) => group([p, p], null));
    rows.reverse().forEach(mark);
  } else {
    const rows = [];
    rows.push(group([reading.pair, reading.pair], t('pair')));
    for (const [kind, tile] of reading.sets) {
      if (kind === 'chow') {
        const k = parseTiles(tile)[0];
        const n = Number(k[0]);
        rows.push(group([k, `${n + 1}${k[1]}`, `${n + 2}${k[1]}`], t('chow')));
      } else rows.push(group([tile, tile, tile], t('pung_set')));
    }
    rows.reverse().forEach(mark);
  }
  return box;
}

function patternsEl(value, rules) {
  const table = el('table', 'patterns');
  const body = el('tbody');
  for (const p of value.patterns) { // a hand with no pattern lists the 屁胡 row (R9.1)
    const tr = el('tr', 'pattern');
    tr.dataset.name = p.name;
    tr.dataset.multiplier = p.multiplier;
    tr.title = `${p.name} — ${p.gloss}${p.note ? ` (${p.note})` : ''} · ${p.rule}`;
    const name = el('td', 'pname');
    name.appendChild(el('span', 'zh', p.name));
    name.appendChild(el('span', 'gloss', p.gloss));
    tr.appendChild(name);
    tr.appendChild(el('td', 'mult', `×${p.multiplier}`));
    tr.appendChild(el('td', 'rule', p.rule));
    body.appendChild(tr);
  }
  table.appendChild(body);
  const foot = el('tfoot');
  const add = (label, val, cls) => {
    const tr = el('tr', cls);
    tr.appendChild(el('td', 'pname', label));
    tr.appendChild(el('td', 'mult', val));
    tr.appendChild(el('td', 'rule', ''));
    foot.appendChild(tr);
  };
  if (value.patterns.length > 1) add(t('raw_product'), `×${value.raw_multiplier}`, 'raw');
  if (value.cap !== null && value.cap !== undefined) add(t('capped_at', { cap: value.cap }), `×${value.multiplier}`, 'cap');
  else if (rules && rules.cap) add(t('cap_not_reached', { cap: rules.cap }), '', 'cap muted');
  else if (rules) add(t('no_cap_short'), '', 'cap muted');
  add(t('hand_multiplier'), `×${value.multiplier}`, 'total');
  if (value.bao_hu) add(t('bao_hu'), '×2', 'bao');
  table.appendChild(foot);
  return table;
}

function winnerEl(ctx, w) {
  const { view, result } = ctx;
  const value = result.values[String(w)];
  const ev = ctx.winEvents ? ctx.winEvents[w] : null;
  const winTile = ev ? ev.tile : null;
  const box = el('div', 'winner');
  box.dataset.seat = w;
  const head = el('div', 'whead');
  head.appendChild(el('span', 'wname', who(ctx, w)));
  const by = value.by === 'self_draw' ? t('by_self_draw') : value.by === 'robbing_kong' ? t('by_robbing') : t('by_discard');
  let byText = by;
  if (ev && ev.from !== null && ev.from !== undefined) byText += ` · ${t('paid_by', { who: playerName(ctx.players, ev.from) })}`;
  head.appendChild(el('span', 'wby', byText));
  head.appendChild(el('span', 'wmult', `×${value.multiplier}`));
  box.appendChild(head);
  // the hand as held, with the winning tile apart
  const s = view.seats[w];
  const codes = parseTiles(s.revealed || (w === view.seat ? view.hand : ''));
  if (winTile && value.by === 'self_draw') {
    const i = codes.lastIndexOf(winTile);
    if (i >= 0) codes.splice(i, 1);
  }
  const hand = el('div', 'whand');
  hand.appendChild(tileRow(codes, { lang: lang() }));
  if (winTile) {
    const wt = tileEl(winTile, { lang: lang(), cls: 'win-tile' });
    wt.title = t('winning_tile');
    hand.appendChild(wt);
  }
  for (const m of s.melds) hand.appendChild(meldEl(m));
  box.appendChild(hand);
  const rd = el('div', 'wreading');
  rd.appendChild(el('span', 'label', t('reading')));
  rd.appendChild(readingEl(value.reading, winTile));
  if (s.melds.length) {
    const ml = el('span', 'group');
    for (const m of s.melds) ml.appendChild(meldEl(m));
    ml.appendChild(el('span', 'glabel', t('melds')));
    rd.querySelector('.reading').appendChild(ml);
  }
  box.appendChild(rd);
  box.appendChild(patternsEl(value, ctx.rules));
  // R14.1: the horses of a self-drawn win are shown to all (the params of its horse transfer)
  const horse = ctx.result.transfers.find((tr) => tr.kind === 'horse' && tr.payee === w);
  if (horse) {
    const row = el('div', 'horses');
    row.appendChild(el('span', 'label', t('horses_label', { value: horse.value })));
    row.appendChild(tileRow(horse.tiles, { lang: lang(), rowCls: 'small' }));
    box.appendChild(row);
  }
  return box;
}

function transfersEl(ctx) {
  const { result } = ctx;
  const box = el('div', 'transfers-box');
  box.appendChild(el('h3', null, t('transfers')));
  if (!result.transfers.length) {
    box.appendChild(el('p', 'muted', t('no_transfers')));
    return box;
  }
  const { table, body } = tableEl('transfers', ['payer', 'payee', 'amount', 'reason'].map((h) => t('col_' + h)));
  // pattern keys of a winner's hand -> their names (value.patterns of that winner)
  const names = (payee) => (keys) => keys.map((k) => {
    const value = result.values[String(payee)];
    const found = value && value.patterns.find((p) => p.key === k);
    return found ? found.name : k;
  });
  for (const tr of result.transfers) {
    const row = el('tr', 'transfer');
    row.dataset.payer = tr.payer;
    row.dataset.payee = tr.payee;
    row.dataset.amount = tr.amount;
    row.dataset.kind = tr.kind;
    row.appendChild(el('td', 'payer', playerName(ctx.players, tr.payer)));
    row.appendChild(el('td', 'payee', playerName(ctx.players, tr.payee)));
    row.appendChild(el('td', 'amount', String(tr.amount)));
    const why = el('td', 'reason');
    why.appendChild(el('span', null, transferText(tr, names(tr.payee))));
    if (tr.rule) why.appendChild(el('span', 'rule', tr.rule));
    row.appendChild(why);
    body.appendChild(row);
  }
  box.appendChild(table);
  return box;
}

function scoresEl(ctx) {
  const { result } = ctx;
  const table = el('table', 'scores');
  const thead = el('thead');
  const hr = el('tr');
  hr.appendChild(el('th', null, ''));
  for (let s = 0; s < 3; s++) {
    const th = el('th', null, playerName(ctx.players, s));
    th.style.color = SEAT_COLORS[s];
    hr.appendChild(th);
  }
  thead.appendChild(hr);
  table.appendChild(thead);
  const body = el('tbody');
  const row = (label, values, cls) => {
    const tr = el('tr', cls);
    tr.appendChild(el('th', null, label));
    values.forEach((v) => tr.appendChild(el('td', v > 0 ? 'plus' : v < 0 ? 'minus' : '', signed(v))));
    body.appendChild(tr);
  };
  row(t('this_hand'), result.deltas, 'deltas');
  if (ctx.totals) row(t('total'), ctx.totals, 'totals');
  table.appendChild(body);
  return table;
}

function handsEl(ctx) {
  const { view, result } = ctx;
  const box = el('div', 'all-hands');
  for (let s = 0; s < 3; s++) {
    if (result.winners.includes(s)) continue;
    const seat = view.seats[s];
    const row = el('div', 'other-hand');
    row.appendChild(el('span', 'oname', playerName(ctx.players, s)));
    const codes = parseTiles(seat.revealed || (s === view.seat ? view.hand : ''));
    row.appendChild(tileRow(codes, { lang: lang(), rowCls: 'small' }));
    for (const m of seat.melds) row.appendChild(meldEl(m));
    if (seat.declared) row.appendChild(el('span', 'badge declared', t('declared_badge')));
    box.appendChild(row);
  }
  return box;
}

const FAIR_MARK = { verified: 'fair_verified', mismatch: 'fair_mismatch', late: 'fair_late', unavailable: 'fair_unavailable', none: 'fair_none', checking: 'fair_checking' };

/**
 * The fair-deal line of a settlement (docs/fairness.md): the commitment received before the
 * deal (short; whole on hover) and the verdict of fairness.js verifyHand — computed in this
 * browser. verdict: {status, problems, commitment}; hand: the hand number.
 */
export function fairnessEl(verdict, hand) {
  const status = (verdict && verdict.status) || 'checking';
  const box = el('div', 'fairness');
  box.dataset.status = status;
  box.dataset.hand = hand;
  box.appendChild(el('span', 'fair-title', t('fair_title')));
  box.appendChild(el('span', 'mark', t(FAIR_MARK[status] || 'fair_checking')));
  if (verdict && verdict.commitment) {
    const label = el('span', 'fair-commit');
    label.appendChild(el('span', 'label', t('fair_commitment')));
    const code = el('code', 'commit', `${verdict.commitment.slice(0, 16)}…`);
    code.title = verdict.commitment;
    code.dataset.full = verdict.commitment;
    label.appendChild(code);
    box.appendChild(label);
  }
  box.appendChild(el('small', 'fair-help', t('fair_help_' + status)));
  if (verdict && verdict.problems && verdict.problems.length) {
    const list = el('ul', 'fair-problems');
    for (const p of verdict.problems) list.appendChild(el('li', null, p));
    box.appendChild(list);
  }
  return box;
}

/**
 * The settlement panel of an ended hand. ctx: {view (with result), players, seat (mine or
 * null), totals (after this hand, or null), handNo, handsPerMatch, winEvents {seat: win
 * event}, rules, fair (the fair-deal verdict, or null: no line)}.
 */
export function settlementEl(ctx) {
  const result = ctx.view.result;
  ctx = { ...ctx, result };
  const box = el('div', 'settlement');
  box.dataset.result = result.result;
  let title;
  if (result.result === 'draw') title = t('result_draw');
  else if (result.winners.length > 1) title = t('result_double');
  else {
    const w = result.winners[0];
    const by = result.values[String(w)].by;
    title = by === 'self_draw' ? t('result_self_draw', { who: playerName(ctx.players, w) })
      : t('result_win', { who: playerName(ctx.players, w) });
  }
  const h = el('h2', null, title);
  if (ctx.handNo !== null && ctx.handNo !== undefined) {
    h.appendChild(el('span', 'handno', t('hand_of', { n: ctx.handNo + 1, total: ctx.handsPerMatch || '?' })));
  }
  box.appendChild(h);
  for (const w of result.winners) box.appendChild(winnerEl(ctx, w));
  if (result.result === 'draw') box.appendChild(el('p', 'draw-note', t('draw_note')));
  box.appendChild(handsEl(ctx));
  box.appendChild(transfersEl(ctx));
  box.appendChild(scoresEl(ctx));
  if (ctx.fair) box.appendChild(fairnessEl(ctx.fair, ctx.handNo));
  return box;
}

/** A rating as shown: R with no decimals ("R1515"). */
export function ratingText(r) { return `R${Math.round(r)}`; }

/** A rating change as shown: one decimal with its sign ("+30.3", "−15.7"; "±0.0"). */
export function deltaText(d) {
  const v = Math.round(d * 10) / 10;
  if (v === 0) return '±0.0';
  return (v > 0 ? '+' : '−') + Math.abs(v).toFixed(1);
}

/** The rating block of the match end: each seat's R before → after and the change, or why the
 * match is not rated. ``rating``: the match_end's (null: nothing to show). */
export function ratingEl(rating, players) {
  if (!rating) return null;
  const box = el('div', 'rating-change');
  box.dataset.rated = String(Boolean(rating.rated));
  box.appendChild(el('h3', null, t('rating_title')));
  if (!rating.rated) {
    box.appendChild(el('p', 'muted', t(`unrated_${rating.reason}`)));
    return box;
  }
  const list = el('ul', 'rating-list');
  for (const s of rating.seats) {
    const li = el('li');
    li.dataset.seat = s.seat;
    const who = el('a', 'who', s.name || playerName(players, s.seat));
    who.href = `#/player/${s.player_id}`;
    li.appendChild(who);
    li.appendChild(el('span', 'r mono', `${ratingText(s.before)} → ${ratingText(s.after)}`));
    li.appendChild(el('span', 'delta mono ' + (s.delta > 0 ? 'plus' : s.delta < 0 ? 'minus' : ''), deltaText(s.delta)));
    list.appendChild(li);
  }
  box.appendChild(list);
  return box;
}

/** The end of a match: standings, the rating change (issue 16) and the chart. ctx: {players,
 * hands (deltas per hand), totals, rating (match_end's: null shows none)}. */
export function matchEndEl(ctx) {
  const box = el('div', 'match-end');
  box.appendChild(el('h2', null, t('match_over')));
  const order = [0, 1, 2].sort((a, b) => ctx.totals[b] - ctx.totals[a]);
  const list = el('ol', 'standings');
  for (const s of order) {
    const li = el('li', null);
    li.dataset.seat = s;
    const who = el('span', 'who');
    who.append(avatarEl(ctx.players, s), el('span', 'sname', playerLabel(ctx.players, s)));
    li.appendChild(who);
    const v = ctx.totals[s];
    li.appendChild(el('span', 'stotal ' + (v > 0 ? 'plus' : v < 0 ? 'minus' : ''), signed(v)));
    li.style.borderColor = SEAT_COLORS[s];
    list.appendChild(li);
  }
  box.appendChild(list);
  const rating = ratingEl(ctx.rating, ctx.players);
  if (rating) box.appendChild(rating);
  const chart = el('div', 'chart-box');
  chart.innerHTML = scoreChart(ctx.hands, [0, 1, 2].map((s) => playerName(ctx.players, s)));
  box.appendChild(chart);
  return box;
}

