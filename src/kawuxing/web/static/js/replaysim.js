// Replaying a finished hand from its record (GET /api/hands/{match}/{n}, kawuxing-hand format:
// rules, dealer, the three dealt hands, the draw order, piao, every accepted action, result),
// step by step, in the browser. The record holds no events, so this follows the engine's flow
// (RULES.md R4-R6, R8): a discard waits for the answers recorded after it; when the next action
// is no answer the tile is claimed (pung/kong/win) or the next seat draws. Kong money (R6.1-
// R6.3, chained R6.5) is counted as it is paid; the final scores are the record's result.
// Only finished hands have records (R13: a record holds the wall).

import { codeOf, countsOf, heldCounts, kindOf, parseTiles, waits } from './shapes.js';

const ANSWERS = new Set(['pass', 'pung', 'kong', 'win']);

function copySeat(s) {
  return {
    hand: [...s.hand], melds: s.melds.map((m) => ({ ...m })), discards: [...s.discards],
    claimed: [...s.claimed], declared: s.declared, waits: [...s.waits], hidden: [...s.hidden],
    drawn: s.drawn, piao: s.piao, kongTurn: s.kongTurn,
  };
}

/**
 * Every step of a record: steps[0] is the deal (and the dealer's first draw), steps[k] the table
 * after the first k actions. Each step: {step, action, seats[{hand (counts), melds[{kind, tile}],
 * discards, claimed, declared, waits, hidden, drawn, piao}], wall, dealer, phase, turn, table,
 * deltas, ended, result}. Throws Error for a record it cannot follow.
 */
export function simulate(record) {
  if (!record || record.format !== 'kawuxing-hand') throw new Error('not a kawuxing-hand record');
  const rules = record.rules || {};
  const base = rules.base || 1;
  const suits = rules.suits || ['p', 's'];
  const draws = parseTiles(record.draws);
  const actions = record.actions || [];
  const result = record.result || null;
  const st = {
    seats: record.hands.map((h, i) => ({
      hand: countsOf(parseTiles(h)), melds: [], discards: [], claimed: [], declared: false,
      waits: [], hidden: [], drawn: null, piao: record.piao ? record.piao[i] : null,
      kongTurn: false,
    })),
    next: 0, dealer: record.dealer, current: record.dealer, phase: 'turn', pending: null,
    chain: 0, deltas: [0, 0, 0], ended: false, winners: [],
  };

  function draw(seat, replacement = false) {
    if (st.next >= draws.length) throw new Error('the wall ran out');
    const tile = draws[st.next++];
    const s = st.seats[seat];
    s.hand[kindOf(tile)] += 1;
    s.drawn = tile;
    if (!replacement) { st.chain = 0; s.kongTurn = false; }
    st.phase = 'turn';
    st.current = seat;
    st.pending = null;
  }

  function kongMoney(konger, payers, money) {
    const amount = money * 2 ** (st.chain - 1) * base;
    for (const p of payers) { st.deltas[p] -= amount; st.deltas[konger] += amount; }
  }

  function others(seat) { return [0, 1, 2].filter((o) => o !== seat); }

  function selfDrawWin(a) {
    const v = result && result.values && result.values[String(a[0])];
    return Boolean(v && v.by === 'self_draw');
  }

  function isAnswer(a) {
    const p = st.pending;
    return Boolean(a && p && a[0] !== p.seat && ANSWERS.has(a[1]) && !(a[1] === 'win' && selfDrawWin(a)));
  }

  function endHand(kind) {
    st.ended = true;
    st.phase = 'ended';
    st.pending = null;
    st.result = kind;
    if (result) st.deltas = [...result.deltas];
  }

  function resolve() {
    const p = st.pending;
    const winners = Object.keys(p.answers).filter((s) => p.answers[s] === 'win').map(Number);
    const giver = st.seats[p.seat];
    const k = kindOf(p.tile);
    if (winners.length) {
      if (p.robbing) giver.hand[k] -= 1;  // R7.4: the robbed tile leaves the konger's hand
      else giver.claimed[giver.claimed.length - 1] = true;
      st.winners = winners;
      endHand('win');
      return;
    }
    for (const [seatText, verb] of Object.entries(p.answers)) {
      const seat = Number(seatText);
      const s = st.seats[seat];
      if (verb === 'pung') {
        giver.claimed[giver.claimed.length - 1] = true;
        s.hand[k] -= 2;
        s.melds.push({ kind: 'pung', tile: p.tile });
        s.drawn = null;
        s.kongTurn = false;
        st.chain = 0;
        st.phase = 'turn';
        st.current = seat;
        st.pending = null;
        return;
      }
      if (verb === 'kong') {  // R6.3 直杠
        giver.claimed[giver.claimed.length - 1] = true;
        s.hand[k] -= 3;
        s.melds.push({ kind: 'exposed_kong', tile: p.tile });
        st.chain = p.afterKong ? st.chain + 1 : 1;
        kongMoney(seat, [p.seat], rules.direct_kong_pay || 2);
        s.kongTurn = true;
        draw(seat, true);
        return;
      }
    }
    if (p.robbing) {  // nobody robbed: the added kong stands (R6.2)
      giver.hand[k] -= 1;
      const m = giver.melds.find((x) => x.kind === 'pung' && x.tile === p.tile);
      if (m) m.kind = 'added_kong';
      st.chain = giver.kongTurn ? st.chain + 1 : 1;
      kongMoney(p.seat, others(p.seat), 1);
      giver.kongTurn = true;
      draw(p.seat, true);
    } else if (st.next >= draws.length) {
      endHand('draw');  // R5.5 荒庄
    } else {
      draw((p.seat + 1) % 3);
    }
  }

  function apply(a) {
    const [seat, verb] = a;
    const s = st.seats[seat];
    if (verb === 'piao') {
      s.piao = a[2];
      if (st.seats.every((x) => x.piao !== null && x.piao !== undefined)) draw(st.dealer);
      return;
    }
    if (st.pending) {  // an answer to the tile on the table
      st.pending.answers[seat] = verb;
      return;
    }
    if (verb === 'win') {  // self-draw (R7.2)
      st.winners = [seat];
      endHand('win');
    } else if (verb === 'discard') {
      const tile = a[2];
      s.hand[kindOf(tile)] -= 1;
      s.discards.push(tile);
      s.claimed.push(false);
      const afterKong = s.kongTurn;
      s.drawn = null;
      if (a[3] === 'declare') {  // R8.1 亮倒
        s.declared = true;
        s.hidden = Array.isArray(a[4]) ? [...a[4]] : [];
        s.waits = waits(s.hand, heldCounts(s.hand, s.melds), suits).map(codeOf);
      }
      st.pending = { seat, tile, robbing: false, afterKong, answers: {} };
      st.phase = 'claim';
    } else if (verb === 'concealed_kong') {  // R6.1 暗杠
      const tile = a[2];
      s.hand[kindOf(tile)] -= 4;
      s.melds.push({ kind: 'concealed_kong', tile });
      st.chain = s.kongTurn ? st.chain + 1 : 1;
      kongMoney(seat, others(seat), 2);
      s.kongTurn = true;
      draw(seat, true);
    } else if (verb === 'added_kong') {  // R6.2 补杠, open to robbing (R7.4)
      s.drawn = null;
      st.pending = { seat, tile: a[2], robbing: true, afterKong: false, answers: {} };
      st.phase = 'rob';
    } else {
      throw new Error(`cannot follow action ${JSON.stringify(a)}`);
    }
  }

  function snapshot(step) {
    const p = st.pending;
    return {
      step, action: step > 0 ? actions[step - 1] : null,
      seats: st.seats.map(copySeat), wall: draws.length - st.next, dealer: st.dealer,
      phase: st.phase, turn: st.ended || st.phase === 'piao' ? null : st.current,
      table: p ? { seat: p.seat, tile: p.tile, robbing: p.robbing } : null,
      deltas: [...st.deltas], ended: st.ended, winners: [...st.winners],
      result: st.ended ? result : null,
    };
  }

  const needPiao = !record.piao && (rules.piao_choices || []).length > 0;
  if (needPiao) { st.phase = 'piao'; st.seats.forEach((s) => { s.piao = null; }); } else draw(st.dealer);
  const steps = [snapshot(0)];
  actions.forEach((a, i) => {
    apply(a);
    const next = actions[i + 1];
    if (st.pending && !isAnswer(next)) resolve();
    steps.push(snapshot(i + 1));
  });
  if (!st.ended) throw new Error('the record does not reach the end of the hand');
  return steps;
}

