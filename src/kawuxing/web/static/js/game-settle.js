// The end of a hand at the table (Game, game.js): the fair deal of each hand (docs/fairness.md:
// my entropy after its commitment, the browser's own check once it ended), the settlement with
// the countdown to the next hand and 准备, and the match end with 再来一场.

import { paintBetween } from './between.js';
import { el } from './dom.js';
import { newEntropy, verifyHand } from './fairness.js';
import { t } from './i18n.js';
import { entropyPlan } from './game-state.js';
import { playAgain } from './rematch.js';
import { fairnessEl, matchEndEl, settlementEl } from './settle.js';
import { saveFair } from './store.js';
import { playerLabel } from './seats.js';
import { closeModal, openModal, toast } from './ui.js';

/** Methods of :class:`Game` (game.js), mixed into it. */
export const settleMethods = {
  /** A commitment for a hand not dealt yet: keep it, and send my entropy for that hand. */
  onCommit(c) {
    const known = this.fair[c.hand];
    const plan = entropyPlan(c, known);
    if (plan === 'none') return;
    if (plan === 'resend') {
      this.conn.send({ type: 'entropy', hand: c.hand, value: known.mine });
      return;
    }
    // a new commitment (or a new one after a server restart): fresh entropy, bound to it
    const info = { commitment: c.commitment, hand_id: c.hand_id, dealer: c.dealer, mine: newEntropy(), accepted: false };
    this.fair[c.hand] = info;
    saveFair(this.code, c.hand, info);
    this.conn.send({ type: 'entropy', hand: c.hand, value: info.mine });
  },

  /** Check an ended hand's deal here, with Web Crypto, then show the verdict. */
  checkFair(hand, fairness, view, events) {
    if (this.verdicts[hand] || !fairness || !fairness.seed) {
      if (!fairness && !this.verdicts[hand]) this.verdicts[hand] = { status: 'none', problems: [] };
      return;
    }
    this.verdicts[hand] = { status: 'checking', problems: [], commitment: (this.fair[hand] || fairness).commitment };
    const suits = (this.s.rules && this.s.rules.suits) || ['p', 's'];
    verifyHand({ fairness, before: this.fair[hand] || null, seat: this.s.seat, suits, dealer: view.dealer, events: [...(events || [])] })
      .catch((e) => ({ status: 'mismatch', problems: [String(e)], commitment: fairness.commitment }))
      .then((verdict) => {
        this.verdicts[hand] = verdict;
        const box = document.querySelector('#modal .settlement .fairness');
        if (box && Number(box.dataset.hand) === hand) box.replaceWith(fairnessEl(verdict, hand));
      });
  },

  /** The countdown to the next hand and who is ready, in the settlement (between.js). */
  paintBetween() {
    const slot = document.querySelector('#modal .settlement-between');
    if (!slot) return;
    const left = this.matchEnd ? null : this.s.countdown(Date.now());
    paintBetween(slot, left, this.s.between && this.s.between.ready, (seat) => playerLabel(this.s.players, seat));
    const next = document.querySelector('#modal .next-hand');
    if (next && this.s.between && this.s.between.ready[this.seat] && !next.disabled) {
      next.disabled = true;  // 托管 (or my ready): nothing to press
      next.textContent = t('ready_done');
    }
  },

  openSettlement(force, missed = false) {
    const ctx = this.s.lastSettlement;
    if (!ctx && !this.matchEnd) return;
    const box = el('div', 'settle-wrap');
    if (ctx) {
      box.appendChild(settlementEl({ ...ctx, players: this.s.players, handsPerMatch: this.s.handsPerMatch,
        fair: this.verdicts[ctx.handNo] || null }));
      if (missed) box.prepend(el('p', 'note', t('missed_hand')));
    }
    const buttons = el('div', 'buttons');
    if (this.matchEnd) {
      box.appendChild(matchEndEl({ players: this.s.players, hands: this.matchEnd.hands, totals: this.matchEnd.totals, rating: this.matchEnd.rating }));
      const again = el('button', 'primary play-again', t('rematch_btn'));
      again.type = 'button';
      again.addEventListener('click', async () => {
        again.disabled = true;
        const me = (this.s.players || [])[this.seat];
        const r = await playAgain(this.code, this.token, (me && me.nickname) || '');
        again.disabled = false;
        if (!r.ok) { toast(t('rematch_failed', { message: r.error }), 'error'); return; }
        closeModal();
        location.hash = `#/room/${r.code}`;
      });
      buttons.appendChild(again);
      const lobby = el('button', null, t('back_to_lobby'));
      lobby.type = 'button';
      lobby.addEventListener('click', () => { closeModal(); this.onLeave(false); });
      buttons.appendChild(lobby);
    } else if (this.view && this.view.result && ctx && ctx.handNo === this.hand) {
      const next = el('button', 'primary next-hand', t('ready_btn'));
      next.type = 'button';
      next.addEventListener('click', () => {
        if (!this.conn.send({ type: 'ready' })) { toast(t('not_connected'), 'error'); return; }
        next.disabled = true;
        next.textContent = t('ready_done');
      });
      const row = el('div', 'ready-row');  // first in the dialog: the countdown (paintBetween) and 准备
      row.append(el('div', 'settlement-between'), next);
      box.prepend(row);
    }
    if (ctx && this.s.matchId) {
      const rp = el('a', 'button', t('replay_this'));
      rp.href = `#/replay/${this.s.matchId}/${ctx.handNo}`;
      rp.addEventListener('click', () => closeModal());
      buttons.appendChild(rp);
    }
    const close = el('button', null, t('close'));
    close.type = 'button';
    close.addEventListener('click', () => closeModal());
    buttons.appendChild(close);
    box.appendChild(buttons);
    this.settlementShownFor = ctx ? ctx.handNo : null;
    this.settlementLive = !missed;
    openModal(box, { label: t('settlement'), wide: true, cls: 'settle-modal' });
    this.paintBetween();
  },
};
