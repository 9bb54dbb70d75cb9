// What the live region of the table says (aria-live, in the page's language): the discards,
// claims, 亮倒 and wins of the events an update brought, then what the seat may do now. Pure:
// words from events and the view; nothing here decides a rule (the view's legal actions say
// what the seat may do).

import { t, lang } from './i18n.js';
import { actionGroups } from './actionbar.js';
import { seatWho } from './table.js';
import { spokenTileName as tileName } from './tiles.js';

function sentence(e, model) {
  const who = seatWho(model, e.seat);
  const tile = e.tile ? tileName(e.tile, lang()) : '';
  const mine = e.seat === model.seat && !model.readOnly;
  const say = (key, args) => t(mine ? `${key}_me` : key, args);  // "You punged", not "Me punged"
  switch (e.type) {
    case 'discard': return say('ann_discard', { who, tile });
    case 'draw': return mine && e.tile ? t('ann_draw_me', { tile }) : null;
    case 'pung': return say('ann_pung', { who, tile });
    case 'kong': return e.kind === 'concealed_kong' && !e.tile ? say('ann_concealed_kong', { who }) : say('ann_kong', { who, tile });
    case 'adding_kong': return say('ann_adding_kong', { who, tile });
    case 'declare': return say('ann_declare', { who, waits: (e.waits || []).map((c) => tileName(c, lang())).join(' ') });
    case 'win': return say(e.by === 'self_draw' ? 'ann_self_draw' : 'ann_win', { who, tile });
    default: return null;
  }
}

/** What the seat may do now, from the view's legal actions: its turn to discard, or the claims
 * it may make on the tile on the table (null when it has nothing to decide). */
function nowLine(model) {
  const { view } = model;
  if (model.readOnly || !view.legal || !view.legal.length) return null;
  const g = actionGroups(view);
  const verbs = [];
  if (g.win) verbs.push(view.phase === 'turn' ? t('act_selfdraw') : t('act_win'));
  if (g.pung) verbs.push(t('act_pung'));
  if (g.kong.length) verbs.push(t('act_kong'));
  if (view.phase === 'turn' && (g.discards.size || g.declare)) {
    return verbs.length ? t('ann_your_turn_or', { verbs: verbs.join(' / ') }) : t('ann_your_turn');
  }
  if (verbs.length && view.table) return t('ann_your_claim', { verbs: verbs.join(' / '), tile: tileName(view.table.tile, lang()) });
  if (g.piao.length) return t('choose_piao');
  return null;
}

/**
 * The words for an update: one sentence per event worth saying (a discard, my draw, a pung or
 * kong, a 亮倒 with its waits, a win), then what I may do now. events: the update's fresh events;
 * model: {view, seat, players, readOnly}. Returns a string ('' when nothing is worth saying).
 */
export function announcement(events, model) {
  const lines = (events || []).map((e) => sentence(e, model)).filter(Boolean);
  const now = nowLine(model);
  if (now) lines.push(now);
  return lines.join(lang() === 'zh' ? '。' : '. ');
}
