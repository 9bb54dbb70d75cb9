// Tile faces drawn as SVG, made for this project (no copied artwork).
// MPSZ codes: 1p-9p 筒 (circles), 1s-9s 条 (sticks), 1m-9m 万 (numeral + 万),
// 5z 白 (blue frame), 6z 发 (green), 7z 中 (red). A tile's body (ivory, rounded, with an edge)
// is CSS (.tile); the SVG draws the face in a 60x80 box, so it stays sharp at any size.

const BLUE = '#1d5aa6';
const GREEN = '#16804a';
const RED = '#c42b23';
const INK = '#1b2437';

const NUMERALS = ['一', '二', '三', '四', '五', '六', '七', '八', '九'];
const CJK_FONT = "'PingFang SC','Hiragino Sans GB','Microsoft YaHei','Noto Sans CJK SC','Source Han Sans SC','WenQuanYi Micro Hei',sans-serif";

// --- 筒: circles ---------------------------------------------------------------------------
const DOTS = {
  2: [[30, 22, GREEN], [30, 58, BLUE]],
  3: [[15, 16, BLUE], [30, 40, RED], [45, 64, GREEN]],
  4: [[18, 23, BLUE], [42, 23, GREEN], [18, 57, GREEN], [42, 57, BLUE]],
  5: [[17, 18, BLUE], [43, 18, GREEN], [30, 40, RED], [17, 62, GREEN], [43, 62, BLUE]],
  6: [[19, 15, GREEN], [41, 15, GREEN], [19, 40, RED], [41, 40, RED], [19, 65, RED], [41, 65, RED]],
  7: [[14, 11, GREEN], [30, 19, GREEN], [46, 27, GREEN], [19, 47, RED], [41, 47, RED],
      [19, 68, RED], [41, 68, RED]],
  8: [[19, 11, BLUE], [41, 11, BLUE], [19, 30, BLUE], [41, 30, BLUE], [19, 50, BLUE],
      [41, 50, BLUE], [19, 69, BLUE], [41, 69, BLUE]],
  9: [[15, 15, BLUE], [30, 15, BLUE], [45, 15, BLUE], [15, 40, RED], [30, 40, RED],
      [45, 40, RED], [15, 65, GREEN], [30, 65, GREEN], [45, 65, GREEN]],
};
const DOT_R = { 2: 12, 3: 9.5, 4: 10.5, 5: 9, 6: 9, 7: 7.6, 8: 8.2, 9: 7.4 };

function dot(x, y, r, color) {
  return `<circle cx="${x}" cy="${y}" r="${r}" fill="${color}"/>`
    + `<circle cx="${x}" cy="${y}" r="${(r * 0.62).toFixed(2)}" fill="#fffdf6"/>`
    + `<circle cx="${x}" cy="${y}" r="${(r * 0.34).toFixed(2)}" fill="${color}"/>`;
}

function circles(n) {
  if (n === 1) {
    return `<circle cx="30" cy="40" r="24" fill="${GREEN}"/>`
      + `<circle cx="30" cy="40" r="19" fill="#fffdf6"/>`
      + `<circle cx="30" cy="40" r="15" fill="${RED}"/>`
      + `<circle cx="30" cy="40" r="9" fill="#fffdf6"/>`
      + `<circle cx="30" cy="40" r="5" fill="${BLUE}"/>`;
  }
  return DOTS[n].map(([x, y, c]) => dot(x, y, DOT_R[n], c)).join('');
}

// --- 条: sticks ----------------------------------------------------------------------------
function stick(x, y, color, h = 20, w = 8) {
  const x0 = x - w / 2;
  const y0 = y - h / 2;
  return `<rect x="${x0}" y="${y0}" width="${w}" height="${h}" rx="${w / 2}" fill="${color}"/>`
    + `<rect x="${x0 + w / 2 - 0.9}" y="${y0 + 2.5}" width="1.8" height="${h - 5}" rx="0.9" fill="#fffdf6" opacity=".55"/>`
    + `<rect x="${x0 - 0.8}" y="${y - 1.2}" width="${w + 1.6}" height="2.4" rx="1.2" fill="${color}"/>`;
}

