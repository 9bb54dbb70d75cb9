// Small shared pieces of the page: toasts, the modal dialog, the connection badge and the
// room part of the top bar.

import { el } from './dom.js';
import { t } from './i18n.js';

/** A short message at the top of the window, under the bar (never over my hand or the lobby's
 * create button); kind: 'ok' | 'warn' | 'error' | ''. One toast per text and kind: the same
 * words again refresh the one shown. ``title``: more detail on hover (e.g. the server's own
 * words for a refusal; never shown as the text). */
export function toast(text, kind = '', title = '') {
  const box = document.getElementById('toasts');
  if (!box) return;
  // one toast per text: the same words again refresh the one shown (its timer starts anew)
  let item = [...box.children].find((c) => c.textContent === text && c.dataset.kind === kind);
  if (item) {
    clearTimeout(item.fadeTimer);
    clearTimeout(item.goneTimer);
    item.classList.remove('fade');
    box.appendChild(item);
  } else {
    item = el('div', `toast ${kind}`, text);
    item.dataset.kind = kind;
    item.setAttribute('role', kind === 'error' ? 'alert' : 'status');
    box.appendChild(item);
  }
  if (title) item.title = title;
  while (box.children.length > 3) box.firstChild.remove();
  item.fadeTimer = setTimeout(() => item.classList.add('fade'), kind === 'error' ? 6000 : 3500);
  item.goneTimer = setTimeout(() => item.remove(), kind === 'error' ? 6600 : 4100);
}

/** Remove the toasts of ``kind`` (all when none): the lobby's hints do not follow to the table. */
export function clearToasts(kind = null) {
  const box = document.getElementById('toasts');
  if (!box) return;
  for (const item of [...box.children]) if (!kind || item.classList.contains(kind)) item.remove();
}

let modalCloseHook = null;

/** Show ``content`` in the modal; opts: {label, wide, cls, onClose}. */
export function openModal(content, opts = {}) {
  const modal = document.getElementById('modal');
  const panel = el('div', 'panel' + (opts.wide ? ' wide' : '') + (opts.cls ? ' ' + opts.cls : ''));
  panel.setAttribute('role', 'dialog');
  panel.setAttribute('aria-modal', 'true');
  if (opts.label) panel.setAttribute('aria-label', opts.label);
  const x = el('button', 'close-x', '×');
  x.type = 'button';
  x.setAttribute('aria-label', t('close'));
  x.addEventListener('click', () => closeModal());
  panel.appendChild(x);
  panel.appendChild(content);
  modal.replaceChildren(panel);
  modal.hidden = false;
  modal.dataset.kind = opts.cls || '';
  modalCloseHook = opts.onClose || null;
  const first = panel.querySelector('button.primary') || x;
  setTimeout(() => first.focus({ preventScroll: true }), 0);
}

export function closeModal() {
  const modal = document.getElementById('modal');
  if (!modal || modal.hidden) return;
  modal.hidden = true;
  modal.replaceChildren();
  modal.dataset.kind = '';
  const hook = modalCloseHook;
  modalCloseHook = null;
  if (hook) hook();
}

export function modalKind() {
  const modal = document.getElementById('modal');
  return modal && !modal.hidden ? modal.dataset.kind : null;
}

/** The connection badge: status null hides it. */
export function setConnStatus(status, info = {}) {
  const box = document.getElementById('conn-status');
  if (!box) return;
  clearInterval(box._timer);
  if (!status) { box.hidden = true; return; }
  box.hidden = false;
  box.dataset.status = status;
  const paint = () => {
    if (status === 'waiting') {
      const s = Math.max(0, Math.ceil((info.at - Date.now()) / 1000));
      box.textContent = t('conn_waiting', { s });
    } else box.textContent = t('conn_' + status);
  };
  paint();
  if (status === 'waiting') box._timer = setInterval(paint, 500);
}

// the room bar drawn last: what it shows (a bar showing the same is not rebuilt, so that an
// open ⋯ menu, a focused button or a tap under way survive the table's updates), its parts
// (the buttons call the latest onClick) and whether the ⋯ menu is open (kept across redraws)
const bar = { key: null, parts: null, open: false };

