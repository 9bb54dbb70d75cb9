// The table by keyboard and the help panel of a seat at a room (Game, game.js): the keys
// (KEYS_HELP: a number picks a tile, Enter discards, D the tile drawn, T the hint, R the rules,
// M mute, ? this help) and the sound controls (mute, volume, the tiles' voice).

import { setMuted, setTileVoice, setVolume, soundSettings } from './audio.js';
import { el } from './dom.js';
import { t } from './i18n.js';
import { hintable } from './hint.js';
import { actionGroups } from './actionbar.js';
import { handLayout } from './table.js';
import { closeModal, openModal } from './ui.js';

export const KEYS_HELP = [
  ['1-9 0', 'key_select'], ['← →', 'key_move'], ['Enter', 'key_discard'], ['D', 'key_drawn'],
  ['H', 'act_win'], ['P', 'act_pung'], ['K', 'act_kong'], ['L', 'act_declare'], ['Space', 'act_pass'],
  ['T', 'act_hint'], ['M', 'key_mute'], ['R', 'key_rules'], ['Esc', 'key_cancel'], ['?', 'key_help'],
];

/** Mute, volume and the tiles' voice for the help panel (kept in localStorage by audio.js);
 * changed() after each change. */
function soundControls(changed) {
  const box = el('fieldset', 'sound-controls');
  box.appendChild(el('legend', null, t('sound')));
  // a checkbox row: its label key, its value now, what a change sets
  const toggle = (cls, key, on, set) => {
    const row = el('label', cls);
    const check = el('input');
    check.type = 'checkbox';
    check.checked = on;
    check.onchange = () => { set(check.checked); changed(); };
    row.append(check, el('span', null, t(key)));
    return [row, check];
  };
  const [mute, check] = toggle('mute', 'sound_mute', soundSettings().muted, setMuted);
  const vol = el('label', 'volume');
  const range = el('input');
  range.type = 'range';
  range.min = '0';
  range.max = '100';
  range.value = String(Math.round(soundSettings().volume * 100));
  range.oninput = () => { setVolume(Number(range.value) / 100); check.checked = soundSettings().muted; changed(); };
  vol.append(el('span', null, t('sound_volume')), range);
  const [tiles] = toggle('mute tile-voice', 'sound_tiles', soundSettings().tiles, setTileVoice);
  box.append(mute, vol, tiles);
  return box;
}

/** Methods of :class:`Game` (game.js), mixed into it. */
export const keyMethods = {
  onKey(e) {
    if (e.ctrlKey || e.metaKey || e.altKey) return;
    const target = e.target;
    if (target && (target.tagName === 'INPUT' || target.tagName === 'SELECT' || target.tagName === 'TEXTAREA')) return;
    const modal = document.getElementById('modal');
    if (e.key === 'Escape' && this.chatOpen) {  // the chat panel closes first, the focus back on its button
      this.chatOpen = false;
      this.paintChat();
      this.root.querySelector('.chat-dock .chat-btn')?.focus();
      e.preventDefault();
      return;
    }
    if (modal && !modal.hidden) {  // the waiting room's too (the rules page)
      if (e.key === 'Escape') { closeModal(); e.preventDefault(); }
      return;
    }
    if (!this.view) return;
    const key = e.key;
    // Enter and space on a focused button (a menu, the settlement) keep their usual meaning
    if (target && target.tagName === 'BUTTON' && !target.classList.contains('tile') && (key === ' ' || key === 'Enter')) return;
    const g = actionGroups(this.view);
    const { codes, drawn } = handLayout(this.view);
    const all = drawn ? [...codes, drawn] : codes;
    const lower = key.length === 1 ? key.toLowerCase() : key;
    let used = true;
    if (lower === 'h' && g.win) this.act(g.win);
    else if (lower === 'p' && g.pung) this.act(g.pung);
    else if (lower === 'k' && g.kong.length) this.act(g.kong[0]);
    else if (lower === 'l' && g.declare) this.toggleDeclare();
    else if (lower === 'r' && this.s.rules) this.showRules();
    else if (key === ' ' && g.pass) this.act(g.pass);
    else if (lower === 't' && (hintable(this.view) || this.s.hint)) this.toggleHint();
    else if (lower === 'd' && drawn && (g.discards.has(drawn) || this.ui.declareMode)) this.tileClicked(all.length - 1, drawn);
    else if (/^[0-9]$/.test(key) && all.length) {
      const i = key === '0' ? 9 : Number(key) - 1;
      if (i < all.length) this.select(i);
    } else if ((key === 'ArrowLeft' || key === 'ArrowRight') && all.length) {
      const cur = this.ui.selected === null ? (key === 'ArrowLeft' ? all.length : -1) : this.ui.selected;
      this.select((cur + (key === 'ArrowLeft' ? -1 : 1) + all.length) % all.length);
    } else if (key === 'Enter' && this.ui.selected !== null && all[this.ui.selected]) {
      const code = all[this.ui.selected];
      const saved = this.pointerType;
      this.pointerType = 'keyboard';
      this.tileClicked(this.ui.selected, code);
      this.pointerType = saved;
    } else if (key === 'Escape' && this.s.hint) {
      this.closeHint();  // the hint first; a second Escape cancels a selection
    } else if (key === 'Escape') {
      this.ui.declareMode = false;
      this.ui.selected = null;
      this.render();
    } else if (lower === 'm') this.toggleMute();
    else if (key === '?') this.showHelp();
    else used = false;
    if (used) e.preventDefault();
  },

  /** Raise tile ``i`` of my hand (keyboard); the focus follows it when it was on a tile. */
  select(i) {
    this.ui.selected = i;
    const onTile = document.activeElement && document.activeElement.closest && document.activeElement.closest('.hand');
    this.render();
    if (onTile) this.root.querySelector(`.hand .tile[data-idx="${i}"]`)?.focus();
  },

  showHelp() {
    const box = el('div', 'help');
    box.appendChild(el('h2', null, t('keys_title')));
    const table = el('table', 'keys');
    for (const [k, label] of KEYS_HELP) {
      const tr = el('tr');
      const td = el('td');
      td.appendChild(el('kbd', null, k));
      tr.appendChild(td);
      tr.appendChild(el('td', null, t(label)));
      table.appendChild(tr);
    }
    box.appendChild(table);
    box.appendChild(el('p', 'muted', t('keys_touch')));
    box.appendChild(soundControls(() => this.topBar()));
    openModal(box, { label: t('keys_title') });
  },
};
