// The action bar under my hand: the buttons of the legal actions the view gives (view.legal,
// grouped by verb: win, pung, kongs, 亮倒, pass, 漂, discards), the 提示 button and the hint
// panel (the expert's ranking the server sent, hint.js). Nothing here decides legality.

import { el } from './dom.js';
import { HINT_SHOWN, hintLines } from './hint.js';
import { lang, t } from './i18n.js';
import { tileEl, tileName } from './tiles.js';

/** The 亮倒 choices of the legal actions: [{tile, variants: [{action, hidden}], waits}], the
 * waits each discard leaves from view.declare_waits (R8.1; R8.6 variants keep them). */
export function declareChoices(view) {
  const waitsOf = view.declare_waits || {};
  const byTile = new Map();
  for (const a of view.legal) {
    if (a[1] !== 'discard' || a[3] !== 'declare') continue;
    if (!byTile.has(a[2])) byTile.set(a[2], { tile: a[2], variants: [], waits: waitsOf[a[2]] || [] });
    byTile.get(a[2]).variants.push({ action: a, hidden: a[4] || [] });
  }
  return [...byTile.values()];
}

/** Group the legal actions of a view for the action bar. */
export function actionGroups(view) {
  const legal = view.legal || [];
  const out = { win: null, pung: null, kong: [], declare: false, pass: null, piao: [], discards: new Set() };
  for (const a of legal) {
    const verb = a[1];
    if (verb === 'win') out.win = a;
    else if (verb === 'pung') out.pung = a;
    else if (verb === 'kong' || verb === 'concealed_kong' || verb === 'added_kong') out.kong.push(a);
    else if (verb === 'pass') out.pass = a;
    else if (verb === 'piao') out.piao.push(a);
    else if (verb === 'discard' && a[3] === 'declare') out.declare = true;
    else if (verb === 'discard') out.discards.add(a[2]);
  }
  // R13.2: a lone pass means no option on the tile on the table; the server passes for us
  if (!out.win && !out.pung && !out.kong.length) out.pass = null;
  return out;
}

function actionButton(label, key, verb, handler, extra) {
  const b = el('button', `act act-${verb}`);
  b.type = 'button';
  b.dataset.verb = verb;
  b.dataset.key = verb;  // the focus stays on this action, not on what takes its place
  b.appendChild(el('span', 'label', label));
  if (extra) b.appendChild(extra);
  if (key) {
    b.appendChild(el('kbd', 'key', key));
    b.title = `${label} (${key})`;
  }
  b.onclick = handler;
  return b;
}

/** The action bar of my seat (model: the table's model; handlers: act, toggleDeclare, hint,
 * closeHint, hintPick). */
export function actionsEl(model, handlers) {
  const { view } = model;
  const bar = el('div', 'actions');
  if (model.readOnly) return bar;
  const g = actionGroups(view);
  const disabled = Boolean(model.busy);
  if (g.piao.length) {
    bar.appendChild(el('span', 'prompt', t('choose_piao')));
    for (const a of g.piao) {
      const b = actionButton(t('piao_n', { n: a[2] }), null, 'piao', () => handlers.act(a));
      b.dataset.key = `piao-${a[2]}`;
      bar.appendChild(b);
    }
  }
  if (g.win) {
    const label = view.phase === 'turn' ? t('act_selfdraw') : view.phase === 'rob' ? t('act_rob') : t('act_win');
    bar.appendChild(actionButton(label, 'H', 'win', () => handlers.act(g.win)));
  }
  if (g.pung) bar.appendChild(actionButton(t('act_pung'), 'P', 'pung', () => handlers.act(g.pung)));
  g.kong.forEach((a, i) => {
    const label = a[1] === 'kong' ? t('act_kong') : a[1] === 'concealed_kong' ? t('act_concealed_kong') : t('act_added_kong');
    const extra = a[2] ? tileEl(a[2], { lang: lang(), cls: 'mini' }) : null;
    const b = actionButton(label, i === 0 ? 'K' : null, a[1], () => handlers.act(a), extra);
    if (a[2]) {
      b.dataset.tile = a[2];
      b.dataset.key = `${a[1]}-${a[2]}`;
      b.setAttribute('aria-label', `${label} ${tileName(a[2], lang())}`);
    }
    bar.appendChild(b);
  });
  if (g.declare) {
    const b = actionButton(model.declareMode ? t('act_declare_cancel') : t('act_declare'), 'L', 'declare', () => handlers.toggleDeclare());
    if (model.declareMode) b.classList.add('on');
    b.setAttribute('aria-pressed', String(Boolean(model.declareMode)));
    bar.appendChild(b);
  }
  if (g.pass) bar.appendChild(actionButton(t('act_pass'), 'Space', 'pass', () => handlers.act(g.pass)));
  if (!g.win && !g.pung && !g.kong.length && !g.pass && !g.piao.length && g.discards.size) {
    bar.appendChild(el('span', 'prompt', model.declareMode ? t('prompt_declare') : t('prompt_discard')));
  }
  if (model.hintable) bar.appendChild(hintButton(model, handlers));
  if (disabled) bar.querySelectorAll('button').forEach((b) => { b.disabled = true; });
  return bar;
}

