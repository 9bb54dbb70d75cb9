// The lobby: nickname; create a room (rule preset, rule options with short explanations,
// number of hands, bots and their level for the other seats, time per decision); join a room
// by its code; rooms you have a seat in; a link to the replays.

import { api } from './api.js';
import { newEntropy } from './fairness.js';
import { t } from './i18n.js';
import { allSeats, getNick, saveFair, saveSeat, setNick } from './store.js';
import { toast } from './ui.js';

export const PRESETS = ['standard', 'capped', 'flat8', 'strict', 'app'];

// option -> choices (JSON values); the first choice of each select is "as the preset says"
export const OPTIONS = [
  ['cap', [null, 8, 16, 32, 64], 'R9.5'],
  ['min_multiplier_discard_win', [2, 1], 'R7.3'],
  ['double_win', [true, false], 'R4.3'],
  ['robbing_kong', [true, false], 'R7.4'],
  ['missed_win_exception', ['bigger', 'none'], 'R7.5'],
  ['mutual_declared', ['double', 'single'], 'R8.5'],
  ['declare_hide_triplets', [false, true], 'R8.6'],
  ['feeding_declared', ['allowed', 'forbidden_if_safe_tile'], 'R8.7'],
  ['draw_compensation', ['per_declarer', 'first_declarer', 'none'], 'R10.2'],
  ['piao_choices', [[], [0, 1, 2, 5]], 'R11.1'],
  ['concealed_kong_visible', [false, true], 'R6.1'],
  ['direct_kong_pay', [2, 1], 'R6.3'],
  ['last_discard_bonus', [false, true], 'R9.1'],
  ['an_si_gui_on_discard', [true, false], 'R9.1'],
  ['si_gui_in_hand', ['flush', 'any_pattern', 'win_tile_only'], 'R9.4'],
  ['cap_excludes_declare', [false, true], 'R9.6'],
  ['suits', [['p', 's'], ['m', 'p'], ['m', 's']], 'R1.1'],
  ['first_dealer', ['random', 'seat0'], 'R2.1'],
  ['draw_dealer', ['stay', 'declarer'], 'R2.2'],
];

export const SEAT_CHOICES = ['heuristic:3', 'heuristic:2', 'heuristic:1', 'random', 'human'];

function el(tag, cls, text) {
  const e = document.createElement(tag);
  if (cls) e.className = cls;
  if (text !== undefined && text !== null) e.textContent = text;
  return e;
}

function field(labelText, control, help) {
  const wrap = el('label', 'field');
  wrap.appendChild(el('span', 'flabel', labelText));
  wrap.appendChild(control);
  if (help) wrap.appendChild(el('small', 'help', help));
  return wrap;
}

function select(name, choices, value) {
  const s = el('select');
  s.name = name;
  for (const [v, label] of choices) {
    const o = el('option', null, label);
    o.value = v;
    if (v === value) o.selected = true;
    s.appendChild(o);
  }
  return s;
}

export function optionValueLabel(name, value) {
  const key = `opt_${name}_${JSON.stringify(value).replace(/[^a-z0-9_]/gi, '')}`;
  const text = t(key);
  return text === key ? JSON.stringify(value) : text;
}

/**
 * Join a seat with my entropy for the room's open commitment (``commit`` of the room state):
 * the join may deal the first hand, so the entropy goes with it (docs/fairness.md). The
 * commitment and my entropy are kept for the check at the end of the hand.
 */
async function joinFair(code, nickname, seat, commit) {
  if (!commit) return api.join(code, nickname, seat);
  const mine = newEntropy();
  const r = await api.join(code, nickname, seat, { entropy: mine, commitment: commit.commitment });
  if (r.ok) {
    saveFair(r.data.code || code, commit.hand, {
      commitment: commit.commitment, hand_id: commit.hand_id, dealer: commit.dealer, mine,
      accepted: Boolean(r.data.entropy),
    });
  }
  return r;
}

function nicknameOk(nick) {
  const clean = nick.trim();
  return clean.length >= 1 && clean.length <= 24;
}

