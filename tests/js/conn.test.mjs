// conn.js: one seat's socket. `status` `resuming` (a cluster's owner stopped answering,
// docs/protocol.md "Cluster") shows as a connection status until the server's next message.
// Run: node --test tests/js/

import assert from 'node:assert/strict';
import { test } from 'node:test';

// the browser globals conn.js reads, and a socket the test drives
const listeners = () => ({ addEventListener() {}, removeEventListener() {} });
globalThis.window = listeners();
globalThis.document = { ...listeners(), visibilityState: 'visible' };
globalThis.location = { protocol: 'http:', host: '127.0.0.1:1' };
class FakeSocket {
  static OPEN = 1;
  constructor(url) { this.url = url; this.readyState = 1; this.sent = []; FakeSocket.last = this; }
  send(text) { this.sent.push(JSON.parse(text)); }
  close() {}
  hear(message) { this.onmessage({ data: JSON.stringify(message) }); }
}
globalThis.WebSocket = FakeSocket;

const { Connection } = await import('../../src/kawuxing/web/static/js/conn.js');

function connected() {
  const seen = { status: [], messages: [] };
  const conn = new Connection('ABCDEF', 'tok', {
    onMessage: (m) => seen.messages.push(m.type),
    onStatus: (s) => seen.status.push(s),
    onFatal: () => {},
  });
  conn.start();
  const ws = FakeSocket.last;
  ws.onopen();
  ws.hear({ type: 'welcome', seat: 1 });
  return { conn, ws, seen };
}

test('status resuming is shown, then cleared by the new welcome; it is no game message', () => {
  const { conn, ws, seen } = connected();
  assert.deepEqual(ws.sent[0].type, 'hello');
  assert.deepEqual(seen.status, ['connecting', 'open']);
  ws.hear({ type: 'status', state: 'resuming' });
  assert.deepEqual(seen.status.slice(2), ['resuming']);
  assert.deepEqual(seen.messages, ['welcome']);
  ws.hear({ type: 'welcome', seat: 1 });
  ws.hear({ type: 'sync', hand: 1 });
  assert.deepEqual(seen.status.slice(2), ['resuming', 'open']);
  assert.deepEqual(seen.messages, ['welcome', 'welcome', 'sync']);
  conn.stop();
});

test('a false alarm: the old owner speaks again and the status is open again', () => {
  const { conn, ws, seen } = connected();
  ws.hear({ type: 'status', state: 'resuming' });
  ws.hear({ type: 'update', hand: 1 });
  ws.hear({ type: 'update', hand: 1 });
  assert.deepEqual(seen.status.slice(2), ['resuming', 'open']);
  ws.hear({ type: 'status', state: 'something-new' });  // a state this client does not know
  assert.deepEqual(seen.status.slice(2), ['resuming', 'open']);
  conn.stop();
});
