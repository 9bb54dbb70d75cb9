// Players (issue 16, docs/ratings.md): this browser's identity (a guest made from the
// nickname on the first game, kept in localStorage; a password signs in on another device),
// the profile page (#/player/ID: rating, statistics, matches and hands with their replays),
// the leaderboard (#/leaderboard) and the sign-in page (#/login). Every figure comes from the
// server (GET /api/players/{id}, GET /api/leaderboard): this file computes none.

import { api } from './api.js';
import { el, tableEl } from './dom.js';
import { lang, t } from './i18n.js';
import { handsTable } from './replays.js';
import { deltaText, ratingText } from './settle.js';
import { forgetPlayer, getPlayer, savePlayer } from './store.js';
import { openRoom } from './seating.js';
import { botLevel, playerName } from './seats.js';
import { copyText, toast } from './ui.js';

function percent(x) { return x === null || x === undefined ? '—' : `${(100 * x).toFixed(1)}%`; }

function when(seconds) {
  return seconds ? new Date(seconds * 1000).toLocaleString(lang() === 'zh' ? 'zh-CN' : 'en-GB', { dateStyle: 'short', timeStyle: 'short' }) : '';
}

/** Checks the stored identity with the server (GET /api/players/me): forgotten when the
 * server no longer knows its token; the name kept up to date. Resolves to the player or null. */
export async function checkPlayer() {
  const mine = getPlayer();
  if (!mine) return null;
  const r = await api.me(mine.token);
  if (r.status === 401) { forgetPlayer(); return null; }
  if (r.ok) savePlayer({ ...mine, name: r.data.name, has_password: r.data.has_password });
  return getPlayer();
}

function statRow(grid, label, value, key) {
  const cell = el('div', 'stat');
  cell.dataset.key = key;
  cell.appendChild(el('span', 'stat-value', value));
  cell.appendChild(el('span', 'stat-label', label));
  grid.appendChild(cell);
}

function matchesTable(matches) {
  const { table, body } = tableEl('matches', ['col_when', 'col_players', 'col_scores', 'col_place', 'col_rating'].map((h) => t(h)));
  for (const m of matches) {
    const tr = el('tr', 'match-row');
    tr.dataset.match = m.match_id;
    tr.appendChild(el('td', 'when', when(m.started_at)));
    const names = el('td', 'players');
    m.players.forEach((p, i) => {
      if (i) names.appendChild(document.createTextNode(' · '));
      const name = playerName(m.players, i);
      if (p.player_id) {
        const a = el('a', i === m.seat ? 'me' : null, name);
        a.href = `#/player/${p.player_id}`;
        names.appendChild(a);
      } else names.appendChild(el('span', i === m.seat ? 'me' : null, name));
    });
    tr.appendChild(names);
    tr.appendChild(el('td', 'deltas mono', m.totals.map((v) => (v > 0 ? '+' : '') + v).join(' / ')));
    tr.appendChild(el('td', 'place', m.status === 'finished' ? t('place_n', { n: placeOf(m) }) : t('status_playing')));
    const r = m.rating_after === null ? t('unrated') : deltaText(m.rating_after - m.rating_before);
    tr.appendChild(el('td', 'rating mono', r));
    body.appendChild(tr);
  }
  return table;
}

function placeOf(m) {
  if (m.place !== null) return m.place;
  const mine = m.totals[m.seat];
  const above = m.totals.filter((v) => v > mine).length;
  const tied = m.totals.filter((v) => v === mine).length;
  return above + (tied + 1) / 2;
}

function passwordForm(me, onDone) {
  const form = el('form', 'password-form');
  form.appendChild(el('h3', null, t(me.has_password ? 'password_change' : 'password_set')));
  form.appendChild(el('p', 'help', t('password_help')));
  let old = null;
  if (me.has_password) {
    old = el('input');
    old.type = 'password';
    old.name = 'old_password';
    old.autocomplete = 'current-password';
    old.placeholder = t('password_old');
    form.appendChild(old);
  }
  const pw = el('input');
  pw.type = 'password';
  pw.name = 'password';
  pw.autocomplete = 'new-password';
  pw.minLength = 8;
  pw.maxLength = 128;
  pw.placeholder = t('password_new');
  form.appendChild(pw);
  const again = el('input');  // typed twice: a typo would lock the name away
  again.type = 'password';
  again.name = 'password_again';
  again.autocomplete = 'new-password';
  again.maxLength = 128;
  again.placeholder = t('password_again');
  form.appendChild(again);
  const btn = el('button', 'primary', t('save'));
  btn.type = 'submit';
  form.appendChild(btn);
  form.addEventListener('submit', async (ev) => {
    ev.preventDefault();
    if (pw.value !== again.value) { toast(t('password_mismatch'), 'error'); again.focus(); return; }
    btn.disabled = true;
    const r = await api.setPassword(me.token, pw.value, old ? old.value : undefined);
    btn.disabled = false;
    if (!r.ok) { toast(r.error, 'error'); return; }
    savePlayer({ ...me, has_password: true });
    toast(t('password_saved'), 'ok');
    onDone();
  });
  return form;
}

