// The replay list: this browser's player's hands ("my games", issue 16) and every public hand
// the server keeps (GET /api/hands), newest first; each row opens the hand's replay (replay.js).

import { api } from './api.js';
import { el, tableEl } from './dom.js';
import { lang, t } from './i18n.js';
import { playerName } from './seats.js';
import { getPlayer } from './store.js';

function signed(n) { return (n > 0 ? '+' : '') + n; }

function resultSummary(result, names) {
  if (!result) return '';
  if (result.result === 'draw') return t('result_draw');
  return result.winners.map((w) => {
    const v = result.values[String(w)];
    const pats = v.patterns.map((p) => p.name).join(' '); // 屁胡 is a row (R9.1)
    return `${names[w] || t('seat_n', { n: w + 1 })} ${v.by === 'self_draw' ? t('by_self_draw') : t('by_discard')} ${pats} ×${v.multiplier}`;
  }).join('; ');
}

/**
 * A table of ended hands, newest first: ``hands`` as GET /api/hands or a profile's (with
 * ``seat``: that player's seat, whose money is shown in bold), ``matches`` {match id: {names
 * (the three names), started (the match's start, seconds)}}: a match is shown by when it
 * began, not by its id. Each row opens the hand's replay.
 */
export function handsTable(hands, matches) {
  const { table, body } = tableEl('hands', ['col_when', 'col_match_started', 'col_hand', 'col_players', 'col_result', 'col_scores'].map((h) => t(h)));
  for (const h of hands) {
    const tr = el('tr', 'replay-row');
    tr.dataset.match = h.match_id;
    tr.dataset.number = h.number;
    const m = matches[h.match_id] || {};
    tr.appendChild(el('td', 'when', dateTime(h.ended_at)));
    tr.appendChild(el('td', 'match', dateTime(m.started)));  // the match by when it began, not its id
    const a = el('a', null, t('hand_n', { n: h.number + 1 }));
    a.href = `#/replay/${h.match_id}/${h.number}`;
    const td = el('td');
    td.appendChild(a);
    tr.appendChild(td);
    const ns = m.names || [];
    tr.appendChild(el('td', 'players', ns.join(' · ')));
    tr.appendChild(el('td', 'result', resultSummary(h.result, ns)));
    const deltas = el('td', 'deltas mono');
    (h.result ? h.result.deltas : []).forEach((d, s) => {
      if (s) deltas.appendChild(document.createTextNode(' / '));
      deltas.appendChild(el(s === h.seat ? 'b' : 'span', null, signed(d)));
    });
    tr.appendChild(deltas);
    tr.addEventListener('click', (ev) => { if (ev.target.tagName !== 'A') location.hash = a.getAttribute('href'); });
    body.appendChild(tr);
  }
  return table;
}

/** The replay list: "my games" (this browser's player's hands, issue 16) and then every
 * public hand (ended hands: what any replay shows). */
export async function renderReplayList(root) {
  const page = el('div', 'screen replays');
  const me = getPlayer();
  const mine = el('section', 'my-games');
  if (me) {
    mine.appendChild(el('h2', null, t('my_games')));
    mine.appendChild(el('p', 'muted', t('loading')));
    page.appendChild(mine);
  }
  page.appendChild(el('h2', null, t('public_hands')));
  page.appendChild(el('p', 'muted', t('replays_help')));
  const list = el('div', 'hand-list');
  list.appendChild(el('p', 'muted', t('loading')));
  page.appendChild(list);
  root.replaceChildren(page);
  const [hands, matches, profile] = await Promise.all([api.hands(100), api.matches(100),
    me ? api.player(me.player_id) : Promise.resolve(null)]);
  if (profile) {
    const body = profile.ok
      ? (profile.data.hands.length ? handsTable(profile.data.hands, matchesById(profile.data.matches))
        : el('p', 'muted', t('no_my_games')))
      : el('p', 'error', t('load_failed', { message: profile.error }));
    mine.replaceChildren(el('h2', null, t('my_games')), body);
  }
  if (!hands.ok) {
    list.replaceChildren(el('p', 'error', t('load_failed', { message: hands.error })));
    return;
  }
  if (!hands.data.hands.length) {
    list.replaceChildren(el('p', 'muted', t('no_hands')));
    return;
  }
  list.replaceChildren(handsTable(hands.data.hands, matches.ok ? matchesById(matches.data.matches) : {}));
}

/** Matches by id: {names (the seats' names), started (seconds)}, for handsTable. */
function matchesById(matches) {
  const out = {};
  for (const m of matches) {
    out[m.id ?? m.match_id] = { names: (m.players || []).map((p, i) => playerName(m.players, i)), started: m.started_at };
  }
  return out;
}

/** A time (seconds since 1970) as a short local date and time; '' for none. */
function dateTime(seconds) {
  return seconds ? new Date(seconds * 1000).toLocaleString(lang() === 'zh' ? 'zh-CN' : 'en-GB', { dateStyle: 'short', timeStyle: 'short' }) : '';
}
