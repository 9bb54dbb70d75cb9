// The AI review's words (web/static/js/review.js): actions, the summary, the costliest first.
// The values come from the server (kawuxing.review); nothing here values a move.
// Run: node --test tests/js/

import assert from 'node:assert/strict';
import { test } from 'node:test';

import { setLang } from '../../src/kawuxing/web/static/js/i18n.js';
import { actionText, costliest, signedValue, summaryText } from '../../src/kawuxing/web/static/js/review.js';

const REVIEW = {
  seat: 1,
  decisions: [
    { step: 3, phase: 'turn', chosen: ['discard', '5z'], best: ['discard', '5z'], loss: 0, choices: [{ action: ['discard', '5z'], value: 0.5 }] },
    { step: 9, phase: 'claim', chosen: ['pass'], best: ['pung'], loss: 1.25, choices: [{ action: ['pung'], value: 0.75 }, { action: ['pass'], value: -0.5 }] },
    { step: 14, phase: 'turn', chosen: ['discard', '9s'], best: ['discard', '1p', 'declare'], loss: 0.4, choices: [] },
  ],
  agreement: 0.3333,
  total_loss: 1.65,
  costliest: [9, 14],
};

test('actions in words, in both languages', () => {
  setLang('en');
  assert.equal(actionText(['discard', '5p']), 'discard 5 dots');
  assert.equal(actionText(['discard', '1p', 'declare']), 'discard 1 dots and declare 亮倒');
  setLang('zh');
  assert.equal(actionText(['discard', '5p']), '打五筒');
  assert.equal(actionText(['discard', '1p', 'declare']), '打一筒并亮倒');
});

test('the summary, the signed values and the costliest decisions in order', () => {
  setLang('zh');
  assert.equal(summaryText(REVIEW), '与 AI 一致 33%（共 3 个决定）· 共损失 1.65 底分');
  assert.equal(summaryText({ ...REVIEW, decisions: [] }), '这一局没有可选择的决定。');
  setLang('en');
  assert.equal(summaryText(REVIEW), 'Agrees with the AI in 33% of 3 decisions · value lost 1.65 base units');
  assert.deepEqual(costliest(REVIEW).map((d) => d.step), [9, 14]);
  assert.equal(signedValue(0.75), '+0.75');
  assert.equal(signedValue(-0.5), '-0.50');
  setLang('zh');
});
