// The lobby: nickname; create a room (rule preset, the towns' presets apart, rule options with
// short explanations grouped by rule, number of hands, bots and their level for the other
// seats, time per decision); join a room
// by its code; rooms you have a seat in; a link to the replays.
// The presets, the rule options (choices, rule numbers, label keys) and the bots come from the
// server (GET /api/rules, GET /api/bots): this file lists none of them.

import { api } from './api.js';
import { el } from './dom.js';
import { t } from './i18n.js';
import { groupOf, RULE_GROUPS, valueLabel } from './rulegroups.js';
import { publicRoomsCard, quickCard } from './findgame.js';
import { ensurePlayer, joinFair, openRoom } from './seating.js';
import { allSeats, getNick, getPlayer, saveSeat, setNick } from './store.js';
import { toast } from './ui.js';

const HUMAN = 'human';  // a seat kept open for a friend (the server's seat kind)
const HANDS_OPTION = 'hands_per_match';  // asked for as the room's number of hands (R12.1)

let schemas = null;  // one fetch of {rules, bots} per page load

/** ``{rules, bots}`` from the server (cached); rejects with the server's explanation. */
export function loadSchemas() {
  if (!schemas) {
    schemas = Promise.all([api.rules(), api.bots()]).then(([rules, bots]) => {
      const failed = [rules, bots].find((r) => !r.ok);
      if (failed) throw new Error(failed.error);
      return { rules: rules.data, bots: bots.data };
    });
    schemas.catch(() => { schemas = null; });  // try again on the next render
  }
  return schemas;
}

