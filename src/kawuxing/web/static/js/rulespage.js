// A room's rules page: every pattern (番) with an example hand drawn in tiles, its × under this
// room's rules and the cap (POST /api/rules/patterns: the server scores each example under the
// room's RuleSet, kawuxing/scoring/pattern_table.py); then every option in force in this room (the
// room's RuleSet as the server sends it: `rules` of the welcome message and of GET
// /api/rooms/{code}), each with its label and value in plain words, its rule number as small
// print; the options that differ from the standard rules first, then the rest by topic
// (rulegroups.js). Labels, defaults and the presets come from GET /api/rules: this file decides
// nothing about what a rule does or what a hand is worth.

import { api } from './api.js';
import { el, tableEl } from './dom.js';
import { lang, t } from './i18n.js';
import { loadSchemas } from './lobby.js';
import { groupOf, RULE_GROUPS, valueLabel } from './rulegroups.js';
import { meldEl } from './settle.js';
import { tileEl, tileRow } from './tiles.js';
import { openModal, toast } from './ui.js';

const same = (a, b) => JSON.stringify(a) === JSON.stringify(b);

/** One option's row: name (help on hover), this room's value, the standard value (when it
 * differs: ``withStandard``), rule. */
function row(option, value, presetValue, withStandard) {
  const tr = el('tr', 'rule-row');
  tr.dataset.option = option.name;
  const name = el('td', 'rname', t(option.label));
  name.title = t(option.help);
  tr.appendChild(name);
  const mine = el('td', 'rvalue', valueLabel(option, value, t));
  if (!same(value, presetValue)) {  // the room's creator changed it from the preset
    tr.classList.add('room-set');
    mine.appendChild(el('span', 'badge room-set', t('rules_room_set')));
  }
  tr.appendChild(mine);
  if (withStandard) tr.appendChild(el('td', 'rstd', valueLabel(option, option.default, t)));
  tr.appendChild(el('td', 'rule', option.rule));
  return tr;
}

function table(rows, cls, withStandard) {
  const cols = withStandard ? ['rules_col_option', 'rules_col_room', 'rules_col_standard', 'rules_col_rule']
    : ['rules_col_option', 'rules_col_room', 'rules_col_rule'];
  const { table, body } = tableEl(`rules-table ${cls}`, cols.map((h) => t(h)));
  body.append(...rows);
  return table;
}

/** How the example was won, in words: 自摸 / 点炮 / 抢杠, after a kong, the last tile, 亮倒. */
function howWon(ex) {
  const parts = [t(ex.after_kong ? `pex_${ex.win_by}_after_kong` : `pex_${ex.win_by}`)];
  if (ex.last_tile) parts.push(t('pex_last_tile'));
  if (ex.declared) parts.push(t('pex_declared'));
  return parts.join(' · ');
}

/** The example hand: concealed tiles, the winning tile apart (marked), the melds. */
function exampleEl(ex) {
  const box = el('div', 'pex-hand');
  const hand = tileRow(ex.concealed, { lang: lang() });
  hand.setAttribute('role', 'group');
  hand.setAttribute('aria-label', t('pex_concealed'));
  box.appendChild(hand);
  const win = tileEl(ex.win_tile, { lang: lang(), cls: 'win-tile', title: `${t('pex_win_tile')}: ${ex.win_tile}` });
  win.setAttribute('aria-label', `${t('pex_win_tile')} ${win.getAttribute('aria-label')}`);
  box.appendChild(win);
  if (ex.melds.length) {
    const melds = el('span', 'melds');
    melds.setAttribute('role', 'group');
    melds.setAttribute('aria-label', t('pex_melds'));
    ex.melds.forEach((m) => melds.appendChild(meldEl(m)));
    box.appendChild(melds);
  }
  return box;
}

/** One pattern: name, its × here, what it is in plain words, the example and what it is worth. */
function patternEl(p) {
  const li = el('li', 'pattern-card' + (p.scored ? '' : ' off') + (p.town ? ' town' : ''));
  li.dataset.key = p.key;
  li.dataset.multiplier = p.multiplier === null ? '' : String(p.multiplier);
  const head = el('div', 'pc-head');
  head.appendChild(el('span', 'pc-name', p.name));
  if (lang() !== 'zh') head.appendChild(el('span', 'pc-gloss', p.gloss));
  head.appendChild(el('span', 'pc-mult', p.scored ? `×${p.multiplier}` : t('pex_not_here')));
  li.appendChild(head);
  li.appendChild(el('p', 'pc-desc', t(`pdesc_${p.key}`)));
  const ex = el('div', 'pc-example');
  ex.appendChild(exampleEl(p.example));
  const v = p.value;
  const line = el('p', 'pc-how');
  line.appendChild(el('span', 'pc-by', howWon(p.example)));
  if (v.patterns.length > 1 || v.cap !== null) {
    const names = v.patterns.map((q) => `${q.name} ×${q.multiplier}`).join(' · ');
    line.appendChild(el('span', 'pc-total', t(v.cap !== null ? 'pex_total_capped' : 'pex_total',
      { patterns: names, raw: v.raw_multiplier, total: v.multiplier })));
  } else if (!p.scored) {
    line.appendChild(el('span', 'pc-total', t('pex_scored_as', { patterns: v.patterns.map((q) => `${q.name} ×${q.multiplier}`).join(' · ') })));
  }
  if (v.refusal) {
    line.appendChild(el('span', 'pc-refused', t(`pex_refused_${v.refusal.code}`, { n: v.refusal.minimum })));
  }
  line.appendChild(el('small', 'rule', p.rule.split(' (')[0]));  // the rule numbers: small print
  ex.appendChild(line);
  li.appendChild(ex);
  return li;
}

