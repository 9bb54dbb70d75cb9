// The strings of the page (web/static/js/i18n/zh.js and en.js) and their lookup (i18n.js):
// both languages have exactly the same keys and the same {placeholders}; t() fills them and
// falls back to the key. Run: node --test tests/js/

import assert from 'node:assert/strict';
import { test } from 'node:test';

import { en } from '../../src/kawuxing/web/static/js/i18n/en.js';
import { zh } from '../../src/kawuxing/web/static/js/i18n/zh.js';
import { lang, setLang, STRINGS, t, transferText } from '../../src/kawuxing/web/static/js/i18n.js';

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
  // a count of 1 takes the singular where English has one (the lobby said "1 hands")
  assert.equal(t('hands_n', { n: 1 }), '1 hand');
  assert.equal(t('hands_n', { n: 8 }), '8 hands');
  assert.equal(t('concealed_count', { n: 1 }), '1 tile in hand');
  setLang('zh');
  assert.equal(t('hands_n', { n: 1 }), '1 局');
  setLang('en');
  setLang('fr');  // not a language of the page: unchanged
  assert.equal(lang(), 'en');
  setLang('zh');
});

test('transferText names each transfer kind and what a town option changed (VARIANTS.md R18.3)', () => {
  setLang('zh');
  // R14.2 独马: one horse, 8s, worth 8; R15.1 two 坎 under 包胡 (two shares)
  assert.equal(transferText({ kind: 'horse', tiles: ['8s'], value: 8 }), '买马 八条：马值 8');
  assert.equal(transferText({ kind: 'kan', count: 2, shares: 2 }), '数坎：2 坎，包胡 2 份');
  assert.equal(transferText({ kind: 'kan', count: 1, shares: 1 }), '数坎：1 坎');
  assert.equal(transferText({ kind: 'pao_qia_mo_ba', pao: 1, qia: 1, mo: 1, ba: 2, shares: 1 }),
    '跑恰摸八：跑 1 + 恰 1 + 摸 1 + 八 2');
  // R10.3 查叫: a not-ready player pays a declared one its best wait 5p ×4; flat: 1 each
  assert.equal(transferText({ kind: 'cha_jiao', mode: 'cha_jiao', payer_class: 'not_ready',
    payee_class: 'declared', multiplier: 4, wait: '5p', patterns: ['ka_wu_xing'] }),
  '查叫：未听赔亮倒，听五筒 ×4');
  assert.equal(transferText({ kind: 'cha_jiao', mode: 'cha_jiao_flat', payer_class: 'declared',
    payee_class: 'ready', multiplier: 1 }), '查叫（每家 1）：亮倒赔听牌');
  // 包胡 with shares ×4 and ×2 (R8.8 each), 豹子 (R17.1), the third player's 漂 (R11.5)
  assert.equal(transferText({ kind: 'bao_hu', patterns: ['卡五星'], multiplier: 6, shares: [4, 2],
    declared_doubling: 2, dice: 2 }), '胡牌 卡五星 ×6，包胡加倍（点了亮倒）（两份 ×4 + ×2），亮倒翻倍 ×2，上楼（豹子）×2');
  assert.equal(transferText({ kind: 'piao', payer_piao: 1, payee_piao: 2, third_piao: 5 }),
    '漂 1+2，另替第三家付漂 2+5');
  assert.equal(transferText({ kind: 'draw_compensation', mode: 'first_declarer_2' }), '荒庄 第一个亮倒者赔付（每家 2）');
  setLang('en');
  assert.equal(transferText({ kind: 'horse', tiles: ['2s', '7z'], value: 2 }), '买马 horses 2 bamboo red dragon: worth 2');
  assert.equal(transferText({ kind: 'kong_added', chain: 1, factor: 1, base_factor: 4 }), '补杠 added kong, 上楼 base ×4');
  setLang('zh');
});
