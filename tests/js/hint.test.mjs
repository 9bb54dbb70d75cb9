// The table's hint (web/static/js/hint.js and the `hint` message in game-state.js): a hint
// answer (docs/protocol.md: choices best first, each {action, ev, reasons, text}) put into
// lines in Chinese and in English — the action with the table's labels, the expected value in
// base units, every reason code with its parameters — and the answer kept only for the view
// it was asked for. Run: node --test tests/js/

import assert from 'node:assert/strict';
import { test } from 'node:test';

import { GameState } from '../../src/kawuxing/web/static/js/game-state.js';
import { actionWords, hintable, hintLines, percent, reasonWords, signed, units } from '../../src/kawuxing/web/static/js/hint.js';
import { setLang } from '../../src/kawuxing/web/static/js/i18n.js';

// the first three choices of a real answer (the player of tests/test_web_browser.py's wall,
// dealer, 14 tiles with 5z drawn), then one more the panel does not show
const ANSWER = {
  type: 'hint', hand: 0, version: 2, choices: [
    { action: [0, 'discard', '5z', 'declare'], ev: 20.281, text: '…', reasons: [
      { code: 'ready', declared: true, waits: [['5p', 4, 16, 16], ['6p', 3, 8, 8]] },
      { code: 'declare', gain: 0.405 }] },
    { action: [0, 'discard', '5z'], ev: 19.871, text: '…', reasons: [
      { code: 'ready', declared: false, waits: [['5p', 4, 8, 8], ['9p', 3, 4, 0]] }] },
    { action: [0, 'discard', '4p'], ev: -0.456, text: '…', reasons: [
      { code: 'shanten', n: 1, live: 26 }, { code: 'danger', chance: 0.123, cost: 1.5 }] },
    { action: [0, 'discard', '2p'], ev: 11.544, text: '…', reasons: [{ code: 'shanten', n: 1, live: 17 }] },
  ],
};

test('numbers: base units, signed values, percentages', () => {
  assert.equal(units(16), '16');
  assert.equal(units(2.5), '2.5');
  assert.equal(units(0.4049), '0.4');
  assert.equal(signed(1.234), '+1.23');
  assert.equal(signed(-0.456), '-0.46');
  assert.equal(signed(0.001), '0.00');
  assert.equal(signed(-0.001), '0.00');
  assert.equal(percent(0.123), '12');
  assert.equal(percent(0.004), '<1');
  assert.equal(percent(0), '0');
});

test('a hint answer in Chinese: the top three, action, value in 底分, reasons', () => {
  setLang('zh');
  const lines = hintLines(ANSWER, { phase: 'turn' });
  assert.equal(lines.length, 3);
  assert.deepEqual(lines.map((l) => l.rank), [1, 2, 3]);
  assert.deepEqual(lines.map((l) => l.tile), ['5z', '5z', '4p']);
  assert.deepEqual(lines.map((l) => l.words), ['亮倒 · 打白', '打白', '打四筒']);
  assert.deepEqual(lines.map((l) => l.evText), ['+20.28 底分', '+19.87 底分', '-0.46 底分']);
  assert.deepEqual(lines[0].reasons, ['亮倒后听 五筒 剩4张 自摸×16 点炮×16；六筒 剩3张 自摸×8 点炮×8', '亮倒比不亮 +0.41 底分']);
  assert.deepEqual(lines[1].reasons, ['听 五筒 剩4张 自摸×8 点炮×8；九筒 剩3张 ×4 只能自摸']);
  assert.deepEqual(lines[2].reasons, ['离听牌差 1 张，有效牌 26 张', '放炮危险 12%（预计损失 1.5 底分）']);
  assert.equal(lines[2].text, '3. 打四筒 -0.46 底分 — 离听牌差 1 张，有效牌 26 张；放炮危险 12%（预计损失 1.5 底分）');
});

test('the same answer in English', () => {
  setLang('en');
  const lines = hintLines(ANSWER, { phase: 'turn' });
  assert.deepEqual(lines.map((l) => l.words), ['Declare 亮倒 · Discard white dragon', 'Discard white dragon', 'Discard 4 dots']);
  assert.deepEqual(lines.map((l) => l.evText), ['+20.28 base units', '+19.87 base units', '-0.46 base units']);
  assert.deepEqual(lines[0].reasons, [
    'declared, ready on 5 dots (4 live, ×16 self-draw, ×16 discard); 6 dots (3 live, ×8 self-draw, ×8 discard)',
    '亮倒 gains +0.41 base units']);
  assert.deepEqual(lines[1].reasons, ['ready on 5 dots (4 live, ×8 self-draw, ×8 discard); 9 dots (3 live, ×4, self-draw only)']);
  assert.deepEqual(lines[2].reasons, ['1 from ready, 26 live tiles help', 'danger 12% (expected loss 1.5 base units)']);
  assert.equal(hintLines(ANSWER, { max: 10 }).length, 4);
  assert.deepEqual(hintLines({ choices: [] }), []);
  assert.deepEqual(hintLines(null), []);
  setLang('zh');
});