/** The patterns of the room (POST /api/rules/patterns) and the cap, in words. */
export function patternsEl(table) {
  const box = el('section', 'rules-patterns');
  box.appendChild(el('h3', null, t('pex_title', { n: table.patterns.length })));
  const exceptions = Object.entries(table.cap_exceptions || {});
  const cap = el('p', 'rules-cap');
  cap.appendChild(el('strong', null, table.cap === null ? t('pex_no_cap') : t('pex_cap', { cap: table.cap })));
  if (table.cap !== null && exceptions.length) {
    cap.appendChild(el('span', null, ` ${t('pex_cap_exceptions', { list: exceptions.map(([n, c]) => `${n} ×${c}`).join('、') })}`));
  }
  cap.appendChild(el('span', 'muted', ` ${t('pex_multiply')}`));
  box.appendChild(cap);
  const list = el('ul', 'pattern-list');
  for (const p of table.patterns) list.appendChild(patternEl(p));
  box.appendChild(list);
  return box;
}

/**
 * The rules page of a room. ``schema``: GET /api/rules; ``rules``: the room's RuleSet as JSON
 * ({option: value}); ``presetName``: the room's preset (or null); ``patterns``: POST
 * /api/rules/patterns of those rules (or null: the page goes without them). The patterns come
 * first (``.rules-patterns``), then the differences from the standard rules
 * (``.rules-diff``), then every other option by topic (``.rules-same``); a row whose value is
 * not the preset's is marked ``room-set``.
 */
export function rulesPageEl(schema, rules, presetName, patterns = null) {
  const box = el('div', 'rules-page');
  box.appendChild(el('h2', null, t('rules_title')));
  const preset = presetName ? schema.presets[presetName] : null;
  if (preset) {
    const line = el('p', 'rules-preset');
    line.appendChild(el('strong', null, t('rules_preset_line', { preset: t(preset.label) })));
    line.appendChild(el('span', 'muted', ` ${t(preset.help)}`));
    box.appendChild(line);
  }
  if (patterns) box.appendChild(patternsEl(patterns));
  const presetValue = (o) => (preset && o.name in preset.options ? preset.options[o.name] : o.default);
  const options = schema.options.filter((o) => o.name in rules);
  const differ = options.filter((o) => !same(rules[o.name], o.default));
  box.appendChild(el('h3', null, t('rules_diff', { n: differ.length })));
  if (differ.length) box.appendChild(table(differ.map((o) => row(o, rules[o.name], presetValue(o), true)), 'rules-diff', true));
  else box.appendChild(el('p', 'muted rules-diff-none', t('rules_diff_none')));
  const rest = el('details', 'rules-same');
  rest.appendChild(el('summary', null, t('rules_same', { n: options.length - differ.length })));
  for (const g of RULE_GROUPS) {
    const rows = options.filter((o) => groupOf(o.rule) === g.key && same(rules[o.name], o.default))
      .map((o) => row(o, rules[o.name], presetValue(o), false));
    if (!rows.length) continue;
    rest.appendChild(el('h4', null, t(g.key)));
    rest.appendChild(table(rows, 'rules-group', false));
  }
  box.appendChild(rest);
  box.appendChild(el('p', 'muted rules-note', t('rules_note')));
  return box;
}

/** Open the rules page of a room (``rules``: its RuleSet as JSON, ``preset``: its preset) in the
 * dialog, labelled from GET /api/rules, with the patterns scored by the server under these
 * rules; ``cache`` ({key, table}) keeps the patterns of the last rules asked. ``alive()``: the
 * page that asked is still there. Used by a seat (game-waiting.js) and a spectator (watch.js). */
export async function openRoomRules(rules, preset, cache, alive = () => true) {
  let schema;
  const key = JSON.stringify(rules);
  try {
    schema = (await loadSchemas()).rules;
    if (cache.key !== key) {
      const r = await api.rulePatterns(rules);
      if (!r.ok) throw new Error(r.error);
      Object.assign(cache, { key, table: r.data });
    }
  } catch (e) {
    toast(t('load_failed', { message: e.message }), 'error');
    return;
  }
  if (!alive()) return;
  openModal(rulesPageEl(schema, rules, preset, cache.table), { label: t('rules_title'), wide: true, cls: 'rules-modal' });
}
