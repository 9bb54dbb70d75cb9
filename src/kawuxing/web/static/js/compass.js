// The centre of the table (the compass): a lamp on each seat's side, the wall count, the dice,
// the tile on the table or whose turn it is, and the timer's place. Drawn from the view.

import { el } from './dom.js';
import { lang, t } from './i18n.js';
import { playerName, position, positionLabel } from './seats.js';
import { tileEl } from './tiles.js';

const DICE = ['⚀', '⚁', '⚂', '⚃', '⚄', '⚅'];

/** The centre of the table: a lamp on the side of each seat (lit for the seat in turn, 庄 on
 * the dealer's), the wall count, the dice when the view has them, the tile on the table or
 * whose turn it is, and the timer. */
export function compassEl(model) {
  const { view } = model;
  const box = el('div', 'compass');
  box.setAttribute('role', 'group');
  box.setAttribute('aria-label', t('centre_label'));
  const playing = view.phase !== 'ended';
  for (let seat = 0; seat < 3; seat++) {
    const where = position(seat, model.seat);
    const lamp = el('span', `lamp lamp-${where}` + (playing && view.turn === seat ? ' on' : ''));
    lamp.dataset.key = `lamp-${where}`;
    lamp.setAttribute('aria-hidden', 'true');
    lamp.appendChild(el('span', 'arrow', { me: '▼', right: '▶', left: '◀' }[where]));
    // a spectator or a replay has no "上家/下家": the seat's name (cut short by the CSS), not
    // an initial that says little
    const label = el('span', model.readOnly ? 'where name' : 'where', model.readOnly ? playerName(model.players, seat) : positionLabel(seat, model.seat));
    if (model.readOnly) label.title = playerName(model.players, seat);
    lamp.appendChild(label);
    if (view.dealer === seat) lamp.appendChild(el('span', 'chip', t('dealer_short')));
    box.appendChild(lamp);
  }
  const wall = el('div', 'wall');
  wall.appendChild(el('span', 'n', String(view.wall)));
  wall.appendChild(el('span', 'label', t('wall_left')));
  box.appendChild(wall);
  if (Array.isArray(view.dice) && view.dice.length) {
    const dice = el('div', 'dice', view.dice.map((d) => DICE[d - 1] || String(d)).join(' '));
    dice.setAttribute('aria-label', t('dice_label', { dice: view.dice.join(' ') }));
    dice.setAttribute('role', 'img');
    box.appendChild(dice);
  }
  const info = el('div', 'turninfo');
  if (view.phase === 'piao') {
    info.textContent = t('phase_piao');
  } else if (view.phase === 'ended') {
    info.textContent = t('phase_ended');
  } else if (view.table) {
    const who = model.readOnly ? playerName(model.players, view.table.seat)  // a replay: no "you"
      : view.table.seat === model.seat ? t('you') : positionLabel(view.table.seat, model.seat);
    info.appendChild(el('span', 'who', `${who} ${view.table.robbing ? t('adding_kong') : t('discarded')}`));
    const tile = tileEl(view.table.tile, { lang: lang(), cls: 'big' });
    tile.dataset.key = `table-${view.table.seat}-${view.table.tile}-${view.wall}`;
    info.appendChild(tile);
  } else if (view.turn !== null && view.turn !== undefined) {
    const turnText = model.readOnly ? t('their_turn', { who: playerName(model.players, view.turn) })
      : view.turn === model.seat ? t('your_turn') : t('their_turn', { who: positionLabel(view.turn, model.seat) });
    info.appendChild(el('span', 'who', turnText));
  }
  box.appendChild(info);
  const timer = el('div', 'timer');
  timer.id = 'timer';
  box.appendChild(timer);
  return box;
}