/** The 提示 button: asks the server for the expert's ranking (model.hintState: null, 'pending',
 * 'open'); a second press closes the panel. */
function hintButton(model, handlers) {
  const pending = model.hintState === 'pending';
  const b = actionButton(pending ? t('hint_pending') : t('act_hint'), 'T', 'hint', () => handlers.hint());
  b.dataset.focusKey = 'hint';
  b.setAttribute('aria-label', t('hint_aria'));
  b.setAttribute('aria-expanded', String(model.hintState === 'open'));
  b.setAttribute('aria-controls', 'hint-panel');
  if (pending) { b.classList.add('pending'); b.setAttribute('aria-busy', 'true'); }
  if (model.hintState === 'open') b.classList.add('on');
  return b;
}

/** The hint answer (model.hint, of the view shown): the best HINT_SHOWN choices, each the action
 * in words with its tile, its expected value in base units and its reasons. A plain discard can
 * be picked: that raises its tile (Enter or a click then discards it, as a selection does). */
export function hintPanel(model, handlers) {
  const { view } = model;
  const panel = el('section', 'hint-panel');
  panel.id = 'hint-panel';
  panel.tabIndex = -1;
  panel.dataset.focusKey = 'hint-panel';
  panel.setAttribute('aria-label', t('hint_title'));
  const head = el('div', 'hint-head');
  head.appendChild(el('span', 'title', t('hint_title')));
  const n = model.hint.choices.length;
  head.appendChild(el('span', 'of', n > HINT_SHOWN ? t('hint_of', { k: HINT_SHOWN, n }) : t('hint_all', { n })));
  const close = el('button', 'hint-close', '×');
  close.type = 'button';
  close.dataset.focusKey = 'hint-close';
  close.setAttribute('aria-label', t('hint_close'));
  close.title = t('hint_close');
  close.onclick = () => handlers.closeHint();
  head.appendChild(close);
  panel.appendChild(head);
  const list = el('ol', 'hint-list');
  for (const line of hintLines(model.hint, { phase: view.phase })) {
    const li = el('li', 'hint-choice');
    li.dataset.rank = line.rank;
    li.dataset.key = `${line.rank}`;
    li.dataset.verb = line.action[1];
    if (line.tile) li.dataset.tile = line.tile;
    const pickable = line.action[1] === 'discard' && line.action[3] !== 'declare' && !model.busy;
    const what = el(pickable ? 'button' : 'span', 'what');
    if (pickable) {
      what.type = 'button';
      what.dataset.focusKey = `hint-${line.rank}`;
      what.title = t('hint_pick_title');
      what.onclick = () => handlers.hintPick(line.action);
    }
    what.appendChild(el('span', 'rank', `${line.rank}`));
    if (line.tile) what.appendChild(tileEl(line.tile, { lang: lang(), cls: 'mini' }));
    what.appendChild(el('span', 'words', line.words));
    const row = el('div', 'hint-line');
    row.appendChild(what);
    const ev = el('span', 'ev' + (line.ev > 0.005 ? ' plus' : line.ev < -0.005 ? ' minus' : ''), line.evText);
    ev.title = t('hint_ev_title');
    row.appendChild(ev);
    li.appendChild(row);
    if (line.reasons.length) {
      const why = el('div', 'reasons');
      for (const r of line.reasons) why.appendChild(el('span', 'reason', r));
      li.appendChild(why);
    }
    list.appendChild(li);
  }
  panel.appendChild(list);
  return panel;
}
