// The client's protocol state machine (web/static/js/game-state.js), with no browser: a real
// recorded session (fixtures/session.json, made by record_session.py: a welcome, updates with
// events and acks, a stale action refused, a reconnect resumed with the missing events, a hand
// end with the next hand's commitment, the match end) and the sequences of docs/protocol.md
// (sync after a refusal, `missed` on reconnecting into a later hand, 托管).
// Run: node --test tests/js/

import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';

import { entropyAccepted, entropyPlan, GameState, lastDiscard } from '../../src/kawuxing/web/static/js/game-state.js';

const SESSION = JSON.parse(readFileSync(new URL('./fixtures/session.json', import.meta.url), 'utf-8'));
const incoming = SESSION.filter((e) => e.dir === 'in').map((e) => e.msg);

/** Feed messages [from, to) of the session; returns the outcomes, by index in the session. */
function play(state, upTo = SESSION.length, from = 0) {
  const outcomes = {};
  SESSION.slice(from, upTo).forEach((entry, i) => {
    if (entry.dir === 'out') {
      if (entry.msg.type === 'action') state.sent(entry.msg.id);
      return;
    }
    outcomes[from + i] = state.receive(entry.msg, 1000 * (from + i));
  });
  return outcomes;
}

test('the recorded session is what the tests say it is', () => {
  const types = incoming.map((m) => m.type);
  assert.deepEqual(types.slice(0, 3), ['welcome', 'sync', 'players']);
  assert.equal(types.filter((t) => t === 'welcome').length, 2);
  assert.equal(types.filter((t) => t === 'refused').length, 1);
  assert.equal(types.at(-1), 'match_end');
  assert.ok(incoming.some((m) => m.resumed === true));
});

test('welcome then sync: the seat, rules, the whole hand so far', () => {
  const s = new GameState();
  const out = play(s, 3);  // hello, welcome, sync
  assert.equal(s.seat, 0);
  assert.equal(s.roomStatus, 'playing');
  assert.equal(s.handsPerMatch, 2);
  assert.equal(s.rules.hands_per_match, 2);
  assert.equal(out[1].render, false);  // a hand is in play: the sync draws it
  assert.equal(s.hand, 0);
  assert.equal(s.version, 2);
  assert.deepEqual(s.events.map((e) => [e.n, e.type]), [[0, 'deal'], [1, 'draw']]);
  assert.equal(s.lastEvent, 1);
  assert.deepEqual(s.totals, [0, 0, 0]);
  assert.equal(out[2].newHand, true);
  assert.deepEqual(out[2].fresh, []);  // a sync's events are no news to call out
  assert.deepEqual(s.resume(), { hand: 0, last_event: 1 });
});

test('updates append their events, an ack clears the pending action', () => {
  const s = new GameState();
  play(s, 11);  // up to the second action sent (after the refusal)
  assert.equal(s.pendingId, 'a2');
  assert.equal(s.busy, true);
  const out = play(s, 12, 11);  // its ack
  assert.equal(s.pendingId, null);
  assert.equal(s.busy, false);
  assert.equal(s.version, 7);
  assert.deepEqual(out[11].fresh.map((e) => e.type), ['discard']);
  assert.deepEqual(s.events.map((e) => e.n), [0, 1, 2, 3, 4, 5, 6]);
  assert.deepEqual(s.lastDiscard(), { seat: 0, tile: SESSION[10].msg.action[2] });
});

test('a refused stale action: pending cleared, resync asked, nothing else changes', () => {
  const s = new GameState();
  play(s, 9);
  assert.equal(s.pendingId, 'a1');
  const before = { version: s.version, view: s.view, events: s.events.length };
  const out = play(s, 10, 9)[9];
  assert.equal(out.refused.code, 'stale');
  assert.equal(out.resync, true);
  assert.equal(out.quiet, undefined);
  assert.equal(s.pendingId, null);
  assert.deepEqual({ version: s.version, view: s.view, events: s.events.length }, before);
});

test('a refusal of another id leaves the pending action pending', () => {
  const s = new GameState();
  s.sent('x9');
  const out = s.receive({ type: 'refused', id: 'x8', code: 'illegal', reason: 'no', rule: 'R4.1', version: 3 });
  assert.equal(s.pendingId, 'x9');
  assert.equal(out.resync, false);
});

test('entropy refusals are quiet (R3.1)', () => {
  const s = new GameState();
  const out = s.receive({ type: 'refused', id: null, code: 'entropy_closed', reason: '', rule: 'R3.1', version: 0 });
  assert.equal(out.quiet, true);
  assert.equal(out.render, undefined);
});

