// The table's hint in words (docs/protocol.md, message `hint`): the expert bot's ranking of
// this seat's own legal actions, best first, each {action, ev, reasons: [{code, ...}], text}.
// Pure: no DOM, no socket; the words come from i18n.js in the page's language, so the same
// answer reads in Chinese or English (tests/js/hint.test.mjs). table.js draws the lines.
// Nothing here judges an action: the order, the values and the reasons are the server's.

import { lang, t } from './i18n.js';
import { tileName } from './tiles.js';

/** How many choices the panel shows (the best ones). */
export const HINT_SHOWN = 3;

/** A number of base units as text: 16, 2.5, 0.41 (at most two decimals). */
export function units(x) {
  const r = Math.round(Number(x) * 100) / 100;
  return String(Object.is(r, -0) ? 0 : r);
}

/** A signed value with two decimals: '+1.23', '-0.45', '0.00'. */
export function signed(x) {
  const r = Math.round(Number(x) * 100) / 100;
  if (r === 0) return '0.00';
  return (r > 0 ? '+' : '-') + Math.abs(r).toFixed(2);
}

/** A chance (0-1) in percent: '12', or '<1' for a chance under half a percent. */
export function percent(chance) {
  const p = Math.round(Number(chance) * 100);
  return p === 0 && chance > 0 ? '<1' : String(p);
}

/**
 * An action of view.legal / a hint ([seat, verb, tile?, 'declare'?, hidden?], or
 * [seat, 'piao', n]) in words, with the table's action labels: '打 五筒', '亮倒 · 打 白',
 * 'Pung 碰 5 dots', '漂 2'. phase: the view's phase, which names a win (自摸 in the turn, 抢杠胡
 * on an added kong, 胡 on a discard).
 */
export function actionWords(action, phase) {
  const verb = action[1];
  const tile = typeof action[2] === 'string' ? action[2] : null;
  const name = tile ? tileName(tile, lang()) : '';
  switch (verb) {
    case 'discard': {
      const plain = t('hint_act_discard', { tile: name });
      if (action[3] !== 'declare') return plain;
      const hidden = action[4] || [];
      const hiding = hidden.length ? ' ' + t('declare_hiding', { tiles: hidden.map((c) => tileName(c, lang())).join(' ') }) : '';
      return `${t('act_declare')} · ${plain}${hiding}`;
    }
    case 'win':
      return phase === 'turn' ? t('act_selfdraw') : phase === 'rob' ? t('act_rob') : t('act_win');
    case 'pung': return name ? `${t('act_pung')} ${name}` : t('act_pung');
    case 'kong': return `${t('act_kong')} ${name}`.trim();
    case 'concealed_kong': return `${t('act_concealed_kong')} ${name}`.trim();
    case 'added_kong': return `${t('act_added_kong')} ${name}`.trim();
    case 'pass': return t('act_pass');
    case 'piao': return t('piao_n', { n: action[2] });
    default: return String(verb);
  }
}

/** One wait of a `ready` reason ([tile, live copies, ×self-draw, ×on a discard]) in words;
 * a discard × of 0 means that wait wins by self-draw only (R7.3). */
export function waitWords([tile, live, selfDraw, discard]) {
  const vars = { tile: tileName(tile, lang()), live, self: units(selfDraw), discard: units(discard) };
  return t(discard ? 'hint_wait' : 'hint_wait_self_only', vars);
}

/** One reason of a choice ({code, ...parameters}, agents/expert/brain.py Choice) in words. */
export function reasonWords(r) {
  switch (r.code) {
    case 'win': return t('hint_win', { money: units(r.money) });
    case 'ready': {
      const waits = r.waits || [];
      if (!waits.length) return t('hint_ready_none');
      const list = waits.map(waitWords).join(t('hint_wait_sep'));
      return t(r.declared ? 'hint_ready_declared' : 'hint_ready', { waits: list });
    }
    case 'shanten': return t('hint_shanten', { n: r.n, live: r.live });
    case 'danger': return t('hint_danger', { pct: percent(r.chance), cost: units(r.cost) });
    case 'kong': return t('hint_kong', { money: units(r.money) });
    case 'declare': return t('hint_declare', { gain: signed(r.gain) });
    case 'pass': return t('hint_pass');
    case 'piao': return t('hint_piao', { edge: signed(r.edge) });
    case 'forced': return t('hint_forced');
    case 'second': return t('hint_second', { gap: units(r.gap) });
    default: return String(r.code);
  }
}

/**
 * The lines of a hint answer, best first, at most ``max``: [{rank (1-based), action, tile
 * (MPSZ code or null), words (the action), ev (base units, from now to the end of the hand),
 * evText ('+1.23 底分'), reasons ([text]), text (all of it on one line)}]. phase: the view's
 * phase (see actionWords). An answer with no choices gives [].
 */
export function hintLines(hint, { phase = 'turn', max = HINT_SHOWN } = {}) {
  const choices = (hint && Array.isArray(hint.choices)) ? hint.choices : [];
  return choices.slice(0, max).map((c, i) => {
    const words = actionWords(c.action, phase);
    const evText = t('hint_ev', { ev: signed(c.ev) });
    const reasons = (c.reasons || []).map(reasonWords);
    const tile = c.action[1] !== 'piao' && typeof c.action[2] === 'string' ? c.action[2] : null;
    const text = `${i + 1}. ${words} ${evText}` + (reasons.length ? ` — ${reasons.join(t('hint_reason_sep'))}` : '');
    return { rank: i + 1, action: c.action, tile, words, ev: c.ev, evText, reasons, text };
  });
}

/** True when the table offers the 提示 button: the seat has a decision with more than one
 * legal action (view.legal as the server lists it; nothing is derived from the rules). */
export function hintable(view) {
  return Boolean(view && view.phase !== 'ended' && Array.isArray(view.legal) && view.legal.length > 1);
}
