// Replays: the finished hands the server keeps (GET /api/hands), and a viewer that steps
// forward and back through one hand, drawn with the same table as live play. Every step is a
// frame the engine built (GET /api/hands/{match}/{n}/frames, records.replay_frames): the
// viewer only draws them. A player of the match (this browser's player token, issue 16) sees
// it as any seat, with every hand face up or as the public saw it, and gets the record itself
// (GET /api/hands/{match}/{n}) for the fair-deal check and the download; anyone else sees the
// public perspective only (R13: what a spectator saw, no concealed tile before 亮倒 or the end).

import { api } from './api.js';
import { el } from './dom.js';
import { verifyRecord } from './fairness.js';
import { lang, t } from './i18n.js';
import { reviewPanel } from './review.js';
import { settlementEl } from './settle.js';
import { getPlayer } from './store.js';
import { playerName } from './seats.js';
import { renderTable } from './table.js';
import { tileName } from './tiles.js';
import { lobbyLink, toast } from './ui.js';

const icon = (d) => `<svg viewBox="0 0 24 24" width="18" height="18" aria-hidden="true"><path d="${d}" fill="currentColor"/></svg>`;
const ICONS = {
  first: icon('M4 5h2.5v14H4zM13 5v14L7 12zM20 5v14l-6-7z'),
  prev: icon('M16 5v14L8 12z'),
  play: icon('M6 5v14l11-7z'),
  pause: icon('M6 5h4v14H6zM14 5h4v14h-4z'),
  next: icon('M8 5v14l8-7z'),
  last: icon('M17.5 5H20v14h-2.5zM4 5v14l6-7zM11 5v14l6-7z'),
};

function describe(action, names) {
  if (!action) return t('step_deal');
  const [seat, verb] = action;
  const who = names[seat] || t('seat_n', { n: seat + 1 });
  const tile = action[2] && typeof action[2] === 'string' ? ` ${tileName(action[2], lang())}` : '';
  switch (verb) {
    case 'discard': return action[3] === 'declare' ? `${who} ${t('step_declare')}${tile}` : `${who} ${t('step_discard')}${tile}`;
    case 'pung': return `${who} ${t('act_pung')}`;
    case 'kong': return `${who} ${t('act_kong')}`;
    case 'concealed_kong': return `${who} ${t('act_concealed_kong')}${tile}`;
    case 'added_kong': return `${who} ${t('act_added_kong')}${tile}`;
    case 'pass': return `${who} ${t('act_pass')}`;
    case 'win': return `${who} ${t('act_win')}`;
    case 'piao': return `${who} ${t('piao_n', { n: action[2] })}`;
    default: return `${who} ${verb}`;
  }
}

/** The caption of a public frame (no record: R13), from the events it shows. */
function describeEvents(events, step, names) {
  if (!step) return t('step_deal');
  const who = (seat) => names[seat] || t('seat_n', { n: seat + 1 });
  const tile = (e) => (e.tile ? ` ${tileName(e.tile, lang())}` : '');
  const find = (type) => events.find((e) => e.type === type);
  const win = find('win');
  if (win) return `${who(win.seat)} ${t('act_win')}`;
  const kong = find('kong') || find('adding_kong');
  const KONG_KEY = { concealed_kong: 'act_concealed_kong', added_kong: 'act_added_kong' };
  if (kong) return `${who(kong.seat)} ${t(kong.type === 'adding_kong' ? 'act_added_kong' : KONG_KEY[kong.kind] || 'act_kong')}${tile(kong)}`;
  const pung = find('pung');
  if (pung) return `${who(pung.seat)} ${t('act_pung')}`;
  const discard = find('discard');
  if (discard) return `${who(discard.seat)} ${t(find('declare') ? 'step_declare' : 'step_discard')}${tile(discard)}`;
  const piao = find('piao');
  if (piao) return t('piao_n', { n: piao.piao.join(' / ') });
  const chosen = find('piao_chosen');
  if (chosen) return `${who(chosen.seat)} ${t('piao_n', { n: '✓' })}`;
  const draw = find('draw');
  if (draw) return `${who(draw.seat)} ${t('step_draw')}`;
  return find('hand_end') ? t('step_end') : '';
}