/** The profile page of player ``id``. */
export async function renderProfile(root, id) {
  const page = el('div', 'screen profile');
  page.appendChild(el('p', 'muted', t('loading')));
  root.replaceChildren(page);
  const r = await api.player(id);
  if (!r.ok) {
    page.replaceChildren(el('p', 'error', t('load_failed', { message: r.error })));
    return;
  }
  const p = r.data;
  const me = getPlayer();
  const mine = Boolean(me && me.player_id === p.player_id);
  page.replaceChildren();
  const head = el('section', 'card profile-head');
  const title = el('h2', 'profile-name', p.name);
  if (mine) title.appendChild(el('span', 'tag', t('you')));
  head.appendChild(title);
  const line = el('p', 'profile-rating');
  line.appendChild(el('span', 'rating mono', ratingText(p.rating)));
  line.appendChild(el('span', 'muted', p.rank ? ` · ${t('rank_n', { n: p.rank })} · ${t('rated_games_n', { n: p.rated_games })}`
    : ` · ${t('no_rated_games')}`));
  head.appendChild(line);
  page.appendChild(head);

  const s = p.stats;
  const stats = el('section', 'card stats-card');
  stats.appendChild(el('h3', null, t('stats_title')));
  const grid = el('div', 'stats');
  statRow(grid, t('stat_games'), String(p.games), 'games');
  statRow(grid, t('stat_hands'), String(s.hands), 'hands');
  statRow(grid, t('stat_win_rate'), percent(s.win_rate), 'win_rate');
  statRow(grid, t('stat_deal_in_rate'), percent(s.deal_in_rate), 'deal_in_rate');
  statRow(grid, t('stat_declare_rate'), percent(s.declare_rate), 'declare_rate');
  statRow(grid, t('stat_avg_multiplier'), s.average_multiplier === null ? '—' : `×${s.average_multiplier.toFixed(2)}`, 'average_multiplier');
  statRow(grid, t('stat_self_draws'), String(s.self_draws), 'self_draws');
  statRow(grid, t('stat_balance'), (s.balance > 0 ? '+' : '') + s.balance, 'balance');
  stats.appendChild(grid);
  const dr = s.declare_results;
  stats.appendChild(el('p', 'declare-results muted', t('declare_results', { won: dr.won, dealt_in: dr.dealt_in, draw: dr.draw, lost: dr.lost })));
  if (s.patterns.length) {
    const pats = el('p', 'patterns');
    pats.appendChild(el('span', 'muted', `${t('stat_patterns')}: `));
    pats.appendChild(document.createTextNode(s.patterns.map((x) => `${x.name} ×${x.count}`).join(' · ')));
    stats.appendChild(pats);
  }
  if (s.best) {
    const best = el('p', 'best-hand');
    best.appendChild(el('span', 'muted', `${t('stat_best')}: `));
    const a = el('a', null, t('best_hand', { multiplier: s.best.multiplier, delta: (s.best.delta > 0 ? '+' : '') + s.best.delta, n: s.best.number + 1 }));
    a.href = `#/replay/${s.best.match_id}/${s.best.number}`;
    best.appendChild(a);
    stats.appendChild(best);
  }
  page.appendChild(stats);

  if (p.versus_bots.length) page.appendChild(versusBotsCard(p.versus_bots));
  if (p.recent_players.length) page.appendChild(recentPlayersCard(p.recent_players, mine ? me : null));

  const ms = el('section', 'card matches-card');
  ms.appendChild(el('h3', null, t('my_matches')));
  ms.appendChild(p.matches.length ? matchesTable(p.matches) : el('p', 'muted', t('no_matches')));
  page.appendChild(ms);
  const hs = el('section', 'card hands-card');
  hs.appendChild(el('h3', null, t('hands_played')));
  const matches = {};
  for (const m of p.matches) matches[m.match_id] = { names: m.players.map((_, i) => playerName(m.players, i)), started: m.started_at };
  hs.appendChild(p.hands.length ? handsTable(p.hands, matches) : el('p', 'muted', t('no_hands')));
  page.appendChild(hs);

  if (mine) {
    const acct = el('section', 'card account-card');
    acct.appendChild(passwordForm(me, () => renderProfile(root, id)));
    const out = el('button', 'leave signout', t('sign_out'));
    out.type = 'button';
    out.title = t('sign_out_help');
    out.addEventListener('click', () => {
      if (me.has_password || window.confirm(t('sign_out_guest'))) {
        forgetPlayer();
        location.hash = '#/';
      }
    });
    acct.appendChild(out);
    page.appendChild(acct);
  }
}

