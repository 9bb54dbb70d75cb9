// Between hands (issue 12): the countdown to the next hand and who is ready, from the server's
// next_hand message (docs/protocol.md): the server deals when the countdown ends or every seat
// is ready (bots, 托管 and dropped seats at once). Shown in the settlement (players) and under
// the table (spectators).

import { el } from './dom.js';
import { t } from './i18n.js';

/** The countdown line and one mark per seat: left (seconds, or null: none due), ready
 * ([bool ×3]), nameOf(seat). */
export function betweenEl(left, ready, nameOf) {
  const box = el('div', 'between');
  if (left === null) return box;
  const s = Math.ceil(left);
  const line = el('p', 'countdown', t('next_in', { s }));
  line.dataset.seconds = String(s);
  box.appendChild(line);
  const marks = el('ul', 'ready-marks');
  marks.setAttribute('aria-label', t('next_when_ready'));
  (ready || []).forEach((on, seat) => {
    const li = el('li', on ? 'on' : 'off', t(on ? 'ready_of' : 'not_ready_of', { who: nameOf(seat) }));
    li.dataset.seat = seat;
    marks.appendChild(li);
  });
  box.appendChild(marks);
  return box;
}

/** Put the countdown into ``slot`` (an element), drawn anew only when what it says changed. */
export function paintBetween(slot, left, ready, nameOf) {
  if (!slot) return;
  const key = left === null ? '' : `${Math.ceil(left)}|${(ready || []).join(',')}`;
  if (slot.dataset.shown === key) return;
  slot.dataset.shown = key;
  slot.replaceChildren(betweenEl(left, ready, nameOf));
}