test('every reason code and action verb in both languages', () => {
  const reasons = [
    { code: 'win', money: 16 }, { code: 'ready', waits: [], declared: false }, { code: 'kong', money: 4 },
    { code: 'pass' }, { code: 'piao', edge: -0.21 }, { code: 'forced' }, { code: 'danger', chance: 0.003, cost: 0.02 },
    { code: 'second', gap: 0.314, best: [0, 'discard', '9m'] },
  ];
  setLang('zh');
  assert.deepEqual(reasons.map(reasonWords), ['现在就胡：16 底分', '听牌，但没有活张了', '杠钱 4 底分', '手牌不动',
    '每漂一单位 -0.21 底分', '亮倒后摸什么打什么（R8.2）', '放炮危险 <1%（预计损失 0.02 底分）',
    '简单机器人的选择，只比模型的最优低 0.31 底分：这么接近时专家机器人照它打']);
  assert.equal(actionWords([0, 'win'], 'turn'), '自摸');
  assert.equal(actionWords([0, 'win'], 'claim'), '胡');
  assert.equal(actionWords([0, 'win'], 'rob'), '抢杠胡');
  assert.equal(actionWords([1, 'pung', '5p'], 'claim'), '碰 五筒');
  assert.equal(actionWords([1, 'kong', '5p'], 'claim'), '杠 五筒');
  assert.equal(actionWords([0, 'concealed_kong', '7z'], 'turn'), '暗杠 中');
  assert.equal(actionWords([0, 'added_kong', '1s'], 'turn'), '补杠 一条');
  assert.equal(actionWords([1, 'pass'], 'claim'), '过');
  assert.equal(actionWords([0, 'piao', 2], 'piao'), '漂2');
  assert.equal(actionWords([0, 'discard', '3s', 'declare', ['7s']], 'turn'), '亮倒 · 打三条 扣着 七条');
  setLang('en');
  assert.deepEqual(reasons.map(reasonWords), ['win now: 16 base units', 'ready, but no winning tile is left',
    'kong money 4 base units', 'keep the hand', '漂 edge -0.21 base units a unit',
    'a declared hand discards its draw (R8.2)', 'danger <1% (expected loss 0.02 base units)',
    'the simple bot\'s choice, 0.31 base units below the model\'s best: that close, the expert plays it']);
  assert.equal(actionWords([0, 'win'], 'turn'), 'Self-draw 自摸');
  assert.equal(actionWords([1, 'pung', '5p'], 'claim'), 'Pung 碰 5 dots');
  assert.equal(actionWords([0, 'piao', 2], 'piao'), '漂 2');
  assert.equal(actionWords([0, 'discard', '3s', 'declare', ['7s']], 'turn'), 'Declare 亮倒 · Discard 3 bamboo hiding 7 bamboo');
  setLang('zh');
});

test('the button is offered only for a decision of two legal actions or more', () => {
  assert.equal(hintable({ phase: 'turn', legal: [[0, 'discard', '5z'], [0, 'discard', '4p']] }), true);
  assert.equal(hintable({ phase: 'claim', legal: [[1, 'pass']] }), false);  // a lone pass (R13.2)
  assert.equal(hintable({ phase: 'turn', legal: [] }), false);
  assert.equal(hintable({ phase: 'ended', legal: [[0, 'x'], [0, 'y']] }), false);
  assert.equal(hintable(null), false);
});

test('a hint is kept for the view it was asked for, dropped with the next view, an old one ignored', () => {
  const s = new GameState(0);
  const view = { legal: [[0, 'discard', '5z'], [0, 'discard', '4p']], seats: [] };
  s.receive({ type: 'sync', hand: 0, version: 2, events: [{ n: 0, type: 'deal' }], view }, 0);
  assert.deepEqual(s.receive({ ...ANSWER, version: 1 }), {});  // asked before the last update
  assert.equal(s.hint, null);
  assert.deepEqual(s.receive({ ...ANSWER, hand: 1 }), {});
  assert.deepEqual(s.receive({ ...ANSWER, choices: [] }), {});  // nothing to decide
  assert.equal(s.hint, null);
  assert.deepEqual(s.receive(ANSWER), { render: true, hint: true });
  assert.equal(s.hint, ANSWER);
  s.receive({ type: 'sync', hand: 0, version: 2, events: [{ n: 0, type: 'deal' }], view }, 0);
  assert.equal(s.hint, ANSWER);  // the same view sent again: still its hint
  s.receive({ type: 'update', hand: 0, version: 3, events: [{ n: 1, type: 'discard', seat: 0, tile: '5z' }], view }, 0);
  assert.equal(s.hint, null);
  s.receive({ ...ANSWER, version: 3 });
  assert.equal(s.closeHint(), true);  // Escape
  assert.equal(s.hint, null);
  assert.equal(s.closeHint(), false);
});