/** The options a room form offers (schema order), without the number of hands. */
export function formOptions(rules) {
  return rules.options.filter((o) => o.offered.length && o.name !== HANDS_OPTION);
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

/** The text of an offered value ``{value, label}``: its label, or its JSON without one. */
function valueText(offered) {
  const text = t(offered.label);
  return text === offered.label ? JSON.stringify(offered.value) : text;
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
  const me = getPlayer();  // a player plays under their name (issue 16)
  nick.value = me ? me.name : getNick();
  nick.readOnly = Boolean(me);
  nick.addEventListener('change', () => setNick(nick.value.trim()));
  const nickCard = el('section', 'card nick-card');
  nickCard.appendChild(field(t('nickname'), nick, t(me ? 'nickname_player_help' : 'nickname_help')));
  const who = el('p', 'who-links');
  const link = el('a', null, t(me ? 'my_profile' : 'sign_in_link'));
  link.href = me ? `#/player/${me.player_id}` : '#/login';
  who.appendChild(link);
  nickCard.appendChild(who);
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

  // create a room: the form is drawn once the rules and bots have come from the server
  const create = el('section', 'card create-card');
  create.appendChild(el('h2', null, t('create_title')));
  const loading = el('p', 'muted', t('loading'));
  create.appendChild(loading);
  loadSchemas().then(({ rules, bots }) => {
    loading.replaceWith(createForm(rules, bots, needNick, onEnter));
  }, (e) => {
    loading.textContent = t('load_failed', { message: e.message });
  });

  const cols = el('div', 'lobby-cols');
  cols.appendChild(create);
  const side = el('div', 'side');
  // new to the game: the guided first hand and the rules (issue 35), first in the side column
  // (the create form's fields keep their place above its button)
  const learn = el('section', 'card learn-card');
  learn.appendChild(el('h2', null, t('learn_title')));
  const tut = el('a', 'button primary tut-link', t('tut_nav'));
  tut.href = '#/tutorial';
  const rules = el('a', 'button rules-link', t('howto_title'));
  rules.href = '#/rules';
  const links = el('div', 'learn-links');
  links.append(tut, rules);
  learn.appendChild(links);
  side.appendChild(learn);
  if (joinCode) page.appendChild(join);  // a shared link: joining comes first
  // find opponents (issue 35): quick match once the presets are known, the public rooms
  const quickSpot = el('div', 'quick-spot');
  side.appendChild(quickSpot);
  loadSchemas().then(({ rules }) => {
    quickSpot.replaceWith(quickCard(() => presetSelect(rules), needNick, joinFair, onEnter));
  }, () => quickSpot.remove());
  if (!joinCode) side.appendChild(join);
  side.appendChild(publicRoomsCard(needNick, joinFair, onEnter));

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

/** The preset menu: the general presets, then the towns (a preset with a ``town``) apart. */
function presetSelect(rules) {
  const s = el('select');
  s.name = 'preset';
  const groups = [['presets_general', false], ['presets_towns', true]];
  for (const [label, towns] of groups) {
    const group = el('optgroup');
    group.label = t(label);
    for (const [name, p] of Object.entries(rules.presets)) {
      if (Boolean(p.town) !== towns) continue;
      const o = el('option', null, t(p.label));
      o.value = name;
      if (name === rules.default_preset) o.selected = true;
      group.appendChild(o);
    }
    if (group.children.length) s.appendChild(group);
  }
  return s;
}

/**
 * The rule options of the form, one select each (value '' = as the preset), laid out by the
 * chosen preset: the options every room picks (``rules.common``) first, then those the town
 * also plays (its ``alternatives``, their values starred), then the rest in collapsed groups
 * by rule chapter (rulegroups.js). ``arrange(preset)`` lays them out again for a preset and
 * names its value in each "as preset" choice; ``chosen()`` is {option: value} of the changes.
 */
function optionsPanel(rules) {
  const common = el('div', 'opt-grid common-opts');
  const town = el('section', 'town-opts');
  const townTitle = el('h3', null, '');
  const townGrid = el('div', 'opt-grid');
  town.append(townTitle, el('p', 'help', t('town_opts_help')), townGrid);
  const adv = el('details', 'advanced');
  adv.appendChild(el('summary', null, t('advanced_rules')));
  adv.appendChild(el('p', 'help', t('advanced_help')));
  const groups = {};
  for (const g of RULE_GROUPS) {
    const box = el('details', 'optgroup');
    box.dataset.group = g.key;
    const sum = el('summary', null, t(g.key));
    const grid = el('div', 'opt-grid');
    box.append(sum, grid);
    adv.appendChild(box);
    groups[g.key] = { box, sum, grid };
  }
  const rows = [];
  for (const option of formOptions(rules)) {
    const s = select(`opt_${option.name}`, [['', ''],  // its text names the preset's value
      ...option.offered.map((o) => [JSON.stringify(o.value), valueText(o)])], '');
    const f = field(t(option.label), s, t(option.help));
    f.classList.add('opt');
    f.dataset.option = option.name;
    f.appendChild(el('small', 'rule-ref', option.rule));  // the rule number, as small print
    s.addEventListener('change', () => f.classList.toggle('changed', s.value !== ''));
    rows.push({ option, select: s, field: f });
  }
  const arrange = (presetName) => {
    const preset = rules.presets[presetName];
    const alternatives = (preset.town && preset.town.alternatives) || {};
    let inTown = 0;
    for (const row of rows) {
      const { option, select: s, field: f } = row;
      const value = option.name in preset.options ? preset.options[option.name] : option.default;
      s.options[0].textContent = t('as_preset_value', { value: valueLabel(option, value, t) });
      const starred = new Set((alternatives[option.name] || []).map((v) => JSON.stringify(v)));
      option.offered.forEach((o, i) => {
        const key = JSON.stringify(o.value);
        s.options[i + 1].textContent = valueText(o) + (starred.has(key) ? ' ★' : '');
      });
      if (rules.common.includes(option.name)) common.appendChild(f);
      else if (starred.size) { townGrid.appendChild(f); inTown += 1; }
      else groups[groupOf(option.rule)].grid.appendChild(f);
    }
    town.hidden = !inTown;
    townTitle.textContent = preset.town ? t('town_opts', { town: preset.town.name }) : '';
    for (const g of Object.values(groups)) {
      const n = g.grid.children.length;
      g.box.hidden = !n;
      g.sum.textContent = `${t(g.box.dataset.group)} (${n})`;
    }
  };
  const chosen = () => {
    const out = {};
    for (const { option, select: s } of rows) if (s.value !== '') out[option.name] = JSON.parse(s.value);
    return out;
  };
  return { common, town, adv, arrange, chosen };
}

/**
 * The form that creates a room, from the served schemas: ``rules`` of GET /api/rules (presets,
 * options with their offered values and label keys) and ``bots`` of GET /api/bots (the seat
 * choices, strongest first, and the suggested bot). ``needNick()`` is the checked nickname or
 * null; ``onEnter(code)`` opens the room.
 */
function createForm(rules, bots, needNick, onEnter) {
  const form = el('form', 'create-form');
  // the create button at the top too, in sight at once, with the one after the fields: neither
  // floats over the form, so no field or help text is ever under a button (issue 35)
  const now = el('button', 'primary create-top', t('create'));
  now.type = 'submit';
  form.appendChild(now);
  const presetHelp = (name) => t(rules.presets[name].help);
  const preset = presetSelect(rules);
  const presetHelpText = el('small', 'help preset-help', presetHelp(rules.default_preset));
  const panel = optionsPanel(rules);
  preset.addEventListener('change', () => {
    presetHelpText.textContent = presetHelp(preset.value);
    panel.arrange(preset.value);
  });
  const pf = field(t('rules_preset'), preset);
  pf.appendChild(presetHelpText);
  form.appendChild(pf);
  const handsOption = rules.options.find((o) => o.name === HANDS_OPTION);
  const hands = select('hands', handsOption.offered.map(({ value }) => [String(value), t('hands_n', { n: value })]),
    String(handsOption.default));
  form.appendChild(field(t('hands'), hands, t('hands_help')));
  const seatChoices = [...bots.choices.map((c) => [c.spec, t(c.label)]), [HUMAN, t('seatkind_' + HUMAN)]];
  const seat1 = select('seat1', seatChoices, bots.suggested);
  const seat2 = select('seat2', seatChoices, bots.suggested);
  const seats = el('div', 'row2');
  seats.appendChild(field(t('seat_right_label'), seat1));
  seats.appendChild(field(t('seat_left_label'), seat2));
  form.appendChild(seats);
  form.appendChild(el('small', 'help', t('seats_help')));
  const decision = select('decision', ['10', '15', '20', '30', '60'].map((s) => [s, t('seconds_n', { n: s })]), '20');
  form.appendChild(field(t('decision_time'), decision, t('decision_help')));
  form.append(panel.common, panel.town, panel.adv);
  panel.arrange(preset.value);
  const pub = el('input');
  pub.type = 'checkbox';
  pub.name = 'public';
  const publicLabel = el('label', 'check public-check');
  publicLabel.append(pub, el('span', null, ` ${t('create_public')}`));
  form.appendChild(publicLabel);
  form.appendChild(el('small', 'help', t('create_public_help')));

  const cbtn = el('button', 'primary create-btn', t('create'));
  cbtn.type = 'submit';
  form.appendChild(cbtn);
  form.addEventListener('submit', async (ev) => {
    ev.preventDefault();
    const n = needNick();
    if (!n) return;
    const body = {
      preset: preset.value, options: panel.chosen(), hands: Number(hands.value),
      seats: [HUMAN, seat1.value, seat2.value],
      decision_seconds: Number(decision.value), public: pub.checked,
    };
    cbtn.disabled = true;
    const who = await ensurePlayer(n);  // no room is made for a name that cannot be had
    if (who.error) {
      cbtn.disabled = false;
      toast(t('create_failed', { message: who.error }), 'error');
      return;
    }
    const r = await openRoom(body, n);
    cbtn.disabled = false;
    if (!r.ok) {
      toast(t('create_failed', { message: r.error }), 'error');
      return;
    }
    onEnter(r.data.code);
  });
  return form;
}
