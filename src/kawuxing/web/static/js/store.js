// What the browser keeps between visits (localStorage): nickname, language, the player's
// identity (its token) and the seat tokens of rooms joined (a token reclaims its seat after a
// reload or on another visit).

const KEY_SEATS = 'kwx.seats';

function read(key, fallback) {
  try {
    const raw = localStorage.getItem(key);
    return raw === null ? fallback : JSON.parse(raw);
  } catch (e) {
    return fallback;
  }
}

function write(key, value) {
  try { localStorage.setItem(key, JSON.stringify(value)); } catch (e) { /* private mode */ }
}

export function getNick() { return read('kwx.nick', ''); }
export function setNick(nick) { write('kwx.nick', nick); }
export function getLangPref() { return read('kwx.lang', null); }
export function setLangPref(lang) { write('kwx.lang', lang); }

/** This browser's player (issue 16): {player_id, name, token, has_password} or null. The
 * token is the identity: it is sent only to this server, in Authorization. */
export function getPlayer() { return read('kwx.player', null); }
export function savePlayer(p) {
  write('kwx.player', { player_id: p.player_id, name: p.name, token: p.token, has_password: Boolean(p.has_password) });
}
export function forgetPlayer() {
  try { localStorage.removeItem('kwx.player'); } catch (e) { /* private mode */ }
}

/** Every stored seat: {CODE: {token, seat, nick, at}}. */
export function allSeats() { return read(KEY_SEATS, {}); }

export function getSeat(code) { return allSeats()[String(code).toUpperCase()] || null; }

export function saveSeat(code, seat, token, nick) {
  const seats = allSeats();
  seats[String(code).toUpperCase()] = { seat, token, nick, at: Date.now() };
  const keep = Object.entries(seats).sort((a, b) => b[1].at - a[1].at).slice(0, 20);
  write(KEY_SEATS, Object.fromEntries(keep));
}

/**
 * The fair-deal data of a room's hands as this browser saw them before each deal (R3.1,
 * docs/fairness.md): {hand: {commitment, hand_id, dealer, mine (my entropy), accepted}}.
 */
export function getFair(code) { return read('kwx.fair', {})[String(code).toUpperCase()] || {}; }

export function saveFair(code, hand, info) {
  const all = read('kwx.fair', {});
  const key = String(code).toUpperCase();
  const room = { ...(all[key] || {}), [hand]: { ...info, at: Date.now() } };
  const hands = Object.entries(room).sort((a, b) => Number(b[0]) - Number(a[0])).slice(0, 4);
  all[key] = Object.fromEntries(hands);
  const rooms = Object.entries(all).sort((a, b) => latest(b[1]) - latest(a[1])).slice(0, 20);
  write('kwx.fair', Object.fromEntries(rooms));
}

function latest(room) { return Math.max(0, ...Object.values(room).map((h) => h.at || 0)); }

export function forgetSeat(code) {
  const seats = allSeats();
  delete seats[String(code).toUpperCase()];
  write(KEY_SEATS, seats);
}

/** The table's sound: {muted (bool), volume (0-1)}; unmuted at 0.8 until the player changes it. */
export function getSound() {
  const s = read('kwx.sound', {});
  const volume = Number.isFinite(s.volume) ? Math.min(1, Math.max(0, s.volume)) : 0.8;
  return { muted: Boolean(s.muted), volume, tiles: s.tiles !== false };
}
export function setSound(sound) {
  write('kwx.sound', { muted: Boolean(sound.muted), volume: sound.volume, tiles: sound.tiles !== false });
}

/** The players whose quick phrases and emotes this browser hides (issue 12): keys of
 * chat.js muteKey (a player's id, else their nickname), kept across rooms. */
export function getMuted() { return read('kwx.muted', []); }
export function setMuted(keys) { write('kwx.muted', [...new Set(keys)].slice(-200)); }