function setMenuOpen(open) {
  bar.open = open;
  const box = document.getElementById('room-bar');
  box?.querySelector('.bar-actions')?.classList.toggle('open', open);
  box?.querySelector('.bar-more')?.setAttribute('aria-expanded', String(open));
}

// the ⋯ menu closes when the user picks an item, taps ⋯ again, taps elsewhere or presses Escape
let closerOn = false;
function listenForClose() {
  if (closerOn) return;
  closerOn = true;
  document.addEventListener('pointerdown', (ev) => {
    if (bar.open && !ev.target.closest?.('#room-bar .bar-actions, #room-bar .bar-more')) setMenuOpen(false);
  }, true);
  document.addEventListener('keydown', (ev) => {
    if (bar.open && ev.key === 'Escape') {
      setMenuOpen(false);
      document.querySelector('#room-bar .bar-more')?.focus();
    }
  });
}

/** The room part of the top bar: {code, hand, preset, presetName?, watchers?, buttons[{label, cls,
 * onClick, title}]}; null clears it. The ⋯ menu (phones) only when there are buttons; the top
 * nav's 玩法 link goes to the room's preset (#/rules/<presetName>) while a room is shown. A bar
 * that shows the same as the one drawn is kept (its buttons call the new onClick); the menu
 * stays open across redraws until the user picks an item or taps elsewhere. */
export function setRoomBar(parts) {
  const box = document.getElementById('room-bar');
  if (!box) return;
  const howto = document.getElementById('nav-rules');
  if (howto) howto.setAttribute('href', parts && parts.presetName ? `#/rules/${parts.presetName}` : '#/rules');
  if (!parts) {
    Object.assign(bar, { key: null, parts: null, open: false });
    box.replaceChildren();
    return;
  }
  const buttons = parts.buttons || [];
  const key = JSON.stringify([parts.code, parts.hand || null, parts.preset || null, parts.watchers || null,
    buttons.map((b) => [b.label, b.cls || '', b.title || ''])]);
  bar.parts = parts;
  if (key === bar.key && box.childElementCount) return;
  bar.key = key;
  // a button of the bar focused (from the keyboard) keeps the focus in the bar drawn anew
  const focused = box.contains(document.activeElement) ? [...box.querySelectorAll('button')].indexOf(document.activeElement) : -1;
  const items = [];
  const code = el('span', 'room-code');
  code.appendChild(el('span', 'label', t('room')));
  code.appendChild(el('strong', null, parts.code));
  items.push(code);
  if (parts.hand) items.push(el('span', 'hand-no', parts.hand));
  if (parts.preset) items.push(el('span', 'preset', parts.preset));
  if (parts.watchers) {  // how many watch the room (旁观): {text, title}
    const w = el('span', 'watchers', parts.watchers.text);
    w.title = parts.watchers.title;
    items.push(w);
  }
  const menu = el('div', 'bar-actions');
  buttons.forEach((b, i) => {
    const btn = el('button', 'bar-btn ' + (b.cls || ''), b.label);
    btn.type = 'button';
    if (b.title) btn.title = b.title;
    btn.addEventListener('click', (ev) => { setMenuOpen(false); bar.parts.buttons[i].onClick(ev); });
    menu.appendChild(btn);
  });
  if (!buttons.length) bar.open = false;
  const more = el('button', 'bar-btn bar-more', '⋯');
  more.type = 'button';
  more.setAttribute('aria-label', t('menu'));
  more.addEventListener('click', () => setMenuOpen(!bar.open));
  if (menu.children.length) items.push(more, menu);
  box.replaceChildren(...items);
  setMenuOpen(bar.open);
  if (focused >= 0) box.querySelectorAll('button')[focused]?.focus({ preventScroll: true });
  listenForClose();
}

/** A link back to the lobby (#/), for the pages of something not found. */
export function lobbyLink() {
  const a = el('a', 'button back-lobby', t('back_to_lobby'));
  a.href = '#/';
  return a;
}

export async function copyText(text, input) {
  try {
    await navigator.clipboard.writeText(text);
    toast(t('copied'), 'ok');
  } catch (e) {
    if (input) { input.focus(); input.select(); }
    toast(t('copy_manually', { text }), 'warn');
  }
}
