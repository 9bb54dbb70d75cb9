// What one seat's client keeps from the server's messages (docs/protocol.md §2): the protocol
// state machine of the table, pure — no DOM, no WebSocket, no timers, no clock (the caller
// passes `now` in ms). game.js feeds it every message and draws what it holds; conn.js asks it
// what to resume from. Unit-tested with `node --test tests/js/`.
//
// receive(msg, now) applies one server message and answers what the screen should do about it
// (an Outcome, below); everything else is read from the fields.

/** Refusal codes of `entropy` (R3.1): that hand's check says so, no alarm. */
export const QUIET_REFUSALS = new Set(['entropy_closed', 'bad_entropy']);
/** Refusal codes after which the client asks for the full state again (`sync`). */
export const RESYNC_REFUSALS = new Set(['stale', 'not_playing']);

/**
 * Outcome of one message, every field optional (absent = false/none):
 * render: draw again; newHand: the view is of another hand than before (reset the table's
 * selection, close a live settlement, refresh the room); fresh: the events this update brought
 * to a hand already shown (for call-outs); commit: a commitment to answer with entropy
 * (docs/fairness.md); ended: {hand, view, events, fairness, missed} of a hand that has ended
 * (check its deal, show the settlement); refused: the refused message (toast unless quiet);
 * resync: send `sync`; autoTimeouts: 托管 began because of timeouts (R4); serverError: the
 * `error` message; matchEnd: the match is over (show its end); hint: a hint answer for the view
 * shown was kept (`hint`, below); between: a next_hand countdown came (`between`); chat: a
 * `chat` message (a seat's quick phrase or emote) to show.
 */

export class GameState {
  /** seat: this connection's seat (0-2), or null until the welcome says it. */
  constructor(seat = null) {
    this.seat = seat;
    this.players = null;     // welcome/players: [{kind, nickname?, connected?, ...}] per seat
    this.rules = null;       // the room's RuleSet as JSON
    this.settings = null;
    this.preset = null;
    this.roomStatus = null;  // 'waiting' | 'playing' | 'finished'
    this.handsPerMatch = null;
    this.matchId = null;
    this.hand = null;        // the number (0-based) of the hand of the match shown
    this.version = null;     // the version of the view shown (answered with each action)
    this.lastEvent = null;   // n of the last event received of that hand (-1: none)
    this.view = null;        // the seat's view (engine/views.seat_view)
    this.events = [];        // every event of the hand received so far, in order
    this.clock = null;       // {seconds, decision_seconds, reserve, at: ms of receipt} or null
    this.auto = false;       // 托管: a bot plays this seat
    this.totals = null;      // the match standing sent with the view, base units per seat
    this.commit = null;      // the last commitment of a hand not dealt yet
    this.fairness = {};      // hand -> the fairness data of that hand (update/sync/missed)
    this.history = {};       // hand -> its deltas, per ended hand
    this.lastSettlement = null;  // {view, handNo, winEvents, totals, seat, rules, missed}
    this.matchEnd = null;    // the match_end message
    this.pendingId = null;   // the id of the action sent and not yet acked or refused
    this.hint = null;        // the `hint` answer for the view shown ({hand, version, choices}), or null
    this.between = null;     // next_hand: {version, seconds, ready: [bool ×3], at: ms of receipt} between hands
    this.spectators = 0;     // how many watch the room (旁观)
  }

  /** Seconds left before the next hand (from the last next_hand), or null when none is due. */
  countdown(now) {
    if (!this.between || this.between.version !== this.version) return null;
    return Math.max(0, this.between.seconds - (now - this.between.at) / 1000);
  }

  /** True while an action is on its way (the table takes no other). */
  get busy() { return Boolean(this.pendingId); }

  /** What a reconnecting hello names ({hand, last_event}), or null to ask for everything. */
  resume() {
    return (this.view && this.hand !== null && this.lastEvent !== null
      ? { hand: this.hand, last_event: this.lastEvent } : null);
  }

