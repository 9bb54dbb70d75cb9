// The lookup of the page's texts: the language chosen (kept in localStorage; at first the
// browser's: Chinese or English, else Chinese),
// t(key, vars) and transferText(). The strings live in i18n/zh.js and i18n/en.js (same keys).
// t(key, vars) fills {name} placeholders (a count n of 1: the key's `_one` text, English singulars);
// a key missing in one language falls back to the other.

import { en } from './i18n/en.js';
import { zh } from './i18n/zh.js';
import { getLangPref, setLangPref } from './store.js';
import { tileName } from './tiles.js';

/** The strings by language: STRINGS.zh, STRINGS.en ({key: text}, the same keys in both). */
export const STRINGS = { zh, en };

function initialLang() {
  const saved = getLangPref();
  if (saved === 'zh' || saved === 'en') return saved;
  // else the browser's languages in order: the first Chinese or English one decides
  const wanted = typeof window !== 'undefined' && window.navigator
    ? (window.navigator.languages || [window.navigator.language]) : [];
  for (const tag of wanted) {
    if (/^zh\b/i.test(tag || '')) return 'zh';
    if (/^en\b/i.test(tag || '')) return 'en';
  }
  return 'zh';
}

let current = initialLang();
const listeners = new Set();

export function lang() { return current; }

export function setLang(next) {
  if (next !== 'zh' && next !== 'en') return;
  current = next;
  setLangPref(next);
  for (const fn of [...listeners]) fn(next);
}

/** Call fn(lang) on each switch; returns a function that stops it. */
export function onLangChange(fn) {
  listeners.add(fn);
  return () => listeners.delete(fn);
}

/** Whether ``key`` has a text (in either language). */
export function hasText(key) {
  return STRINGS.zh[key] !== undefined || STRINGS.en[key] !== undefined;
}

/** The text of ``key`` in the page's language, {name} placeholders filled from ``vars``; a
 * count ``n`` of 1 takes the ``<key>_one`` text where there is one ("1 hand", not "1 hands"). */
export function t(key, vars) {
  if (vars && Number(vars.n) === 1 && hasText(`${key}_one`)) key = `${key}_one`;
  let text = STRINGS[current][key];
  if (text === undefined) text = STRINGS[current === 'zh' ? 'en' : 'zh'][key];
  if (text === undefined) return key;
  if (vars) text = text.replace(/\{(\w+)\}/g, (m, k) => (vars[k] === undefined ? m : String(vars[k])));
  return text;
}

/**
 * A transfer's reason in the current language, from its kind and parameters (one entry of
 * view.result.transfers: {kind, payer, payee, amount, rule, ...params}, scoring/transfers.py):
 * ``transfer_<kind>`` (a 查叫 with a ``wait``: ``transfer_cha_jiao_wait``), then what a town
 * option changed (scoring/transfers.py, VARIANTS.md R18.3): 杠上杠, 包胡 shares, 亮倒 doubling, 过胡翻番,
 * 上楼, the third player's 漂. names(keys) gives the pattern names of a hand-value transfer
 * (default: the keys); tiles (horses, a 查叫 wait) are named in the current language.
 */
export function transferText(tr, names = (keys) => keys) {
  const vars = { ...tr };
  if (tr.patterns) vars.patterns = names(tr.patterns).join('+');
  if (tr.mode) vars.mode = t('transfer_mode_' + tr.mode);
  if (tr.tiles) vars.tiles = tr.tiles.map((c) => tileName(c, current)).join(' ');
  if (tr.wait) vars.wait = tileName(tr.wait, current);
  for (const side of ['payer_class', 'payee_class']) if (tr[side]) vars[side] = t('cha_jiao_class_' + tr[side]);
  const perShare = Array.isArray(tr.shares);  // a hand value's shares (包胡), else their number
  if (perShare) vars.shares = tr.shares.map((m) => `×${m}`).join(' + ');
  let text = t('transfer_' + tr.kind + (tr.kind === 'cha_jiao' && tr.wait ? '_wait' : ''), vars);
  if (tr.factor > 1) text += t('transfer_chain', vars);
  if (perShare) text += t('transfer_shares', vars);
  else if (tr.shares > 1) text += t('transfer_shares_n', vars);
  if (tr.declared_doubling > 1) text += t('transfer_declared_doubling', vars);
  if (tr.passed_wins) text += t('transfer_passed_wins', vars);
  if (tr.dice) text += t('transfer_dice', vars);
  if (tr.base_factor > 1) text += t('transfer_base_factor', vars);
  if (tr.third_piao !== undefined) text += t('transfer_third_piao', vars);
  return text;
}
