// A room's rules page: every option in force in this room (the room's RuleSet as the server
// sends it: `rules` of the welcome message and of GET /api/rooms/{code}), each with its label,
// its value and its rule number; the options that differ from the standard rules first, then
// the rest by topic (rulegroups.js). Labels, defaults and the presets come from GET /api/rules:
// this file decides nothing about what a rule does.

import { el } from './dom.js';
import { t } from './i18n.js';
import { groupOf, RULE_GROUPS, valueLabel } from './rulegroups.js';

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
  const tbl = el('table', `rules-table ${cls}`);
  const head = el('tr');
  const cols = withStandard ? ['rules_col_option', 'rules_col_room', 'rules_col_standard', 'rules_col_rule']
    : ['rules_col_option', 'rules_col_room', 'rules_col_rule'];
  for (const h of cols) head.appendChild(el('th', null, t(h)));
  const thead = el('thead');
  thead.appendChild(head);
  const body = el('tbody');
  body.append(...rows);
  tbl.append(thead, body);
  return tbl;
}

/**
 * The rules page of a room. ``schema``: GET /api/rules; ``rules``: the room's RuleSet as JSON
 * ({option: value}); ``presetName``: the room's preset (or null). The differences from the
 * standard rules come first (``.rules-diff``), then every other option by topic
 * (``.rules-same``); a row whose value is not the preset's is marked ``room-set``.
 */
export function rulesPageEl(schema, rules, presetName) {
  const box = el('div', 'rules-page');
  box.appendChild(el('h2', null, t('rules_title')));
  const preset = presetName ? schema.presets[presetName] : null;
  if (preset) {
    const line = el('p', 'rules-preset');
    line.appendChild(el('strong', null, t('rules_preset_line', { preset: t(preset.label) })));
    line.appendChild(el('span', 'muted', ` ${t(preset.help)}`));
    box.appendChild(line);
  }
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
