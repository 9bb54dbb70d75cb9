// The lookup of the page's texts: the language chosen (kept in localStorage; at first the
// browser's: Chinese or English, else Chinese),
// t(key, vars) and transferText(). The strings live in i18n/zh.js and i18n/en.js (same keys).
// t(key, vars) fills {name} placeholders; a key missing in one language falls back to the other.

import { en } from './i18n/en.js';
import { zh } from './i18n/zh.js';
import { getLangPref, setLangPref } from './store.js';

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

export function t(key, vars) {
  let text = STRINGS[current][key];
  if (text === undefined) text = STRINGS[current === 'zh' ? 'en' : 'zh'][key];
  if (text === undefined) return key;
  if (vars) text = text.replace(/\{(\w+)\}/g, (m, k) => (vars[k] === undefined ? m : String(vars[k])));
  return text;
}

/**
 * A transfer's reason in the current language, from its kind and parameters (one entry of
 * view.result.transfers: {kind, payer, payee, amount, rule, ...params}, transfers.py).
 * names(keys) gives the pattern names of a hand-value transfer (default: the keys).
 */
export function transferText(tr, names = (keys) => keys) {
  const vars = { ...tr };
  if (tr.patterns) vars.patterns = names(tr.patterns).join('+');
  if (tr.mode) vars.mode = t('transfer_mode_' + tr.mode);
  let text = t('transfer_' + tr.kind, vars);
  if (tr.factor > 1) text += t('transfer_chain', vars);
  return text;
}
