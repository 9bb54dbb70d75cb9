// tutorial.js: the guided first hand's helpers — which move a click makes, where the coach
// points for each lesson (docs/protocol.md GET /api/tutorial). Run: node --test tests/js/

import assert from 'node:assert/strict';
import { test } from 'node:test';

import { lessonAt, pointAt, sameAction, tileAction } from '../../src/kawuxing/web/static/js/tutorial.js';

const view = { seat: 0, legal: [[0, 'discard', '1p'], [0, 'discard', '2p'], [0, 'discard', '1p', 'declare']] };

test('a click plays the discard of that tile, with 亮倒 in declare mode, when it is legal', () => {
  assert.deepEqual(tileAction(view, '1p', false), [0, 'discard', '1p']);
  assert.deepEqual(tileAction(view, '1p', true), [0, 'discard', '1p', 'declare']);
  assert.equal(tileAction(view, '2p', true), null);  // not a 亮倒 discard
  assert.equal(tileAction(view, '9s', false), null);
  assert.ok(sameAction([0, 'pung'], [0, 'pung']) && !sameAction([0, 'pung'], [0, 'pass']));
});

test('the coach points at the tile, the key, or 亮倒 then the panel', () => {
  assert.equal(pointAt({ action: [0, 'discard', '7z'] }, false), '.hand .tile[data-code="7z"]');
  assert.equal(pointAt({ action: [0, 'pung'] }, false), '.actions .act-pung');
  assert.equal(pointAt({ action: [0, 'discard', '1p', 'declare'] }, false), '.actions .act-declare');
  assert.equal(pointAt({ action: [0, 'discard', '1p', 'declare'] }, true),
    '.declare-panel .option[data-tile="1p"] .pick');
  const lessons = [{ step: 0, lesson: 'discard' }, { step: 2, lesson: 'pung' }];
  assert.equal(lessonAt(lessons, 2).lesson, 'pung');
  assert.equal(lessonAt(lessons, 1), null);
});
