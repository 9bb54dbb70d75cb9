// One seat's WebSocket to /ws/{code} (docs/protocol.md): hello with the seat token, then JSON
// messages both ways. It reconnects by itself with backoff (0.5 s doubling to 15 s, jittered)
// and resumes: the hello names the hand and the last event received, so the server sends only
// what was missed (or the whole view). Close codes it does not retry: 4000 bad hello, 4001
// replaced by a newer connection, 4003 bad token, 4004 no such room, 1000 room closed/left.

const FATAL = { 4000: 'bad_hello', 4001: 'replaced', 4003: 'bad_token', 4004: 'no_room' };
const PING_EVERY = 15000;
const SILENT_LIMIT = 45000;

export class Connection {
  /**
   * code, token: the room and the seat's token (null: watch the room as a spectator). handlers: onMessage(msg), onStatus(status,
   * info) with status 'connecting' | 'open' | 'waiting' (info.delay ms) | 'closed' | 'resuming' (the
   * room's server is being replaced in a cluster: open again at its next message),
   * onFatal(reason, message), resume() -> {hand, last_event} or null.
   */
  constructor(code, token, handlers) {
    this.code = code;
    this.token = token;
    this.h = handlers;
    this.ws = null;
    this.attempt = 0;
    this.timer = null;
    this.pinger = null;
    this.lastHeard = 0;
    this.stopped = false;
    this.welcomed = false;
    this.resuming = false;  // told status resuming, nothing heard since
    this._online = () => { if (this.timer) this.reconnectNow(); };
    this._visible = () => {  // back to the page (a phone woke up): retry now, not later
      if (document.visibilityState === 'visible' && !this.ws && this.timer) this.reconnectNow();
    };
    window.addEventListener('online', this._online);
    document.addEventListener('visibilitychange', this._visible);
  }

  url() {
    const scheme = location.protocol === 'https:' ? 'wss' : 'ws';
    return `${scheme}://${location.host}/ws/${encodeURIComponent(this.code)}`;
  }

  isOpen() { return Boolean(this.ws && this.ws.readyState === WebSocket.OPEN && this.welcomed); }

  start() {
    if (this.stopped) return;
    clearTimeout(this.timer);
    this.timer = null;
    this.welcomed = false;
    this.h.onStatus('connecting', { attempt: this.attempt });
    let ws;
    try {
      ws = new WebSocket(this.url());
    } catch (e) {
      this.schedule();
      return;
    }
    this.ws = ws;
    ws.onopen = () => {
      // no token: a spectator (旁观), who watches with {type: 'watch'} and is sent everything anew
      const hello = this.token ? { type: 'hello', token: this.token } : { type: 'watch' };
      const have = this.token && this.h.resume ? this.h.resume() : null;
      if (have && Number.isInteger(have.hand) && Number.isInteger(have.last_event)) {
        hello.hand = have.hand;
        hello.last_event = have.last_event;
      }
      ws.send(JSON.stringify(hello));
      this.lastHeard = Date.now();
      clearInterval(this.pinger);
      this.pinger = setInterval(() => this.heartbeat(), PING_EVERY);
    };
    ws.onmessage = (ev) => {
      if (ws !== this.ws) return;
      this.lastHeard = Date.now();
      let msg;
      try { msg = JSON.parse(ev.data); } catch (e) { return; }
      if (msg.type === 'welcome') {
        this.welcomed = true;
        this.attempt = 0;
        this.resuming = false;
        this.h.onStatus('open', {});
      }
      if (msg.type === 'pong') return;
      if (msg.type === 'status') {  // the room's server is being replaced (cluster): say so
        if (msg.state === 'resuming') { this.resuming = true; this.h.onStatus('resuming', {}); }
        return;
      }
      if (this.resuming) { this.resuming = false; this.h.onStatus('open', {}); }  // it answered
      this.h.onMessage(msg);
    };
    ws.onclose = (ev) => {
      if (ws !== this.ws) return;
      clearInterval(this.pinger);
      this.ws = null;
      this.welcomed = false;
      this.resuming = false;
      if (this.stopped) return;
      const fatal = FATAL[ev.code] || (ev.code === 1000 && /closed|left/.test(ev.reason || '') ? 'closed' : null)
        || (ev.code === 1008 && /spectators/.test(ev.reason || '') ? 'no_spectators' : null);
      if (fatal) {
        this.stopped = true;
        this.h.onStatus('closed', { code: ev.code });
        this.h.onFatal(fatal, ev.reason || '');
        return;
      }
      this.schedule();
    };
    ws.onerror = () => { /* onclose follows */ };
  }

  heartbeat() {
    if (!this.ws || this.ws.readyState !== WebSocket.OPEN) return;
    if (Date.now() - this.lastHeard > SILENT_LIMIT) {  // a dead link (phone asleep, NAT)
      this.drop();
      return;
    }
    this.ws.send(JSON.stringify({ type: 'ping', t: Date.now() }));
  }

  schedule() {
    if (this.stopped) return;
    const delay = Math.round(Math.min(15000, 500 * 2 ** this.attempt) * (0.8 + Math.random() * 0.4));
    this.attempt += 1;
    this.h.onStatus('waiting', { delay, attempt: this.attempt, at: Date.now() + delay });
    clearTimeout(this.timer);
    this.timer = setTimeout(() => this.start(), delay);
  }

  reconnectNow() {
    if (this.stopped) return;
    clearTimeout(this.timer);
    this.timer = null;
    if (this.ws) this.drop();
    else this.start();
  }

  /** Close the socket as if the network dropped it (it reconnects). */
  drop() {
    const ws = this.ws;
    if (!ws) return;
    this.ws = null;
    clearInterval(this.pinger);
    try { ws.close(4999, 'client drop'); } catch (e) { /* already closing */ }
    this.schedule();
  }

  /** Send a message; false if the socket is not open (the caller says so). */
  send(msg) {
    if (!this.ws || this.ws.readyState !== WebSocket.OPEN || !this.welcomed) return false;
    this.ws.send(JSON.stringify(msg));
    return true;
  }

  /** Stop for good (leaving the table). */
  stop() {
    this.stopped = true;
    clearTimeout(this.timer);
    clearInterval(this.pinger);
    window.removeEventListener('online', this._online);
    document.removeEventListener('visibilitychange', this._visible);
    if (this.ws) {
      const ws = this.ws;
      this.ws = null;
      try { ws.close(1000, 'bye'); } catch (e) { /* ignore */ }
    }
  }
}