/** Draw the lobby into ``root``; ``joinCode`` prefills the join form (a shared link). */
export function renderLobby(root, { joinCode, onEnter }) {
  const page = el('div', 'screen lobby');
  const hero = el('div', 'hero');
  hero.appendChild(el('h1', null, t('title')));
  hero.appendChild(el('p', 'tagline', t('tagline')));
  page.appendChild(hero);

  // nickname, used by both forms
  const nick = el('input', 'nick');
  nick.name = 'nickname';
  nick.maxLength = 24;
  nick.autocomplete = 'nickname';
  nick.placeholder = t('nickname_ph');
  nick.value = getNick();
  nick.addEventListener('change', () => setNick(nick.value.trim()));
  const nickCard = el('section', 'card nick-card');
  nickCard.appendChild(field(t('nickname'), nick, t('nickname_help')));
  page.appendChild(nickCard);

  const needNick = () => {
    const v = nick.value.trim();
    if (!nicknameOk(v)) {
      toast(t('nickname_needed'), 'warn');
      nick.focus();
      return null;
    }
    setNick(v);
    return v;
  };

  // join by code
  const join = el('section', 'card join-card');
  join.appendChild(el('h2', null, t('join_title')));
  const jform = el('form', 'join-form');
  const code = el('input', 'code');
  code.name = 'code';
  code.maxLength = 12;
  code.autocapitalize = 'characters';
  code.placeholder = 'K7QXMA';
  code.value = joinCode || '';
  code.addEventListener('input', () => { code.value = code.value.toUpperCase(); });
  jform.appendChild(field(t('room_code'), code));
  const jbtn = el('button', 'primary', t('join'));
  jbtn.type = 'submit';
  jform.appendChild(jbtn);
  jform.addEventListener('submit', async (ev) => {
    ev.preventDefault();
    const c = code.value.replace(/\s+/g, '').toUpperCase();
    if (!c) { code.focus(); return; }
    const mine = allSeats()[c];
    if (mine) { onEnter(c); return; }
    const n = needNick();
    if (!n) return;
    jbtn.disabled = true;
    const info = await api.room(c);
    const r = await joinFair(c, n, undefined, info.ok ? info.data.commit : null);
    jbtn.disabled = false;
    if (!r.ok) {
      toast(t(r.status === 404 ? 'join_no_room' : 'join_failed', { message: r.error }), 'error');
      return;
    }
    saveSeat(r.data.code || c, r.data.seat, r.data.token, n);
    onEnter(r.data.code || c);
  });
  join.appendChild(jform);
  if (joinCode) join.classList.add('highlight');

  // create a room
  const create = el('section', 'card create-card');
  create.appendChild(el('h2', null, t('create_title')));
  const form = el('form', 'create-form');
  const preset = select('preset', PRESETS.map((p) => [p, t('preset_' + p)]), 'standard');
  const presetHelp = el('small', 'help preset-help', t('preset_help_standard'));
  preset.addEventListener('change', () => { presetHelp.textContent = t('preset_help_' + preset.value); });
  const pf = field(t('rules_preset'), preset);
  pf.appendChild(presetHelp);
  form.appendChild(pf);
  const hands = select('hands', [1, 2, 4, 8, 12, 16].map((n) => [String(n), t('hands_n', { n })]), '8');
  form.appendChild(field(t('hands'), hands, t('hands_help')));
  const seatChoices = SEAT_CHOICES.map((s) => [s, t('seatkind_' + s.replace(':', '_'))]);
  const seat1 = select('seat1', seatChoices, 'heuristic:2');
  const seat2 = select('seat2', seatChoices, 'heuristic:2');
  const seats = el('div', 'row2');
  seats.appendChild(field(t('seat_right_label'), seat1));
  seats.appendChild(field(t('seat_left_label'), seat2));
  form.appendChild(seats);
  form.appendChild(el('small', 'help', t('seats_help')));
  const decision = select('decision', ['10', '15', '20', '30', '60'].map((s) => [s, t('seconds_n', { n: s })]), '20');
  form.appendChild(field(t('decision_time'), decision, t('decision_help')));

  const adv = el('details', 'advanced');
  adv.appendChild(el('summary', null, t('advanced_rules')));
  adv.appendChild(el('p', 'help', t('advanced_help')));
  const optSelects = {};
  const grid = el('div', 'opt-grid');
  adv.appendChild(grid);
  for (const [name, choices, rule] of OPTIONS) {
    const s = select(`opt_${name}`, [['', t('as_preset')], ...choices.map((v) => [JSON.stringify(v), optionValueLabel(name, v)])], '');
    optSelects[name] = s;
    const f = field(`${t('optname_' + name)} · ${rule}`, s, t('opthelp_' + name));
    f.classList.add('opt');
    grid.appendChild(f);
  }
  form.appendChild(adv);

  const cbtn = el('button', 'primary create-btn', t('create'));
  cbtn.type = 'submit';
  form.appendChild(cbtn);
  form.addEventListener('submit', async (ev) => {
    ev.preventDefault();
    const n = needNick();
    if (!n) return;
    const options = {};
    for (const [name, s] of Object.entries(optSelects)) if (s.value !== '') options[name] = JSON.parse(s.value);
    const body = {
      preset: preset.value, options, hands: Number(hands.value),
      seats: ['human', seat1.value, seat2.value],
      decision_seconds: Number(decision.value),
    };
    cbtn.disabled = true;
    // create, then take seat 0 with my entropy for the first deal (which this join may start)
    const made = await api.createRoom(body);
    const r = made.ok ? await joinFair(made.data.code, n, 0, made.data.room.commit) : made;
    cbtn.disabled = false;
    if (!r.ok) {
      toast(t('create_failed', { message: r.error }), 'error');
      return;
    }
    saveSeat(r.data.code, r.data.seat, r.data.token, n);
    onEnter(r.data.code);
  });
  create.appendChild(form);

  const cols = el('div', 'lobby-cols');
  cols.appendChild(create);
  const side = el('div', 'side');
  if (joinCode) page.appendChild(join);  // a shared link: joining comes first
  else side.appendChild(join);

  // rooms with a seat
  const mine = Object.entries(allSeats());
  const rooms = el('section', 'card rooms-card');
  rooms.appendChild(el('h2', null, t('my_rooms')));
  if (!mine.length) rooms.appendChild(el('p', 'muted', t('no_rooms')));
  const list = el('ul', 'room-list');
  for (const [c, info] of mine) {
    const li = el('li');
    const a = el('a', null, c);
    a.href = `#/room/${c}`;
    li.appendChild(a);
    li.appendChild(el('span', 'muted', ` ${info.nick || ''}`));
    const status = el('span', 'status muted', '');
    li.appendChild(status);
    list.appendChild(li);
    api.room(c).then((r) => {
      status.textContent = r.ok ? ` · ${t('status_' + r.data.status)}` : ` · ${t('status_gone')}`;
    });
  }
  rooms.appendChild(list);
  side.appendChild(rooms);

  const replays = el('section', 'card replays-card');
  replays.appendChild(el('h2', null, t('replays')));
  replays.appendChild(el('p', 'muted', t('replays_help')));
  const rl = el('a', 'button', t('open_replays'));
  rl.href = '#/replays';
  replays.appendChild(rl);
  side.appendChild(replays);
  cols.appendChild(side);
  page.appendChild(cols);
  root.replaceChildren(page);
  if (joinCode) (nick.value ? jbtn : nick).focus();
}
