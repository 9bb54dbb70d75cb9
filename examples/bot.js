#!/usr/bin/env node
// An example 卡五星 bot speaking the kawuxing bot protocol (docs/bot-protocol.md): one JSON
// object a line on stdin, one answer line on stdout for each "request". Plain node, no
// packages, nothing of the kawuxing project imported.
//
//   kawuxing arena --bots "cmd:node examples/bot.js",heuristic --deals 10
//   kawuxing connect --server http://127.0.0.1:8000 --room CODE --token TOKEN \
//       --bot "node examples/bot.js"
//
// Its play: win whenever it may (R7); take no pung or kong; the smallest 漂 (R11.1); in its
// turn discard the most isolated tile (a tile with no copy and no neighbour in the hand goes
// first, honours before suited tiles), never with 亮倒. Logs go to stderr: stdout is the
// protocol.

'use strict';

const readline = require('readline');

// Tiles are MPSZ strings: '5p' (rank 5 of 筒), '7z' (an honour). A hand is 'MPSZ groups':
// '1239p 455s 77z'.
function parseTiles(text) {
  const tiles = [];
  for (const group of text.split(' ').filter(Boolean)) {
    const suit = group[group.length - 1];
    for (const rank of group.slice(0, -1)) tiles.push(rank + suit);
  }
  return tiles;
}

// How isolated a tile is in `hand` (higher: discard first).
function isolation(tile, hand) {
  const rank = Number(tile[0]);
  const suit = tile[1];
  const copies = hand.filter((t) => t === tile).length;
  let score = copies >= 2 ? 0 : 10;
  if (suit === 'z') return score + 5; // an honour makes no run
  for (const [d, w] of [[1, 3], [2, 1]]) {
    if (hand.includes(rank - d + suit)) score -= w;
    if (hand.includes(rank + d + suit)) score -= w;
  }
  if (rank === 1 || rank === 9) score += 1;
  return score;
}

// The index of the answer among request.legal.
function choose(request) {
  const legal = request.legal;
  const win = legal.findIndex((a) => a.verb === 'win');
  if (win >= 0) return win;
  const piao = legal.filter((a) => a.verb === 'piao');
  if (piao.length) {
    const least = Math.min(...piao.map((a) => a.piao));
    return legal.findIndex((a) => a.verb === 'piao' && a.piao === least);
  }
  const pass = legal.findIndex((a) => a.verb === 'pass');
  if (pass >= 0) return pass;
  const hand = parseTiles(request.view.hand);
  let best = -1;
  let bestScore = -Infinity;
  legal.forEach((a, i) => {
    if (a.verb !== 'discard' || a.declare) return;
    const score = isolation(a.tile, hand);
    if (score > bestScore) {
      best = i;
      bestScore = score;
    }
  });
  return best >= 0 ? best : 0; // no plain discard (a declared hand's only moves): the first
}

const lines = readline.createInterface({ input: process.stdin });
let seat = null;
lines.on('line', (line) => {
  const message = JSON.parse(line);
  switch (message.type) {
    case 'start_hand':
      seat = message.seat;
      break;
    case 'request':
      // the object sent back as is ({"index": i} would do as well), with the request's id
      // (optional: the host then checks the answer is for this request)
      const answer = {...message.legal[choose(message)], id: message.id};
      process.stdout.write(JSON.stringify(answer) + '\n');
      break;
    case 'end_hand':
      process.stderr.write(`seat ${seat}: ${message.result.deltas[seat]} this hand\n`);
      break;
    case 'error':
      process.stderr.write(`refused: ${message.message}\n`);
      break;
    default: // hello, bye and the hand's events (deal, draw, discard, pung, kong, declare, …)
      break;
  }
});
lines.on('close', () => process.exit(0));
