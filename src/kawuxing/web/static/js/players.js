// Players (issue 16, docs/ratings.md): this browser's identity (a guest made from the
// nickname on the first game, kept in localStorage; a password signs in on another device),
// the profile page (#/player/ID: rating, statistics, matches and hands with their replays),
// the leaderboard (#/leaderboard) and the sign-in page (#/login). Every figure comes from the
// server (GET /api/players/{id}, GET /api/leaderboard): this file computes none.

import { api } from './api.js';
import { el } from './dom.js';
import { lang, t } from './i18n.js';
import { handsTable } from './replay.js';
import { deltaText, ratingText } from './settle.js';
import { forgetPlayer, getPlayer, savePlayer } from './store.js';
import { playerName } from './table.js';
import { toast } from './ui.js';

function percent(x) { return x === null || x === undefined ? '—' : `${(100 * x).toFixed(1)}%`; }

function when(seconds) {
  return seconds ? new Date(seconds * 1000).toLocaleString(lang() === 'zh' ? 'zh-CN' : 'en-GB', { dateStyle: 'short', timeStyle: 'short' }) : '';
}

/**
 * This browser's player, made now from ``nickname`` if there is none yet (a guest: POST
 * /api/players). Resolves to {player} ({player_id, name, token}) or {error} (the server's
 * explanation, e.g. the name is taken).
 */
export async function ensurePlayer(nickname) {
  const mine = getPlayer();
  if (mine) return { player: mine };
  const r = await api.newPlayer(nickname);
  if (!r.ok) return { error: r.error, code: r.data && r.data.detail && r.data.detail.code };
  savePlayer(r.data);
  return { player: r.data };
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
  const table = el('table', 'matches');
  const head = el('tr');
  for (const h of ['col_when', 'col_players', 'col_scores', 'col_place', 'col_rating']) head.appendChild(el('th', null, t(h)));
  const thead = el('thead');
  thead.appendChild(head);
  table.appendChild(thead);
  const body = el('tbody');
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
  table.appendChild(body);
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
export async function renderLeaderboard(root) {
  const page = el('div', 'screen leaderboard');
  page.appendChild(el('h2', null, t('leaderboard')));
  page.appendChild(el('p', 'muted', t('leaderboard_help')));
  const box = el('div', 'leader-list');
  box.appendChild(el('p', 'muted', t('loading')));
  page.appendChild(box);
  root.replaceChildren(page);
  const r = await api.leaderboard(100);
  if (!r.ok) { box.replaceChildren(el('p', 'error', t('load_failed', { message: r.error }))); return; }
  if (!r.data.players.length) { box.replaceChildren(el('p', 'muted', t('leaderboard_empty'))); return; }
  const me = getPlayer();
  const table = el('table', 'leaders');
  const head = el('tr');
  for (const h of ['col_rank', 'col_player', 'col_r', 'col_rated_games']) head.appendChild(el('th', null, t(h)));
  const thead = el('thead');
  thead.appendChild(head);
  table.appendChild(thead);
  const body = el('tbody');
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
  table.appendChild(body);
  box.replaceChildren(table);
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
