// The 提示 (hint) at the table (Game, game.js): asked of the server for the view shown (the
// expert's ranking of this seat's choices, hint.js draws it), closed by a second press or a new
// view; a plain discard picked in the panel raises its tile.

import { hintable } from './hint.js';
import { t } from './i18n.js';
import { handLayout } from './table.js';
import { toast } from './ui.js';

/** Methods of :class:`Game` (game.js), mixed into it. */
export const hintMethods = {
  /** Where the hint stands for the view shown: null (not asked), 'pending' or 'open'. */
  hintState() {
    if (this.s.hint) return 'open';
    return this.ui.hintAsked === this.s.version && this.ui.hintAsked !== null ? 'pending' : null;
  },

  /** The 提示 button: ask for the expert's ranking of this view's choices, or close it. */
  toggleHint() {
    const state = this.hintState();
    if (state === 'open') { this.closeHint(); return; }
    if (state === 'pending' || !hintable(this.view) || this.s.auto) return;
    if (!this.conn.send({ type: 'hint' })) { toast(t('not_connected'), 'error'); return; }
    this.ui.hintAsked = this.s.version;
    this.render();
  },

  closeHint() {
    this.ui.hintAsked = null;
    if (this.s.closeHint()) this.render();
  },

  /** A plain discard picked in the hint panel: raise its tile (the tile just drawn if it is
   * that one), as a selection by keyboard does; Enter or a click then discards it. */
  hintPick(action) {
    const { codes, drawn } = handLayout(this.view);
    const all = drawn ? [...codes, drawn] : codes;
    const i = drawn === action[2] ? all.length - 1 : all.indexOf(action[2]);
    if (i < 0) return;
    this.ui.selected = i;
    this.render();
    this.root.querySelector('.hand .tile.selected')?.focus();
  },
};