function mpsz(counts) {
  const out = [];
  counts.forEach((n, k) => { for (let i = 0; i < n; i++) out.push(codeOf(k)); });
  return out.join(' ');
}

/**
 * A step as a seat view (the shape of engine/views.py seat_view) for the table renderer:
 * ``bottom`` is the seat shown at the bottom; ``all`` shows every hand face up. Otherwise only
 * what that seat could see (R13): others' hands when declared (face-down triplets and the tile
 * just drawn excepted) and every hand once the hand is over.
 */
export function stepView(snap, bottom, all) {
  const me = snap.seats[bottom];
  const seats = snap.seats.map((s, i) => {
    const entry = {
      seat: i,
      melds: s.melds.map((m) => ({
        kind: m.kind,
        tile: m.kind === 'concealed_kong' && i !== bottom && !all && !snap.ended ? null : m.tile,
      })),
      discards: [...s.discards], claimed: [...s.claimed],
      concealed_count: s.hand.reduce((a, b) => a + b, 0),
      declared: s.declared, piao: s.piao,
    };
    if (s.declared) {
      entry.waits = [...s.waits];
      entry.hidden_triplets = all || snap.ended ? 0 : s.hidden.length;
    }
    if (i !== bottom) {
      if (snap.ended) entry.revealed = mpsz(s.hand);
      else if (all) {  // the tile just drawn is shown apart (view.drawnBySeat)
        const shown = [...s.hand];
        if (s.drawn && snap.turn === i && snap.phase === 'turn') shown[kindOf(s.drawn)] -= 1;
        entry.revealed = mpsz(shown);
      }
      else if (s.declared) {
        const shown = [...s.hand];
        for (const h of s.hidden) shown[kindOf(h)] -= Math.min(3, shown[kindOf(h)]);
        if (s.drawn && snap.turn === i && shown[kindOf(s.drawn)] > 0) shown[kindOf(s.drawn)] -= 1;
        entry.revealed = mpsz(shown);
      }
    } else if (snap.ended) entry.revealed = mpsz(s.hand);
    return entry;
  });
  const view = {
    seat: bottom, dealer: snap.dealer, phase: snap.phase, turn: snap.turn, wall: snap.wall,
    hand: mpsz(me.hand), drawn: snap.turn === bottom && !snap.ended ? me.drawn : null,
    seats, table: snap.table, legal: [], deltas: [...snap.deltas],
  };
  if (all && !snap.ended && snap.phase === 'turn' && snap.turn !== null && snap.turn !== bottom) {
    view.drawnBySeat = snap.seats[snap.turn].drawn;  // another seat's tile just drawn, apart
  }
  if (snap.ended && snap.result) view.result = snap.result;
  return view;
}
