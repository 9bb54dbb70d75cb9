// 玩法介绍 (issue 35): how 卡五星 is played, from the lobby, for any preset or town — a short
// introduction, then the rules page a room shows (rulespage.js: every pattern with an example
// hand scored by the server under those rules, the options in force). #/rules/{preset}.
// The rules, their values and the scoring come from the server; this page only lays them out.

import { api } from './api.js';
import { el } from './dom.js';
import { t } from './i18n.js';
import { loadSchemas } from './lobby.js';
import { rulesPageEl } from './rulespage.js';
import { lobbyLink } from './ui.js';

const BASICS = ['howto_tiles', 'howto_turn', 'howto_win', 'howto_declare', 'howto_money'];

/** The full rule set of preset ``name`` as {option: value}: the defaults, then the preset's. */
export function presetRules(schema, name) {
  const rules = Object.fromEntries(schema.options.map((o) => [o.name, o.default]));
  return { ...rules, ...((schema.presets[name] || {}).options || {}) };
}

/** Draw #/rules/{preset} into ``root`` (the default preset without one). */
export async function renderHowTo(root, presetName = null) {
  const page = el('div', 'screen howto');
  page.appendChild(el('p', 'muted', t('loading')));
  root.replaceChildren(page);
  let schema;
  try {
    schema = (await loadSchemas()).rules;
  } catch (e) {
    page.replaceChildren(el('p', 'error', t('load_failed', { message: e.message })), lobbyLink());
    return;
  }
  const name = presetName && schema.presets[presetName] ? presetName : schema.default_preset;
  const intro = el('section', 'card howto-intro');
  intro.appendChild(el('h2', null, t('howto_title')));
  if (presetName && name !== presetName) {
    intro.appendChild(el('p', 'note', t('howto_unknown', { name: presetName, shown: t(schema.presets[name].label) })));
  }
  const list = el('ul', 'howto-basics');
  for (const key of BASICS) list.appendChild(el('li', null, t(key)));
  intro.appendChild(list);
  const tut = el('a', 'tut-link', t('tut_link'));  // the guided first hand (tutorial.js)
  tut.href = '#/tutorial';
  intro.appendChild(el('p', null)).appendChild(tut);
  const pick = el('select', 'howto-preset');
  pick.setAttribute('aria-label', t('rules_preset'));
  for (const [key, p] of Object.entries(schema.presets)) {
    const o = el('option', null, t(p.label));
    o.value = key;
    pick.appendChild(o);
  }
  pick.value = name;
  pick.addEventListener('change', () => { location.hash = `#/rules/${pick.value}`; });
  const row = el('label', 'howto-pick');
  row.append(el('span', null, t('howto_pick')), pick);
  intro.appendChild(row);
  const body = el('section', 'card howto-rules');
  body.appendChild(el('p', 'muted', t('loading')));
  page.replaceChildren(intro, body, lobbyLink());
  const rules = presetRules(schema, name);
  const patterns = await api.rulePatterns({ preset: name });
  const rulesPage = rulesPageEl(schema, rules, name, patterns.ok ? patterns.data : null);
  rulesPage.querySelector('h2').textContent = t('howto_rules');  // not a room's: a preset's
  body.replaceChildren(rulesPage);
}