/** The leaderboard page. */
/** A line-up of bots as the server names it (``heuristic:2``, ``heuristic:1+expert``) in
 * the page's words: each bot's level (普通, 高手 …), joined by +. */
export function botsLabel(spec) {
  return spec.split('+').map((bot) => botLevel({ kind: 'bot', bot }) || bot).join(' + ');
}

function signed(x, digits = 0) {
  const text = Math.abs(x).toFixed(digits);
  return x > 0 ? `+${text}` : x < 0 ? `−${text}` : text;
}

/** The profile's results against bots (issue 35): a row a line-up, hands, mean, total. */
function versusBotsCard(rows) {
  const card = el('section', 'card vs-bots-card');
  card.appendChild(el('h3', null, t('vs_bots_title')));
  const { table, body } = tableEl('vs-bots', ['col_bots', 'col_hands', 'col_per_hand', 'col_total'].map((h) => t(h)));
  for (const r of rows) {
    const tr = el('tr');
    tr.dataset.bots = r.bots;
    tr.appendChild(el('td', 'bots', botsLabel(r.bots)));
    tr.appendChild(el('td', 'hands mono', String(r.hands)));
    tr.appendChild(el('td', 'per-hand mono ' + (r.per_hand > 0 ? 'plus' : r.per_hand < 0 ? 'minus' : ''), signed(r.per_hand, 2)));
    tr.appendChild(el('td', 'total mono', signed(r.total)));
    body.appendChild(tr);
  }
  card.appendChild(table);
  card.appendChild(el('p', 'muted', t('vs_bots_help')));
  return card;
}

/** Who played with this player lately; on my own profile each with an invite: a room of
 * mine with a seat kept for a friend and a bot, its link copied to send them. */
function recentPlayersCard(rows, me) {
  const card = el('section', 'card recent-card');
  card.appendChild(el('h3', null, t('recent_title')));
  const list = el('ul', 'recent-players');
  for (const r of rows) {
    const li = el('li');
    li.dataset.player = r.player_id;
    const a = el('a', 'who', r.name || '?');
    a.href = `#/player/${r.player_id}`;
    li.appendChild(a);
    li.appendChild(el('span', 'muted', ` · ${t('recent_matches', { n: r.matches })} · ${when(r.last_played)}`));
    if (me) {
      const b = el('button', 'invite', t('invite_player'));
      b.type = 'button';
      b.addEventListener('click', () => invite(r, me, b));
      li.appendChild(b);
    }
    list.appendChild(li);
  }
  card.appendChild(list);
  return card;
}

async function invite(friend, me, button) {
  button.disabled = true;
  const r = await openRoom({ seats: ['human', 'human', 'heuristic:2'], hands: 8, public: false }, me.name);
  button.disabled = false;
  if (!r.ok) { toast(t('create_failed', { message: r.error }), 'error'); return; }
  const link = `${location.origin}${location.pathname}#/join/${r.data.code}`;
  await copyText(link);
  toast(t('invite_copied', { name: friend.name || '?' }), 'ok');
  location.hash = `#/room/${r.data.code}`;
}