const STICKS = {
  2: [[30, 22, GREEN], [30, 58, GREEN]],
  3: [[30, 22, GREEN], [19, 58, GREEN], [41, 58, GREEN]],
  4: [[19, 22, GREEN], [41, 22, BLUE], [19, 58, BLUE], [41, 58, GREEN]],
  5: [[16, 22, GREEN], [44, 22, BLUE], [30, 40, RED], [16, 58, BLUE], [44, 58, GREEN]],
  6: [[15, 22, GREEN], [30, 22, GREEN], [45, 22, GREEN], [15, 58, BLUE], [30, 58, BLUE],
      [45, 58, BLUE]],
  7: [[30, 14, RED], [15, 40, GREEN], [30, 40, GREEN], [45, 40, GREEN], [15, 66, BLUE],
      [30, 66, BLUE], [45, 66, BLUE]],
  8: [[12, 24, GREEN], [24, 24, GREEN], [36, 24, GREEN], [48, 24, GREEN], [12, 56, BLUE],
      [24, 56, BLUE], [36, 56, BLUE], [48, 56, BLUE]],
  9: [[15, 14, GREEN], [30, 14, RED], [45, 14, BLUE], [15, 40, GREEN], [30, 40, RED],
      [45, 40, BLUE], [15, 66, GREEN], [30, 66, RED], [45, 66, BLUE]],
};
const STICK_H = { 2: 28, 3: 26, 4: 26, 5: 22, 6: 24, 7: 18, 8: 26, 9: 18 };
const STICK_W = { 2: 10, 3: 9, 4: 9, 5: 8.5, 6: 8.5, 7: 8, 8: 7.5, 9: 8 };

function sticks(n) {
  if (n === 1) {  // one tall bamboo with leaves and a red tip: the 幺鸡 spot, drawn plainly
    return `<path d="M30 12 C 18 16, 14 26, 18 34" stroke="${GREEN}" stroke-width="3" fill="none" stroke-linecap="round"/>`
      + `<path d="M30 22 C 42 24, 46 32, 43 40" stroke="${GREEN}" stroke-width="3" fill="none" stroke-linecap="round"/>`
      + `<rect x="25" y="10" width="10" height="60" rx="5" fill="${GREEN}"/>`
      + `<rect x="28.5" y="13" width="3" height="54" rx="1.5" fill="#fffdf6" opacity=".5"/>`
      + `<rect x="23.5" y="28" width="13" height="3" rx="1.5" fill="${GREEN}"/>`
      + `<rect x="23.5" y="48" width="13" height="3" rx="1.5" fill="${GREEN}"/>`
      + `<circle cx="30" cy="10" r="6" fill="${RED}"/>`;
  }
  return STICKS[n].map(([x, y, c]) => stick(x, y, c, STICK_H[n], STICK_W[n])).join('');
}

// --- 万: numeral over 万 -------------------------------------------------------------------
function characters(n) {
  return `<text x="30" y="33" text-anchor="middle" font-size="28" font-weight="700" fill="${INK}" font-family="${CJK_FONT}">${NUMERALS[n - 1]}</text>`
    + `<text x="30" y="70" text-anchor="middle" font-size="30" font-weight="700" fill="${RED}" font-family="${CJK_FONT}">万</text>`
    + `<text x="7" y="13" font-size="11" font-weight="700" fill="${INK}" font-family="sans-serif">${n}</text>`;
}

// --- dragons --------------------------------------------------------------------------------
function dragon(n) {
  if (n === 5) {  // 白: a blue double frame
    return `<rect x="9" y="11" width="42" height="58" rx="4" fill="none" stroke="${BLUE}" stroke-width="4"/>`
      + `<rect x="16" y="18" width="28" height="44" rx="2" fill="none" stroke="${BLUE}" stroke-width="2"/>`;
  }
  const [ch, color] = n === 6 ? ['发', GREEN] : ['中', RED];
  return `<text x="30" y="55" text-anchor="middle" font-size="44" font-weight="800" fill="${color}" font-family="${CJK_FONT}">${ch}</text>`;
}

const cache = new Map();