test('reconnecting: the hello resumes from the last event, the resumed update fills the gap', () => {
  const s = new GameState();
  const hello = SESSION.findIndex((e, i) => i > 0 && e.dir === 'out' && e.msg.type === 'hello');
  play(s, hello);
  s.disconnected();
  assert.deepEqual(s.resume(), { hand: SESSION[hello].msg.hand, last_event: SESSION[hello].msg.last_event });
  const resumed = SESSION.findIndex((e) => e.msg.resumed === true);
  const out = play(s, resumed + 1, hello);
  assert.equal(out[resumed].newHand, false);
  assert.deepEqual(out[resumed].fresh.map((e) => e.n), [13]);
  assert.deepEqual(s.events.map((e) => e.n), [...Array(14).keys()]);
  assert.equal(s.version, 14);
});

test('an update repeating events already known adds none twice', () => {
  const s = new GameState();
  play(s, 7);
  const again = incoming.find((m) => m.version === 6);
  s.receive({ ...again, events: [...incoming.find((m) => m.version === 5).events, ...again.events] });
  assert.deepEqual(s.events.map((e) => e.n), [0, 1, 2, 3, 4, 5]);
});

test('the end of a hand: history, the settlement, the next commitment; then the next hand', () => {
  const s = new GameState();
  const end = SESSION.findIndex((e) => e.dir === 'in' && e.msg.view && e.msg.view.result && e.msg.hand === 0);
  const out = play(s, end + 1);
  const msg = SESSION[end].msg;
  assert.deepEqual(s.history[0], msg.view.result.deltas);
  assert.equal(out[end].ended.hand, 0);
  assert.equal(out[end].ended.missed, false);
  assert.equal(out[end].commit.hand, 1);
  assert.equal(s.commit.commitment, msg.commit.commitment);
  assert.equal(s.lastSettlement.handNo, 0);
  assert.deepEqual(s.lastSettlement.totals, msg.totals);
  const winner = msg.events.find((e) => e.type === 'win');
  assert.equal(s.lastSettlement.winEvents[winner.seat], winner);
  const next = play(s, end + 2, end + 1)[end + 1];
  assert.equal(next.newHand, true);
  assert.equal(s.hand, 1);
  assert.deepEqual(s.events.map((e) => e.type), ['deal', 'draw']);
  assert.deepEqual(s.history[0], msg.view.result.deltas);  // kept across hands
});

test('a commitment of a hand already dealt is not answered', () => {
  const s = new GameState();
  play(s, 3);
  assert.equal(s.takeCommit({ hand: 0, commitment: 'ab' }), null);
  assert.equal(s.takeCommit({ hand: 1, commitment: 'cd' }).commitment, 'cd');
});

test('the whole session: totals, match end, nothing pending', () => {
  const s = new GameState();
  const out = play(s);
  const end = incoming.at(-1);
  assert.equal(out[SESSION.length - 1].matchEnd, true);
  assert.equal(s.roomStatus, 'finished');
  assert.deepEqual(s.matchEnd.totals, end.totals);
  assert.deepEqual(s.totals, end.totals);
  assert.equal(s.matchId, end.match_id);
  assert.equal(s.pendingId, null);
  assert.deepEqual(Object.keys(s.history), ['0', '1']);
  assert.equal(s.history[0].reduce((a, b) => a + b, 0), 0);
  // every event of the last hand, once, in order
  const last = incoming.filter((m) => (m.type === 'update' || m.type === 'sync') && m.hand === 1);
  assert.deepEqual(s.events.map((e) => e.n), [...Array(last.at(-1).events.at(-1).n + 1).keys()]);
});

test('the clock is stamped with the time passed in, and only when the seat decides', () => {
  const s = new GameState();
  play(s, 3);
  const withClock = incoming.find((m) => m.clock);
  s.receive(withClock, 5000);
  assert.equal(s.clock.at, 5000);
  assert.equal(s.clock.seconds, withClock.clock.seconds);
  s.receive({ ...withClock, clock: null, events: [] }, 6000);
  assert.equal(s.clock, null);
});

test('missed (docs/protocol.md "Reconnecting"): the end of a hand not seen, no standing', () => {
  const s = new GameState();
  const end = incoming.find((m) => m.view && m.view.result && m.hand === 0);
  play(s, 3);
  const out = s.receive({ type: 'missed', hand: 0, events: end.events, view: end.view, fairness: null });
  assert.deepEqual(out.ended, { hand: 0, view: end.view, events: end.events, fairness: null, missed: true });
  assert.deepEqual(s.history[0], end.view.result.deltas);
  assert.equal(s.lastSettlement.totals, null);
  assert.equal(s.lastSettlement.missed, true);
  assert.equal(s.hand, 0);  // the sync that follows moves on
});

test('auto (托管): on after timeouts says so, off does not', () => {
  const s = new GameState();
  assert.equal(s.receive({ type: 'auto', on: true, reason: 'timeouts' }).autoTimeouts, true);
  assert.equal(s.auto, true);
  assert.equal(s.receive({ type: 'auto', on: false, reason: 'asked' }).autoTimeouts, false);
  assert.equal(s.auto, false);
});

