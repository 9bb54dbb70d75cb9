// The strings of the page (web/static/js/i18n/zh.js and en.js) and their lookup (i18n.js):
// both languages have exactly the same keys and the same {placeholders}; t() fills them and
// falls back to the key. Run: node --test tests/js/

import assert from 'node:assert/strict';
import { test } from 'node:test';

import { en } from '../../src/kawuxing/web/static/js/i18n/en.js';
import { zh } from '../../src/kawuxing/web/static/js/i18n/zh.js';
import { lang, setLang, STRINGS, t } from '../../src/kawuxing/web/static/js/i18n.js';

const holes = (text) => [...text.matchAll(/\{(\w+)\}/g)].map((m) => m[1]).sort();

test('zh and en have exactly the same keys, each a non-empty string', () => {
  assert.deepEqual(Object.keys(en).sort(), Object.keys(zh).sort());
  assert.ok(Object.keys(zh).length > 300);
  for (const table of [zh, en]) {
    for (const [key, text] of Object.entries(table)) assert.ok(typeof text === 'string' && text.length, key);
  }
});

test('each key has the same placeholders in both languages', () => {
  for (const key of Object.keys(zh)) assert.deepEqual(holes(en[key]), holes(zh[key]), key);
});

test('t() looks up the chosen language, fills placeholders, falls back to the key', () => {
  assert.equal(STRINGS.zh, zh);
  assert.equal(lang(), 'zh');  // Chinese by default
  assert.equal(t('title'), '卡五星');
  setLang('en');
  assert.equal(t('title'), 'Ka Wu Xing 卡五星');
  assert.equal(t('hand_of', { n: 2, total: 4 }), en.hand_of.replace('{n}', '2').replace('{total}', '4'));
  assert.equal(t('no_such_key_here'), 'no_such_key_here');
  setLang('fr');  // not a language of the page: unchanged
  assert.equal(lang(), 'en');
  setLang('zh');
});