/** The SVG markup of a tile face for an MPSZ code ('5p', '7z', ...); '' for an unknown code. */
export function faceSVG(code) {
  if (cache.has(code)) return cache.get(code);
  const n = Number(code[0]);
  const suit = code[1];
  let body = '';
  if (suit === 'p' && n >= 1 && n <= 9) body = circles(n);
  else if (suit === 's' && n >= 1 && n <= 9) body = sticks(n);
  else if (suit === 'm' && n >= 1 && n <= 9) body = characters(n);
  else if (suit === 'z' && n >= 5 && n <= 7) body = dragon(n);
  const svg = body ? `<svg viewBox="0 0 60 80" aria-hidden="true" focusable="false">${body}</svg>` : '';
  cache.set(code, svg);
  return svg;
}

/** The SVG of a tile's back (face-down tiles: a concealed kong, a hidden hand). */
export function backSVG() {
  return '<svg viewBox="0 0 60 80" aria-hidden="true" focusable="false">'
    + '<rect x="5" y="5" width="50" height="70" rx="5" fill="none" stroke="#e9f5ee" stroke-opacity=".45" stroke-width="2"/>'
    + '<path d="M30 22 L42 40 L30 58 L18 40 Z" fill="none" stroke="#e9f5ee" stroke-opacity=".4" stroke-width="2"/>'
    + '</svg>';
}

const SUIT_ZH = { p: '筒', s: '条', m: '万' };
const SUIT_EN = { p: 'dots', s: 'bamboo', m: 'characters' };
const DRAGON_ZH = { 5: '白', 6: '发', 7: '中' };
const DRAGON_EN = { 5: 'white dragon', 6: 'green dragon', 7: 'red dragon' };

/** A tile's name for labels and tooltips: 五筒 / "5 dots". */
export function tileName(code, lang = 'zh') {
  const n = Number(code[0]);
  const suit = code[1];
  if (suit === 'z') return lang === 'zh' ? DRAGON_ZH[n] : DRAGON_EN[n];
  return lang === 'zh' ? `${NUMERALS[n - 1]}${SUIT_ZH[suit]}` : `${n} ${SUIT_EN[suit]}`;
}

const DRAGON_SPOKEN_ZH = { 5: '白板', 6: '发财', 7: '红中' };

/** A tile's name for speech (the live region): tileName, the honours in full in Chinese
 * (白板, 发财, 红中: a lone 发 or 中 read aloud is not heard as a tile). */
export function spokenTileName(code, lang = 'zh') {
  return lang === 'zh' && code[1] === 'z' ? DRAGON_SPOKEN_ZH[Number(code[0])] : tileName(code, lang);
}

/**
 * A tile element. opts: tag ('span' | 'button'), back (face down), cls (extra classes),
 * title, lang (for the label). A span tile is role img with its name as label (a back: with
 * its title, else hidden from the accessibility tree).
 */
export function tileEl(code, opts = {}) {
  const el = document.createElement(opts.tag || 'span');
  el.className = 'tile' + (opts.back ? ' back' : '') + (opts.cls ? ' ' + opts.cls : '');
  const named = opts.tag !== 'button';  // a span tile is an image with its name (a button has its own role)
  if (opts.back) {
    el.innerHTML = backSVG();
    if (opts.title) {
      el.setAttribute('aria-label', opts.title);
      el.title = opts.title;
      if (named) el.setAttribute('role', 'img');
    } else el.setAttribute('aria-hidden', 'true');  // a back says nothing alone: its row is labelled
  } else {
    el.innerHTML = faceSVG(code);
    el.dataset.code = code;
    const name = tileName(code, opts.lang || 'zh');
    el.setAttribute('aria-label', name);
    el.title = opts.title || `${name} (${code})`;
    if (named) el.setAttribute('role', 'img');
    if (code[1] === 'z') el.classList.add('honor');
  }
  if (opts.tag === 'button') el.type = 'button';
  return el;
}

/** A row of tile elements for a list of codes. */
export function tileRow(codes, opts = {}) {
  const row = document.createElement('span');
  row.className = 'tiles' + (opts.rowCls ? ' ' + opts.rowCls : '');
  for (const code of codes) row.appendChild(tileEl(code, opts));
  return row;
}
