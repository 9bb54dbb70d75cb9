// 玩法介绍 (web/static/js/howto.js): a preset's full rule set for the rules page, from the
// server's schema (GET /api/rules) — the defaults, then the preset's own values.
// Run: node --test tests/js/

import assert from 'node:assert/strict';
import { test } from 'node:test';

import { presetRules } from '../../src/kawuxing/web/static/js/howto.js';

const SCHEMA = {
  options: [{ name: 'cap', default: null }, { name: 'ka_wu_xing_value', default: 2 }, { name: 'suits', default: ['p', 's'] }],
  presets: { standard: { options: {} }, xiaogan: { options: { cap: 16, ka_wu_xing_value: 4 } } },
};

test('a preset\'s rules are the defaults with its own values over them', () => {
  assert.deepEqual(presetRules(SCHEMA, 'standard'), { cap: null, ka_wu_xing_value: 2, suits: ['p', 's'] });
  assert.deepEqual(presetRules(SCHEMA, 'xiaogan'), { cap: 16, ka_wu_xing_value: 4, suits: ['p', 's'] });
  assert.deepEqual(presetRules(SCHEMA, 'nowhere'), { cap: null, ka_wu_xing_value: 2, suits: ['p', 's'] });
});
