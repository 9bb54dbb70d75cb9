// The page: language, top bar, and the router (hash addresses, so a shared link works without
// any server route): #/ lobby · #/join/CODE a shared invitation · #/room/CODE your seat at a
// room · #/replays my games and public hands · #/replay/MATCH/N one hand step by step ·
// #/watch/CODE watch a room (旁观, public information only) · #/player/ID a player's profile · #/leaderboard · #/login sign in with a password (issue 16).

import { lang, onLangChange, setLang, t } from './i18n.js';
import { api } from './api.js';
import { renderHowTo } from './howto.js';
import { el } from './dom.js';
import { Game } from './game.js';
import { renderLobby } from './lobby.js';
import { checkPlayer, renderLeaderboard, renderLogin, renderProfile } from './players.js';
import { renderReplay } from './replay.js';
import { renderReplayList } from './replays.js';
import { renderTutorial } from './tutorial.js';
import { getPlayer, getSeat } from './store.js';
import { closeModal, lobbyLink, toast } from './ui.js';
import { renderWatch } from './watch.js';

const app = document.getElementById('app');
let current = null;  // {kind, key, cleanup}

function cleanup() {
  if (current && current.cleanup) current.cleanup();
  current = null;
  closeModal();
}

function paintChrome() {
  document.documentElement.lang = lang() === 'zh' ? 'zh-CN' : 'en';
  document.body.classList.toggle('lang-en', lang() === 'en');
  document.body.classList.toggle('lang-zh', lang() === 'zh');
  document.title = t('page_title');
  const btn = document.getElementById('btn-lang');
  btn.textContent = lang() === 'zh' ? 'EN' : '中文';
  btn.title = t('switch_lang');
  btn.setAttribute('aria-label', t('switch_lang'));
  document.querySelector('.brand .brand-text').textContent = t('title');
  // two words for a link of the top bar: the short one on a narrow phone (app.css), so that the bar keeps one row
  const twoWords = (id, long, short) => {
    const link = document.getElementById(id);
    if (t(short) === t(long)) link.textContent = t(long);
    else link.replaceChildren(el('span', 'long', t(long)), el('span', 'short', t(short)));
  };
  twoWords('nav-replays', 'my_games_nav', 'my_games_nav_short');
  twoWords('nav-leaderboard', 'leaderboard', 'leaderboard_nav_short');
  document.getElementById('nav-rules').textContent = t('howto_nav');
  paintMe();
}

/** The top bar's link to my profile (my name), or to the sign-in page without a player. */
function paintMe() {
  const me = getPlayer();
  const link = document.getElementById('nav-me');
  link.textContent = me ? me.name : t('sign_in');
  link.href = me ? `#/player/${me.player_id}` : '#/login';
  link.classList.toggle('me', Boolean(me));
}

/** The page of a room that does not exist (404 no_room): the words and a link to the lobby. */
function renderNoRoom(code) {
  const page = el('div', 'screen not-found');
  page.appendChild(el('h2', null, t('room_unknown_title', { code })));
  page.appendChild(el('p', null, t('room_unknown')));
  page.appendChild(lobbyLink());
  app.replaceChildren(page);
}

function enterRoom(code) {
  location.hash = `#/room/${code}`;
}

function route(at = null) {
  const hash = location.hash.replace(/^#/, '') || '/';
  const parts = hash.split('/').filter(Boolean);
  const key = parts.join('/');
  if (current && current.key === key) return;
  cleanup();
  paintMe();  // an identity may have been made or forgotten on the page left
  document.body.classList.toggle('in-room', parts[0] === 'room' || parts[0] === 'watch');
  if (parts[0] === 'room' && parts[1]) {
    const code = parts[1].toUpperCase();
    const seat = getSeat(code);
    if (!seat) {  // a room that is not there says so; one I may join sends me to its join page
      current = { kind: 'room-check', key, cleanup: null };
      api.room(code).then((r) => {
        if (!current || current.key !== key) return;
        if (r.status === 404) { current.kind = 'no-room'; current.code = code; renderNoRoom(code); return; }
        toast(t('no_seat_here'), 'warn');
        location.replace(`#/join/${code}`);
      });
      return;
    }
    const game = new Game(app, code, seat, {
      onLeave: () => { location.hash = '#/'; },
    });
    current = { kind: 'room', key, cleanup: () => game.destroy() };
    return;
  }
  if (parts[0] === 'watch' && parts[1]) {
    current = { kind: 'watch', key, cleanup: renderWatch(app, parts[1]) };
    return;
  }
  if (parts[0] === 'join' && parts[1]) {
    const code = parts[1].toUpperCase();
    if (getSeat(code)) { location.replace(`#/room/${code}`); return; }
    current = { kind: 'lobby', key, cleanup: null, joinCode: code };
    renderLobby(app, { joinCode: code, onEnter: enterRoom });
    return;
  }
  if (parts[0] === 'replays') {
    current = { kind: 'replays', key, cleanup: null };
    renderReplayList(app);
    return;
  }
  if (parts[0] === 'player' && parts[1]) {
    current = { kind: 'player', key, cleanup: null, id: decodeURIComponent(parts[1]) };
    renderProfile(app, current.id);
    return;
  }
  if (parts[0] === 'tutorial') {  // the guided first hand (issue 35)
    current = { kind: 'tutorial', key, cleanup: renderTutorial(app) };
    return;
  }
  if (parts[0] === 'rules') {  // 玩法介绍 (issue 35)
    current = { kind: 'howto', key, cleanup: null, preset: parts[1] || null };
    renderHowTo(app, current.preset);
    return;
  }
  if (parts[0] === 'leaderboard') {
    current = { kind: 'leaderboard', key, cleanup: null };
    renderLeaderboard(app);
    return;
  }
  if (parts[0] === 'login') {
    current = { kind: 'login', key, cleanup: null };
    renderLogin(app);
    return;
  }
  if (parts[0] === 'replay' && parts[1] && parts[2] !== undefined) {
    const entry = { kind: 'replay', key, cleanup: null };
    current = entry;
    renderReplay(app, decodeURIComponent(parts[1]), Number(parts[2]), at).then((fn) => {
      if (current === entry) entry.cleanup = fn; else fn();
    });
    return;
  }
  current = { kind: 'lobby', key, cleanup: null };
  renderLobby(app, { joinCode: null, onEnter: enterRoom });
}

document.getElementById('btn-lang').addEventListener('click', () => {
  setLang(lang() === 'zh' ? 'en' : 'zh');
});

onLangChange(() => {
  paintChrome();
  if (current && current.kind === 'lobby') renderLobby(app, { joinCode: current.joinCode || null, onEnter: enterRoom });
  if (current && current.kind === 'replays') renderReplayList(app);
  if (current && current.kind === 'player') renderProfile(app, current.id);
  if (current && current.kind === 'leaderboard') renderLeaderboard(app);
  if (current && current.kind === 'howto') renderHowTo(app, current.preset);
  if (current && current.kind === 'login') renderLogin(app);
  if (current && current.kind === 'no-room') renderNoRoom(current.code);
  if (current && current.kind === 'replay') {  // built anew in the language, at the same step
    const was = window.__kwxReplay && window.__kwxReplay.state;
    const at = was ? { step: was.step } : null;
    cleanup();
    route(at);
  }
});

window.addEventListener('hashchange', () => route());
paintChrome();
route();
checkPlayer().then(paintMe);
// installable on a phone (issue 35): the service worker keeps the client's files for a bad line
if ('serviceWorker' in navigator && window.isSecureContext) {
  navigator.serviceWorker.register('/sw.js').catch(() => { /* the table works without it */ });
}