  /** An action with this id was sent: it is pending until its ack or refusal. */
  sent(id) { this.pendingId = id; }

  /** Forget the pending action id (it timed out); true if it was still pending. */
  expire(id) {
    if (this.pendingId !== id) return false;
    this.pendingId = null;
    return true;
  }

  /** The link dropped: an action in flight is forgotten; true if there was one. */
  disconnected() {
    if (!this.pendingId) return false;
    this.pendingId = null;
    return true;
  }

  /** Merge GET /api/rooms/{code} ({match_id, seats, hands_per_match, rules}). Its seats are
   * taken only before the socket has said who sits where: an HTTP answer may be older than the
   * socket's last `players` (a friend who has just joined would show as offline). */
  roomInfo(data) {
    this.matchId = data.match_id || this.matchId;
    if (data.seats && !this.players) this.players = data.seats;
    this.handsPerMatch = data.hands_per_match || this.handsPerMatch;
    if (data.rules && !this.rules) this.rules = data.rules;
  }

  /** Apply one server message (parsed JSON); now: the caller's time in ms, stamped on the clock. Returns an Outcome. */
  receive(msg, now = 0) {
    switch (msg.type) {
      case 'welcome': return this.onWelcome(msg);
      case 'players':
        this.players = msg.players;
        return { render: true };
      case 'update':
      case 'sync':
        return this.onView(msg, now);
      case 'missed': return this.onMissed(msg);
      case 'refused': return this.onRefused(msg);
      case 'error': return { serverError: msg };
      case 'auto':
        this.auto = Boolean(msg.on);
        return { render: true, autoTimeouts: Boolean(msg.on && msg.reason === 'timeouts') };
      case 'hint': return this.onHint(msg);
      case 'next_hand':  // between hands: the countdown and who is ready
        this.between = { version: msg.version, seconds: msg.seconds, ready: msg.ready, at: now };
        return { between: true };
      case 'spectators':
        this.spectators = msg.count;
        return { render: true };
      case 'chat': return { chat: msg };  // a quick phrase or emote of msg.seat
      case 'rematch':  // 再来一场: the next match's room, asked for by seat msg.by
        this.rematch = msg.code;
        return { rematch: msg };
      case 'match_end':
        this.matchEnd = msg;
        this.matchId = msg.match_id || this.matchId;
        this.roomStatus = 'finished';
        return { render: true, matchEnd: true };
      default:  // entropy_ok (see entropyAccepted), replaced/left (a close follows), pong
        return {};
    }
  }

  onWelcome(msg) {
    this.seat = msg.seat;
    this.players = msg.players;
    this.rules = msg.rules;
    this.settings = msg.settings;
    this.preset = msg.preset;
    this.roomStatus = msg.status;
    this.handsPerMatch = msg.rules ? msg.rules.hands_per_match : null;
    const out = { render: msg.hand === null || msg.hand === undefined };
    if (msg.commit) out.commit = this.takeCommit(msg.commit);
    return out;
  }

