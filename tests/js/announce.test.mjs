// The live region's words (web/static/js/announce.js) and the keys of my hand's tiles
// (table.js handKeys): the discards, claims, 亮倒 and wins of an update in the page's
// language, then what the seat may do now as the view's legal actions say. Run: node --test tests/js/

import assert from 'node:assert/strict';
import { test } from 'node:test';

import { announcement } from '../../src/kawuxing/web/static/js/announce.js';
import { setLang } from '../../src/kawuxing/web/static/js/i18n.js';
import { handKeys } from '../../src/kawuxing/web/static/js/table.js';

const PLAYERS = [
  { kind: 'human', nickname: '小明' },
  { kind: 'bot', nickname: '机器人', bot: 'heuristic:2', persona: { key: 'persona_lao_zhang' } },
  { kind: 'human', nickname: 'Ann' },
];

/** A view of seat 0 (the shape of engine/views.seat_view, only what the words read). */
function view(phase, legal, table = null) {
  return { seat: 0, phase, turn: 0, legal, table, seats: [{}, {}, {}] };
}

test('an update in Chinese: who did what, then my turn', () => {
  setLang('zh');
  const events = [
    { n: 7, type: 'discard', seat: 2, tile: '8p' },  // 上家 (seat 2 is before me)
    { n: 8, type: 'draw', seat: 1 },                 // another's draw: nothing to say
    { n: 9, type: 'pung', seat: 1, tile: '8p', from: 2 },
    { n: 10, type: 'discard', seat: 1, tile: '7z' },
    { n: 11, type: 'draw', seat: 0, tile: '9p' },
  ];
  const model = { view: view('turn', [[0, 'discard', '9p'], [0, 'discard', '1s']]), seat: 0, players: PLAYERS };
  assert.equal(announcement(events, model),
    '上家 Ann打出八筒。下家 老张碰八筒。下家 老张打出红中。你摸到九筒。轮到你出牌');
});

test('a 亮倒 with its waits, then a claim I may make, in English', () => {
  setLang('en');
  const events = [
    { n: 3, type: 'declare', seat: 1, tiles: '123s', hidden: 0, hidden_tiles: 0, waits: ['6p', '9p'] },
    { n: 4, type: 'discard', seat: 1, tile: '5s' },
  ];
  const legal = [[0, 'win'], [0, 'pung'], [0, 'pass']];
  const model = { view: view('claim', legal, { seat: 1, tile: '5s', robbing: false }), seat: 0, players: PLAYERS };
  assert.equal(announcement(events, model),
    'Lao Zhang (Right) declared 亮倒, waiting on 6 dots 9 dots. Lao Zhang (Right) discarded 5 bamboo. '
    + 'You may Win 胡 / Pung 碰 5 bamboo');
  setLang('zh');
});

test('wins and kongs; nothing to decide adds nothing', () => {
  setLang('zh');
  const model = { view: view('ended', []), seat: 0, players: PLAYERS };
  assert.equal(announcement([{ n: 1, type: 'kong', seat: 2, kind: 'concealed_kong' }], model), '上家 Ann暗杠');
  assert.equal(announcement([{ n: 2, type: 'win', seat: 0, tile: '5p', by: 'self_draw' }], model), '你自摸五筒');
  assert.equal(announcement([{ n: 3, type: 'win', seat: 1, tile: '5p', by: 'discard', from: 0 }], model), '下家 老张胡五筒');
  assert.equal(announcement([{ n: 4, type: 'draw', seat: 2 }], model), '');
});

test('honours are said in full in Chinese; a spectator hears seats, not 我', () => {
  setLang('zh');
  const model = { view: view('ended', []), seat: 0, players: PLAYERS };
  assert.equal(announcement([{ n: 1, type: 'discard', seat: 0, tile: '5z' }, { n: 2, type: 'discard', seat: 1, tile: '6z' }], model),
    '你打出白板。下家 老张打出发财');
  const watching = { ...model, readOnly: true, watching: true };
  assert.equal(announcement([{ n: 1, type: 'discard', seat: 0, tile: '7z' }], watching), '座位 1 小明打出红中');
  setLang('en');
  assert.equal(announcement([{ n: 1, type: 'discard', seat: 0, tile: '7z' }], watching), '小明 (Seat 1) discarded red dragon');
  setLang('zh');
});

test('the own seat is "you": You punged, not Me punged', () => {
  setLang('en');
  const model = { view: view('ended', []), seat: 0, players: PLAYERS };
  assert.equal(announcement([{ n: 1, type: 'pung', seat: 0, tile: '6s' }], model), 'You punged 6 bamboo');
  assert.equal(announcement([{ n: 2, type: 'kong', seat: 0, kind: 'concealed_kong' }], model), 'You made a concealed kong');
  assert.equal(announcement([{ n: 3, type: 'pung', seat: 1, tile: '6s' }], model).endsWith('punged 6 bamboo'), true);
  setLang('zh');
  assert.equal(announcement([{ n: 4, type: 'pung', seat: 0, tile: '6s' }], model), '你碰六条');
});

test('my hand keys: the hand, each copy of a kind its own key, the tile drawn by the wall count', () => {
  assert.deepEqual(handKeys(['1p', '1p', '5s'], '5s', 30, 2), ['2:1p.1', '2:1p.2', '2:5s.1', '2:drawn-5s-30']);
  assert.deepEqual(handKeys(['1p', '5s'], null, 29), [':1p.1', ':5s.1']);
});