const FAIR_MARK = { verified: 'fair_verified', mismatch: 'fair_mismatch', unavailable: 'fair_unavailable', none: 'fair_none' };

/** The record's fair deal, checked here with Web Crypto (docs/fairness.md), and the record to
 * download for kawuxing verify. */
function fairLine(record, matchId, number) {
  const line = el('div', 'replay-fair');
  line.dataset.status = 'checking';
  line.appendChild(el('span', 'fair-title', t('fair_title')));
  const mark = el('span', 'mark', t('fair_checking'));
  line.appendChild(mark);
  const f = record.fairness;
  if (f && f.commitment) {
    const code = el('code', 'commit', `${f.commitment.slice(0, 16)}…`);
    code.title = f.commitment;
    line.appendChild(code);
  }
  const dl = el('a', 'download', t('rp_download'));  // the record as fetched (with my token)
  dl.href = URL.createObjectURL(new Blob([JSON.stringify(record)], { type: 'application/json' }));
  dl.download = `kawuxing-${matchId}-${number}.json`;
  dl.title = t('rp_download_help');
  line.appendChild(dl);
  verifyRecord(record).catch(() => ({ status: 'mismatch' })).then((v) => {
    line.dataset.status = v.status;
    mark.textContent = t(FAIR_MARK[v.status] || 'fair_mismatch');
    mark.title = v.status === 'verified' ? t('fair_help_record') : t('fair_help_' + v.status);
  });
  return line;
}

/** The whole-table view (views.table_view) drawn with ``bottom`` at the bottom: that seat's
 * whole hand and tile just drawn in the places of a seat view's own hand. */
function asSeat(view, bottom) {
  const me = view.seats[bottom];
  return { ...view, seat: bottom, hand: me.revealed, drawn: me.drawn, legal: [] };
}

/** The frames of perspective ``key`` ('all': the whole table, 'public', or a seat '0'-'2')
 * as GET …/frames names it. */
const PERSPECTIVE = { all: 'table', public: 'public' };
const keyOf = (perspective) => (perspective === 'table' ? 'all' : String(perspective));

/** The viewer of one hand: #/replay/{match}/{number}, at step ``at.step`` if given (the page
 * is built anew on a language switch). A player of the match (its token: R13, issue 16) may
 * choose any perspective, and has the record; anyone else the public one. Returns a cleanup
 * function. */
