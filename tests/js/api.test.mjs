// api.js: a failed call's text in the page's language from the server's error code
// (docs/protocol.md "Errors": {"detail": {"code", "message"}}). Run: node --test tests/js/

import assert from 'node:assert/strict';
import { test } from 'node:test';

import { explain } from '../../src/kawuxing/web/static/js/api.js';
import { setLang } from '../../src/kawuxing/web/static/js/i18n.js';

test('a known code is translated; codes that name the bad part keep the server words in English only', () => {
  setLang('zh');
  assert.equal(explain(409, { detail: { code: 'match_over', message: 'the match of this room is over' } }),
    '这个房间的比赛已经结束');
  // a Chinese page shows none of the server's English (review 35b, 4)
  assert.equal(explain(422, { detail: { code: 'bad_rules', message: 'rules: cap: 0 is below 1' } }),
    '规则设置不对');
  assert.equal(explain(422, { detail: { code: 'bad_time', message: 'fill_after: a number of seconds from 0 to 600, or null' } }),
    '思考时间不对');
  // the field the server's errors name, in the page's words: a rule option, another field
  const invalid = (loc, message) => ({ detail: { code: 'invalid', message, errors: [{ loc, msg: 'x', type: 'y' }] } });
  assert.equal(explain(422, invalid(['body', 'options', 'cap'], 'options.cap: Input should be a valid integer')),
    '输入不对（封顶）');
  assert.equal(explain(422, invalid(['body', 'hands'], 'hands: Input should be less than or equal to 64')),
    '输入不对（局数）');
  assert.equal(explain(422, invalid(['body', 'mystery'], 'mystery: Extra inputs are not permitted')), '输入不对');
  setLang('en');
  assert.equal(explain(422, { detail: { code: 'bad_rules', message: 'rules: cap: 0 is below 1' } }),
    'the rules are not right (rules: cap: 0 is below 1)');
  assert.equal(explain(422, invalid(['body', 'hands'], 'hands: Input should be less than or equal to 64')),
    'the input is not right (hands: Input should be less than or equal to 64)');
  assert.equal(explain(409, { detail: { code: 'room_full', message: 'the room is full' } }),
    'the room is full');
  assert.equal(explain(429, { detail: { code: 'rate_limited', message: 'too many requests; try again in 3 s' } }),
    'too many requests; try again in a moment');
  setLang('zh');
});

test('an unknown code shows the server message in English, the status in Chinese', () => {
  setLang('en');
  assert.equal(explain(418, { detail: { code: 'teapot', message: 'short and stout' } }), 'short and stout');
  assert.equal(explain(500, null), 'the request failed (HTTP 500)');
  assert.equal(explain(404, { detail: 'Not Found' }), 'Not Found');
  setLang('zh');
  assert.equal(explain(418, { detail: { code: 'teapot', message: 'short and stout' } }), '请求没有成功（HTTP 418）');
  assert.equal(explain(404, { detail: 'Not Found' }), '请求没有成功（HTTP 404）');
  assert.equal(explain(422, { detail: [{ loc: ['body', 'x'], msg: 'bad' }] }), '请求没有成功（HTTP 422）');
  assert.equal(explain(500, null), '请求没有成功（HTTP 500）');
});
