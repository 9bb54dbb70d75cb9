// Who sits where: a seat's position from mine (R1.2: play goes counter-clockwise), its
// colour, its display name (a bot's persona and level in the page's language), its avatar and
// whether it has a connection of its own. Read from the view's players; no rule here.

import { el } from './dom.js';
import { t } from './i18n.js';

/** Position of ``seat`` as seen from ``me``: 'me', 'right' (下家), 'left' (上家). */
export function position(seat, me) {
  if (seat === me) return 'me';
  return seat === (me + 1) % 3 ? 'right' : 'left';
}

/** Each seat's colour: its avatar, its line in the score chart, its border in the standings. */
export const SEAT_COLORS = ['#e8643c', '#3d9be0', '#e0b43a'];

/** A bot seat's level as a tag ('普通', 'strong', '高手', 'random'), or null for a player's seat. */
export function botLevel(p) {
  if (!p || p.kind !== 'bot' || p.vacated) return null;
  const level = (p.bot || '').split(':')[1];
  if (level) return t('bot_level_' + level);
  if (p.bot === 'random') return t('bot_random');
  if (p.bot === 'expert') return t('bot_expert');
  return p.bot === 'heuristic' ? t('bot_level_3') : null;  // the bare name is its level 3
}

/**
 * A player's display name: the nickname; for a bot seat its persona in the page's language
 * (p.persona.key, e.g. persona_lao_zhang: 老张 / Lao Zhang, distinct at the table, chosen by
 * the server), or for a record without one "机器人 普通". A seat a player left to a bot keeps
 * the player's nickname (the 托管 badge says a bot plays it).
 */
export function playerName(players, seat) {
  const p = players && players[seat];
  if (!p) return t('seat_n', { n: seat + 1 });
  if (p.kind === 'open' || !p.nickname) return t('seat_open');
  if (p.kind === 'bot' && !p.vacated) {
    if (p.persona && p.persona.key) return t(p.persona.key);
    const level = botLevel(p);
    return level ? `${t('bot')} ${level}` : t('bot');
  }
  return p.nickname;
}

/** The name with a bot's level as a tag: '老张 · 困难'; a player's seat: the nickname. */
export function playerLabel(players, seat) {
  const p = players && players[seat];
  const level = p && p.persona ? botLevel(p) : null;
  return level ? `${playerName(players, seat)} · ${level}` : playerName(players, seat);
}

/** The letter of an avatar: a name's first character after 老/小 (老张 → 张, Lao Zhang → Z). */
export function initialOf(name) {
  const text = String(name || '').trim();
  const words = text.split(/\s+/);
  if (words.length > 1 && /^(lao|xiao)$/i.test(words[0])) return words[1][0].toUpperCase();
  const chars = [...text];
  if (chars.length > 1 && (chars[0] === '老' || chars[0] === '小')) return chars[1];
  return (chars[0] || '?').toUpperCase();
}

/** Whether seat player ``p`` is someone on a connection of their own (a player, or an outside
 * bot program: kind ``external``, docs/bot-protocol.md) whose link state is shown. */
export function connects(p) {
  return Boolean(p && (p.kind === 'human' || p.kind === 'external'));
}

/** A small avatar: the initial of the seat's name in a circle of the seat's colour. */
export function avatarEl(players, seat) {
  const p = players && players[seat];
  const open = !p || p.kind === 'open' || !p.nickname;
  const a = el('span', 'avatar' + (p && p.kind === 'bot' && !p.vacated ? ' bot' : ''), open ? '' : initialOf(playerName(players, seat)));
  a.setAttribute('aria-hidden', 'true');
  if (!open) a.style.background = SEAT_COLORS[seat];
  return a;
}

export function positionLabel(seat, me) {
  return t('pos_' + position(seat, me));
}

/** A player's seat's presence as the server told it, for a seat head: a dot (online,
 * joining, offline) and, for another player's seat, 进入中 (has just joined, connecting: not
 * away), or 离线 with 托管's tag when a bot plays the dropped seat, else the button that hands
 * it to a bot (``model.toBot``). My own dot follows my link to the server, not the last
 * players list it sent. */
export function presenceEls(model, seat, p) {
  const on = seat === model.seat && model.linkOpen !== undefined ? model.linkOpen : p.connected;
  const arriving = !on && p.arriving;
  const dot = el('span', 'dot ' + (on ? 'on' : arriving ? 'wait' : 'off'));
  dot.title = on ? t('online') : arriving ? t('arriving_title') : t('offline');
  const out = [dot];
  if (seat === model.seat || on) return out;
  if (arriving) {
    const tag = el('span', 'badge arriving', t('arriving'));
    tag.title = t('arriving_title');
    out.push(tag);
  } else if (!p.connected) {  // dropped: said at once, and a bot may take over
    out.push(el('span', 'badge offline', t('offline')));
    if (p.away_bot) {
      const tag = el('span', 'badge bot', t('bot_took_over'));
      tag.title = t('hand_to_bot_title');
      out.push(tag);
    } else if (model.toBot) {
      const b = el('button', 'to-bot', t('hand_to_bot'));
      b.type = 'button';
      b.dataset.key = 'to-bot';
      b.title = t('hand_to_bot_title');
      b.onclick = () => model.toBot(seat);
      out.push(b);
    }
  }
  return out;
}