test('pending actions expire and are dropped with the link', () => {
  const s = new GameState();
  s.sent('a1');
  assert.equal(s.expire('a0'), false);
  assert.equal(s.pendingId, 'a1');
  assert.equal(s.disconnected(), true);
  assert.equal(s.disconnected(), false);
  s.sent('a2');
  assert.equal(s.expire('a2'), true);
  assert.equal(s.busy, false);
});

test('players, errors, the room state over HTTP', () => {
  const s = new GameState(2);
  const players = incoming.find((m) => m.type === 'players').players;
  assert.equal(s.receive({ type: 'players', players }).render, true);
  assert.equal(s.players, players);
  const err = { type: 'error', code: 'bad_message', message: 'no' };
  assert.equal(s.receive(err).serverError, err);
  s.roomInfo({ match_id: 'm1', seats: players, hands_per_match: 4, rules: { suits: ['p', 's'] } });
  assert.equal(s.matchId, 'm1');
  assert.equal(s.handsPerMatch, 4);
  s.roomInfo({ rules: { suits: ['m'] } });
  assert.deepEqual(s.rules.suits, ['p', 's']);  // the first rules stay
  assert.deepEqual(s.receive({ type: 'pong', t: 1 }), {});
});

test('an HTTP room answer older than the socket does not turn a connected friend offline', () => {
  const s = new GameState(0);
  const online = [{ kind: 'human', nickname: 'me', connected: true },
    { kind: 'human', nickname: 'friend', connected: true }, { kind: 'bot', nickname: '老张' }];
  s.receive({ type: 'players', players: online });
  const stale = online.map((p, i) => (i === 1 ? { ...p, connected: false } : p));
  s.roomInfo({ match_id: 'm1', seats: stale });  // asked before the friend joined
  assert.equal(s.players[1].connected, true);
  assert.equal(s.matchId, 'm1');
  const fresh = new GameState(0);  // before any socket news, the HTTP seats are taken
  fresh.roomInfo({ seats: stale });
  assert.equal(fresh.players[1].connected, false);
});

test('lastDiscard: the newest discard unless a pung or kong took it', () => {
  assert.deepEqual(lastDiscard([{ type: 'discard', seat: 1, tile: '5p' }, { type: 'draw', seat: 2 }]), { seat: 1, tile: '5p' });
  assert.equal(lastDiscard([{ type: 'discard', seat: 1, tile: '5p' }, { type: 'pung', seat: 2 }]), null);
  assert.equal(lastDiscard([]), null);
});

test('entropy for a commitment (docs/fairness.md): fresh, resent, or done', () => {
  const c = { hand: 1, commitment: 'ab' };
  assert.equal(entropyPlan(c, undefined), 'fresh');
  assert.equal(entropyPlan(c, { commitment: 'ab', mine: 'x', accepted: false }), 'resend');
  assert.equal(entropyPlan(c, { commitment: 'ab', mine: 'x', accepted: true }), 'none');
  assert.equal(entropyPlan(c, { commitment: 'zz', mine: 'x', accepted: true }), 'fresh');
  assert.equal(entropyAccepted({ commitment: 'ab', value: 'x' }, { commitment: 'ab', mine: 'x' }), true);
  assert.equal(entropyAccepted({ commitment: 'ab', value: 'y' }, { commitment: 'ab', mine: 'x' }), false);
  assert.equal(entropyAccepted({ commitment: 'ab', value: 'x' }, undefined), false);
});

test('between hands: next_hand gives the countdown for the view it follows, gone with the next deal (issue 12)', () => {
  const s = new GameState(0);
  s.receive({ type: 'sync', hand: 0, version: 40, events: [], view: { legal: [], result: { deltas: [2, -1, -1] } }, totals: [2, -1, -1], clock: null, auto: false }, 0);
  assert.deepEqual(s.receive({ type: 'next_hand', version: 40, seconds: 15, ready: [false, true, true] }, 1000), { between: true });
  assert.equal(s.countdown(1000), 15);
  assert.equal(s.countdown(7500), 8.5);
  assert.equal(s.countdown(60000), 0);
  assert.deepEqual(s.between.ready, [false, true, true]);
  s.receive({ type: 'next_hand', version: 39, seconds: 9, ready: [true, true, true] }, 2000);
  assert.equal(s.countdown(2000), null);  // of another view than the one shown
  s.receive({ type: 'update', hand: 1, version: 42, events: [{ n: 0, type: 'deal' }], view: { legal: [] }, totals: [2, -1, -1], clock: null, auto: false }, 3000);
  assert.equal(s.between, null);
  assert.equal(s.countdown(3000), null);
});

test('spectators and chat: the count is kept, a phrase is handed to the page (issue 12)', () => {
  const s = new GameState(1);
  assert.deepEqual(s.receive({ type: 'spectators', count: 2 }), { render: true });
  assert.equal(s.spectators, 2);
  const msg = { type: 'chat', seat: 0, say: 'hurry' };
  assert.deepEqual(s.receive(msg), { chat: msg });
});