export async function renderReplay(root, matchId, number, at = null) {
  const page = el('div', 'screen replay');
  page.appendChild(el('p', 'muted', t('loading')));
  root.replaceChildren(page);
  const me = getPlayer();
  const token = me ? me.token : null;
  const [rec, match, first] = await Promise.all([
    token ? api.hand(matchId, number, token) : Promise.resolve({ ok: false, status: 403 }),
    api.match(matchId), api.frames(matchId, number, null, token)]);
  const failed = !first.ok ? first : (!rec.ok && rec.status !== 403 ? rec : null);
  if (failed) {
    page.replaceChildren(el('h2', null, t('replay')), el('p', 'error', t('load_failed', { message: failed.error })), lobbyLink());
    return () => {};
  }
  const mine = rec.ok;  // a player of this match: every perspective, and the record
  // perspective key -> its frames; the others are fetched when first chosen
  const frames = { [keyOf(first.data.perspective)]: first.data.frames };
  const winEvents = {};
  for (const f of first.data.frames) for (const e of f.events) if (e.type === 'win') winEvents[e.seat] = e;
  const players = match.ok ? match.data.players.map((p) => ({ ...p, connected: true })) : null;
  const names = [0, 1, 2].map((s) => playerName(players, s));
  const handCount = match.ok ? match.data.hands.length : null;
  const state = { step: 0, bottom: keyOf(first.data.perspective), playing: null };
  const shown = () => frames[state.bottom];

  const head = el('div', 'replay-head');
  const title = el('h2', null, `${t('replay')} · ${t('hand_n', { n: number + 1 })}`);
  head.appendChild(title);
  const controls = el('div', 'replay-controls');
  const mk = (icon, cls, fn, titleKey) => {
    const b = el('button', cls);
    b.type = 'button';
    b.innerHTML = ICONS[icon];
    if (titleKey) { b.title = t(titleKey); b.setAttribute('aria-label', t(titleKey)); }
    b.addEventListener('click', fn);
    controls.appendChild(b);
    return b;
  };
  mk('first', 'first', () => go(0), 'rp_first');
  mk('prev', 'prev', () => go(state.step - 1), 'rp_prev');
  const play = mk('play', 'play', () => toggle(), 'rp_play');
  mk('next', 'next', () => go(state.step + 1), 'rp_next');
  mk('last', 'last', () => go(shown().length - 1), 'rp_last');
  const slider = el('input', 'slider');
  slider.type = 'range';
  slider.min = 0;
  slider.value = 0;
  slider.setAttribute('aria-label', t('rp_step'));
  slider.addEventListener('input', () => go(Number(slider.value)));
  controls.appendChild(slider);
  const counter = el('span', 'counter mono');
  controls.appendChild(counter);
  const persp = el('select', 'perspective');
  persp.setAttribute('aria-label', t('rp_as'));
  const choices = mine ? [['all', t('rp_all')], ['public', t('rp_public')], ['0', names[0]], ['1', names[1]], ['2', names[2]]]
    : [['public', t('rp_public')]];
  for (const [v, label] of choices) {
    const o = el('option', null, v === 'all' || v === 'public' ? label : `${t('rp_as')} ${label}`);
    o.value = v;
    persp.appendChild(o);
  }
  persp.value = state.bottom;
  persp.disabled = !mine;
  persp.addEventListener('change', () => choose(persp.value));
  controls.appendChild(persp);
  head.appendChild(controls);
  const caption = el('div', 'caption');
  head.appendChild(caption);
  if (mine) head.appendChild(fairLine(rec.data, matchId, number));
  else head.appendChild(el('p', 'muted replay-public-note', t('rp_public_note')));
  const nav = el('div', 'replay-nav');
  if (number > 0) {
    const prev = el('a', 'button', t('rp_prev_hand'));
    prev.href = `#/replay/${matchId}/${number - 1}`;
    nav.appendChild(prev);
  }
  if (handCount !== null && number + 1 < handCount) {
    const next = el('a', 'button', t('rp_next_hand'));
    next.href = `#/replay/${matchId}/${number + 1}`;
    nav.appendChild(next);
  }
  const back = el('a', 'button', t('back_to_replays'));
  back.href = '#/replays';
  nav.appendChild(back);
  head.appendChild(nav);
  const tableBox = el('div', 'table-screen replay-table');
  const settleBox = el('div', 'replay-settle');
  const reviewBox = el('div', 'replay-review');
  if (mine) head.appendChild(reviewControls());
  page.replaceChildren(head, tableBox, settleBox, reviewBox);

  /** 复盘 (issue 32): a seat (mine by default: the seat with this browser's player name) and
   * a button; the server's review of that seat's decisions opens below the table. */
  function reviewControls() {
    const box = el('div', 'review-controls');
    const pick = el('select', 'review-seat');
    pick.setAttribute('aria-label', t('rv_seat'));
    names.forEach((name, s) => {
      const o = el('option', null, name);
      o.value = String(s);
      pick.appendChild(o);
    });
    const own = me ? names.indexOf(me.name) : -1;
    pick.value = String(own >= 0 ? own : 0);
    const go = el('button', 'review-go', t('rv_button'));
    go.type = 'button';
    go.addEventListener('click', () => showReview(Number(pick.value), go));
    box.append(pick, go);
    return box;
  }

  async function showReview(seat, button) {
    button.disabled = true;
    reviewBox.replaceChildren(el('p', 'muted', t('rv_loading')));
    const got = await api.review(matchId, number, seat, token);
    button.disabled = false;
    if (!got.ok) {
      reviewBox.replaceChildren(el('p', 'error', t('rv_failed', { message: got.error })));
      return;
    }
    reviewBox.replaceChildren(reviewPanel(got.data, names[seat], async (step) => {
      persp.value = String(seat);
      await choose(String(seat));  // the seat's own view at that moment
      go(Math.max(0, shown().findLastIndex((f) => f.step <= step)));
      window.scrollTo({ top: 0 });  // the step's controls and the table in sight
    }));
  }

  /** A perspective's frames, fetched once; then drawn at the same step of the hand (the
   * public frames skip the steps that showed nothing) if it is still the one chosen. */
  async function choose(value) {
    if (!frames[value]) {
      const got = await api.frames(matchId, number, PERSPECTIVE[value] ?? Number(value), token);
      if (!got.ok) { toast(t('load_failed', { message: got.error }), 'error'); persp.value = state.bottom; return; }
      frames[value] = got.data.frames;
    }
    if (persp.value !== value) return;
    const step = shown()[state.step].step;
    state.bottom = value;
    state.step = Math.max(0, shown().findLastIndex((f) => f.step <= step));
    draw();
  }

  function draw() {
    const list = shown();
    const frame = list[state.step];
    const all = state.bottom === 'all';
    const pub = state.bottom === 'public';
    const bottom = all || pub ? 0 : Number(state.bottom);
    let view = frame.view;
    if (all) view = asSeat(view, bottom);
    else if (pub) view = { ...view, seat: bottom, hand: view.seats[bottom].revealed || '', drawn: null, legal: [] };
    const discard = frame.events.find((e) => e.type === 'discard');
    renderTable(tableBox, {
      view, seat: bottom, players, totals: null, rules: first.data.rules, readOnly: true,
      revealAll: all, watching: pub, replay: true, selected: null, declareMode: false, busy: false, callouts: {},
      lastDiscard: discard ? { seat: discard.seat } : null,
    }, { act() {}, tile() {}, toggleDeclare() {} });
    slider.max = list.length - 1;
    slider.value = state.step;
    counter.textContent = `${state.step}/${list.length - 1}`;
    caption.textContent = mine ? describe(frame.step > 0 ? rec.data.actions[frame.step - 1] : null, names)
      : describeEvents(frame.events, frame.step, names);
    if (view.result) {
      settleBox.replaceChildren(settlementEl({
        view, players, seat: all || pub ? null : bottom, totals: null,
        handNo: number, handsPerMatch: match.ok ? match.data.hands_planned : null, winEvents,
        rules: first.data.rules,
      }));
    } else settleBox.replaceChildren();
  }

  function go(i) {
    state.step = Math.max(0, Math.min(shown().length - 1, i));
    if (state.step === shown().length - 1) stop();
    draw();
  }

  function stop() {
    clearInterval(state.playing);
    state.playing = null;
    play.classList.remove('on');
    play.innerHTML = ICONS.play;
  }

  function toggle() {
    if (state.playing) { stop(); return; }
    if (state.step >= shown().length - 1) state.step = 0;
    play.classList.add('on');
    play.innerHTML = ICONS.pause;
    state.playing = setInterval(() => go(state.step + 1), 700);
  }

  const onKey = (e) => {
    if (e.target && ['INPUT', 'SELECT'].includes(e.target.tagName) && e.target.type !== 'range') return;
    if (e.key === 'ArrowRight') { go(state.step + 1); e.preventDefault(); }
    else if (e.key === 'ArrowLeft') { go(state.step - 1); e.preventDefault(); }
    else if (e.key === 'Home') { go(0); e.preventDefault(); }
    else if (e.key === 'End') { go(shown().length - 1); e.preventDefault(); }
    else if (e.key === ' ') { toggle(); e.preventDefault(); }
  };
  document.addEventListener('keydown', onKey);
  window.__kwxReplay = { frames, go, state };
  if (at && at.step) go(at.step); else draw();
  if (!shown().length) toast(t('replay_failed', { message: 'empty' }), 'error');
  return () => {
    stop();
    document.removeEventListener('keydown', onKey);
  };
}
