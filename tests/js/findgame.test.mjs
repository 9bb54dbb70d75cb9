// The lobby's public rooms in words (web/static/js/findgame.js, issue 35): a room of GET
// /api/rooms as one line — rules, hands, who sits, open seats. Run: node --test tests/js/

import assert from 'node:assert/strict';
import { test } from 'node:test';

import { roomLine, seatWords } from '../../src/kawuxing/web/static/js/findgame.js';
import { setLang } from '../../src/kawuxing/web/static/js/i18n.js';

const ROOM = {
  code: 'Y3EHJW', preset: 'xiaogan', options: { hands_per_match: 8 }, changed: {}, hands: 8, fill_after: null, open: 1,
  seats: [{ kind: 'human', nickname: '老王', bot: null }, { kind: 'open', nickname: null, bot: null },
    { kind: 'bot', nickname: null, bot: 'heuristic' }],
};

test('a public room in one line, in both languages', () => {
  setLang('zh');
  assert.equal(roomLine(ROOM), '孝感 · 8 局 · 老王 · 机器人 · 空 1 位');  // seated only, then the open seats
  assert.equal(roomLine({ ...ROOM, changed: { cap: 8 } }), '孝感 · 8 局 · 老王 · 机器人 · 空 1 位 （改过规则）');
  setLang('en');
  assert.equal(seatWords(ROOM.seats[1]), 'open');
  assert.match(roomLine(ROOM), /· 8 hands · 老王 · bot · 1 open$/);
  setLang('zh');
});
