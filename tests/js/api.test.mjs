// api.js: a failed call's text in the page's language from the server's error code
// (docs/protocol.md "Errors": {"detail": {"code", "message"}}). Run: node --test tests/js/

import assert from 'node:assert/strict';
import { test } from 'node:test';

import { explain } from '../../src/kawuxing/web/static/js/api.js';
import { setLang } from '../../src/kawuxing/web/static/js/i18n.js';

test('a known code is translated; codes that name the bad part keep the server words', () => {
  setLang('zh');
  assert.equal(explain(409, { detail: { code: 'match_over', message: 'the match of this room is over' } }),
    '这个房间的比赛已经结束');
  assert.equal(explain(422, { detail: { code: 'bad_rules', message: 'rules: cap: 0 is below 1' } }),
    '规则设置不对（rules: cap: 0 is below 1）');
  setLang('en');
  assert.equal(explain(409, { detail: { code: 'room_full', message: 'the room is full' } }),
    'the room is full');
  assert.equal(explain(429, { detail: { code: 'rate_limited', message: 'too many requests; try again in 3 s' } }),
    'too many requests; try again in a moment');
  setLang('zh');
});

test('an unknown code shows the server message; no detail shows the status', () => {
  assert.equal(explain(418, { detail: { code: 'teapot', message: 'short and stout' } }), 'short and stout');
  assert.equal(explain(500, null), 'HTTP 500');
  assert.equal(explain(404, { detail: 'Not Found' }), 'Not Found');
});
