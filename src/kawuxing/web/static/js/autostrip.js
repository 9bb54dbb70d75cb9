// The 托管 strip (auto-play on, game.js): its words and the button that stops it. Kept while
// it says the same, so that a tap on its button is not lost to a redraw of the table. On a
// phone held sideways it sits in my plate's row, between my plate and the 快捷语 button, so
// that it covers neither my plate (its score) nor my hand; elsewhere it stays at the bottom
// of the window (table.css .auto-banner).

import { el } from './dom.js';
import { t } from './i18n.js';

const SIDEWAYS = '(max-height: 500px) and (orientation: landscape)';

/** Draw (on) or remove the strip in the table's ``wrap``; ``onOff`` stops 托管. */
export function paintAutoStrip(wrap, on, onOff) {
  let strip = wrap.querySelector(':scope > .auto-banner');
  if (!on) { strip?.remove(); return; }
  const key = `${t('auto_banner')}|${t('auto_off')}`;
  if (!strip || strip.dataset.key !== key) {
    strip?.remove();
    strip = el('div', 'auto-banner');
    strip.dataset.key = key;
    strip.appendChild(el('span', 'words', t('auto_banner')));
    const off = el('button', null, t('auto_off'));
    off.type = 'button';
    off.addEventListener('click', () => strip.onOff());
    strip.appendChild(off);
    wrap.appendChild(strip);
  }
  strip.onOff = onOff;
  placeAutoStrip(wrap);
}

/** On a phone held sideways, put the strip in my plate's row (after a redraw, a resize). */
export function placeAutoStrip(wrap) {
  const strip = wrap && wrap.querySelector(':scope > .auto-banner');
  if (!strip) return;
  const head = wrap.querySelector('.seat.me > .head');
  const inRow = Boolean(window.matchMedia(SIDEWAYS).matches && head && head.offsetParent);
  strip.classList.toggle('in-row', inRow);
  if (!inRow) {
    strip.style.left = strip.style.top = strip.style.maxWidth = '';
    return;
  }
  const w = wrap.getBoundingClientRect();
  const h = head.getBoundingClientRect();
  const spot = wrap.querySelector('.seat.me > .chat-spot');
  const end = spot && spot.offsetParent ? spot.getBoundingClientRect().left : w.right;
  strip.style.left = `${h.right - w.left + 10}px`;
  strip.style.maxWidth = `${Math.max(120, end - h.right - 20)}px`;
  strip.style.top = `${h.top - w.top + h.height / 2}px`;
}