  onView(msg, now) {
    const newHand = msg.hand !== this.hand;
    if (msg.type === 'sync' || newHand) {
      this.events = [...msg.events];
    } else {
      const known = this.lastEvent === null ? -1 : this.lastEvent;
      this.events.push(...msg.events.filter((e) => e.n > known));
    }
    if (Array.isArray(msg.totals)) this.totals = msg.totals;
    const fresh = (msg.type === 'update' && !newHand) ? msg.events : [];
    if (newHand || msg.version !== this.version) this.hint = null;  // a new view: its hint is gone
    if (newHand) this.between = null;
    this.hand = msg.hand;
    this.version = msg.version;
    this.view = msg.view;
    if (this.events.length) this.lastEvent = this.events[this.events.length - 1].n;
    else if (this.lastEvent === null || newHand) this.lastEvent = -1;
    this.clock = msg.clock ? { ...msg.clock, at: now } : null;
    this.auto = Boolean(msg.auto);
    if (msg.ack && msg.ack === this.pendingId) this.pendingId = null;
    this.roomStatus = this.roomStatus === 'finished' ? 'finished' : 'playing';
    if (msg.fairness) this.fairness[msg.hand] = msg.fairness;
    const out = { render: true, newHand, fresh };
    if (msg.commit) out.commit = this.takeCommit(msg.commit);
    if (msg.view.result) {
      this.history[msg.hand] = msg.view.result.deltas;
      this.lastSettlement = this.settlement(msg.view, msg.hand, this.events, false);
      out.ended = { hand: msg.hand, view: msg.view, events: this.events, fairness: msg.fairness || null, missed: false };
    }
    return out;
  }

  onMissed(msg) {
    // the end of a hand we did not see (we reconnected after it ended)
    if (msg.view.result) this.history[msg.hand] = msg.view.result.deltas;
    if (msg.fairness) this.fairness[msg.hand] = msg.fairness;
    this.lastSettlement = this.settlement(msg.view, msg.hand, msg.events, true);
    return { ended: { hand: msg.hand, view: msg.view, events: msg.events, fairness: msg.fairness || null, missed: true } };
  }

  onRefused(msg) {
    if (msg.id && msg.id === this.pendingId) this.pendingId = null;
    if (QUIET_REFUSALS.has(msg.code)) return { refused: msg, quiet: true };
    return { render: true, refused: msg, resync: RESYNC_REFUSALS.has(msg.code) };
  }

  /** A hint answer: kept when it is of the view shown (same hand and version) and ranks
   * something; one of an older view, or with no choices, is ignored. */
  onHint(msg) {
    if (msg.hand !== this.hand || msg.version !== this.version) return {};
    if (!Array.isArray(msg.choices) || !msg.choices.length) return {};
    this.hint = msg;
    return { render: true, hint: true };
  }

  /** Close the hint shown; true if there was one. */
  closeHint() {
    if (!this.hint) return false;
    this.hint = null;
    return true;
  }

  /** A commitment worth answering: one of a hand not dealt yet (else null). */
  takeCommit(c) {
    if (this.hand !== null && c.hand <= this.hand) return null;
    this.commit = c;
    return c;
  }

  /** What the settlement of an ended hand shows; totals only when it is the standing after it. */
  settlement(view, handNo, events, missed) {
    const winEvents = {};
    for (const e of events || []) if (e.type === 'win') winEvents[e.seat] = e;
    return { view, handNo, winEvents, totals: missed ? null : this.totals, seat: this.seat, rules: this.rules, missed };
  }

  /** The discard on the table to mark ({seat, tile}), or null when a pung or kong took it. */
  lastDiscard() { return lastDiscard(this.events); }
}

/** The last discard of events not taken since ({seat, tile}), or null. */
export function lastDiscard(events) {
  for (let i = events.length - 1; i >= 0; i--) {
    const e = events[i];
    if (e.type === 'discard') return { seat: e.seat, tile: e.tile };
    if (e.type === 'pung' || e.type === 'kong') return null;
  }
  return null;
}

/**
 * What to do with commitment c given what this browser kept for its hand (known: {commitment,
 * mine, accepted} or undefined): 'resend' my entropy (same commitment, not yet accepted),
 * 'none' (already accepted), or 'fresh' (a new commitment: draw new entropy bound to it).
 */
export function entropyPlan(c, known) {
  if (known && known.commitment === c.commitment && known.mine) return known.accepted ? 'none' : 'resend';
  return 'fresh';
}

/** True when an entropy_ok message confirms the entropy kept for its hand (known, as above). */
export function entropyAccepted(msg, known) {
  return Boolean(known && known.commitment === msg.commitment && known.mine === msg.value);
}