export async function renderLeaderboard(root) {
  const page = el('div', 'screen leaderboard');
  page.appendChild(el('h2', null, t('leaderboard')));
  page.appendChild(el('p', 'muted', t('leaderboard_help')));
  const box = el('div', 'leader-list');
  box.appendChild(el('p', 'muted', t('loading')));
  page.appendChild(box);
  root.replaceChildren(page);
  const bots = el('div', 'bot-boards');
  page.appendChild(bots);
  botBoards(bots);
  const r = await api.leaderboard(100);
  if (!r.ok) { box.replaceChildren(el('p', 'error', t('load_failed', { message: r.error }))); return; }
  if (!r.data.players.length) { box.replaceChildren(el('p', 'muted', t('leaderboard_empty'))); return; }
  const me = getPlayer();
  const { table, body } = tableEl('leaders', ['col_rank', 'col_player', 'col_r', 'col_rated_games'].map((h) => t(h)));
  for (const p of r.data.players) {
    const tr = el('tr', me && me.player_id === p.player_id ? 'me' : null);
    tr.dataset.player = p.player_id;
    tr.appendChild(el('td', 'rank', String(p.rank)));
    const td = el('td', 'name');
    const a = el('a', null, p.name);
    a.href = `#/player/${p.player_id}`;
    td.appendChild(a);
    tr.appendChild(td);
    tr.appendChild(el('td', 'rating mono', ratingText(p.rating)));
    tr.appendChild(el('td', 'games', String(p.rated_games)));
    body.appendChild(tr);
  }
  box.replaceChildren(table);
}

/** The boards of results against bots (GET /api/leaderboard/bots): one a bot level. */
async function botBoards(box) {
  const r = await api.botBoards();
  if (!r.ok) { box.replaceChildren(el('p', 'error', t('load_failed', { message: r.error }))); return; }
  box.replaceChildren(el('h3', null, t('vs_bots_boards')), el('p', 'muted', t('vs_bots_boards_help', { n: r.data.min_hands })));
  if (!r.data.boards.length) { box.appendChild(el('p', 'muted', t('vs_bots_boards_empty'))); return; }
  const me = getPlayer();
  for (const board of r.data.boards) {
    const section = el('section', 'bot-board');
    section.dataset.bots = board.bots;
    section.appendChild(el('h4', null, t('vs_bots_board', { level: botsLabel(board.bots) })));
    const { table, body } = tableEl('leaders', ['col_rank', 'col_player', 'col_per_hand', 'col_hands'].map((h) => t(h)));
    for (const p of board.players.slice(0, 50)) {
      const tr = el('tr', me && me.player_id === p.player_id ? 'me' : null);
      tr.dataset.player = p.player_id;
      tr.appendChild(el('td', 'rank', String(p.rank)));
      const a = el('a', null, p.name || '?');
      a.href = `#/player/${p.player_id}`;
      tr.appendChild(el('td', 'name')).appendChild(a);
      tr.appendChild(el('td', 'per-hand mono', signed(p.per_hand, 2)));
      tr.appendChild(el('td', 'hands mono', String(p.hands)));
      body.appendChild(tr);
    }
    section.appendChild(table);
    box.appendChild(section);
  }
}

/** The sign-in page: name and password give this browser a token of that player. */
export function renderLogin(root) {
  const page = el('div', 'screen login');
  const card = el('section', 'card login-card');
  card.appendChild(el('h2', null, t('sign_in')));
  const me = getPlayer();
  if (me) {  // signed in already: who I am here, and that signing in changes it
    const who = el('p', 'signed-in-as');
    const a = el('a', null, me.name);
    a.href = `#/player/${me.player_id}`;
    who.append(t('signed_in_as_pre'), a, t('signed_in_as_post'));
    card.appendChild(who);
  }
  card.appendChild(el('p', 'help', t('sign_in_help')));
  const form = el('form', 'login-form');
  const name = el('input');
  name.name = 'name';
  name.maxLength = 24;
  name.autocomplete = 'username';
  name.placeholder = t('nickname_ph');
  const pw = el('input');
  pw.type = 'password';
  pw.name = 'password';
  pw.maxLength = 128;
  pw.autocomplete = 'current-password';
  pw.placeholder = t('password');
  const btn = el('button', 'primary', t('sign_in'));
  btn.type = 'submit';
  form.append(name, pw, btn);
  form.addEventListener('submit', async (ev) => {
    ev.preventDefault();
    btn.disabled = true;
    const r = await api.login(name.value.trim(), pw.value);
    btn.disabled = false;
    if (!r.ok) { toast(r.error, 'error'); return; }
    savePlayer({ ...r.data, has_password: true });
    toast(t('signed_in', { name: r.data.name }), 'ok');
    location.hash = `#/player/${r.data.player_id}`;
  });
  card.appendChild(form);
  page.appendChild(card);
  root.replaceChildren(page);
  name.focus();
}
