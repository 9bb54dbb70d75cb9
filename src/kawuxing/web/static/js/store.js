// What the browser keeps between visits (localStorage): nickname, language, and the seat
// tokens of rooms joined (a token reclaims its seat after a reload or on another visit).

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

/** Every stored seat: {CODE: {token, seat, nick, at}}. */
export function allSeats() { return read(KEY_SEATS, {}); }

export function getSeat(code) { return allSeats()[String(code).toUpperCase()] || null; }

export function saveSeat(code, seat, token, nick) {
  const seats = allSeats();
  seats[String(code).toUpperCase()] = { seat, token, nick, at: Date.now() };
  const keep = Object.entries(seats).sort((a, b) => b[1].at - a[1].at).slice(0, 20);
  write(KEY_SEATS, Object.fromEntries(keep));
}

export function forgetSeat(code) {
  const seats = allSeats();
  delete seats[String(code).toUpperCase()];
  write(KEY_SEATS, seats);
}
