// The AI review (复盘) of one seat's decisions in an ended hand, on the replay page: what the
// server computed (GET /api/hands/{match}/{n}/review?seat=S, kawuxing.review — the expert
// model's values of each option from the seat's own view, R13) drawn as a panel: the
// agreement and the value lost, the costliest decisions first, then every decision; a step
// opens that moment of the replay. Nothing here values a move.

import { el } from './dom.js';
import { lang, t } from './i18n.js';
import { tileName } from './tiles.js';

/** An action as the review writes it (["discard", "5p"], ["discard", "5p", "declare"],
 * ["pung"], ["concealed_kong", "2s"], ["piao", 1] …) in words. */
export function actionText(action) {
  const [verb, arg] = action;
  const tile = typeof arg === 'string' ? tileName(arg, lang()) : '';
  switch (verb) {
    case 'discard': return action.includes('declare') ? t('rv_declare', { tile }) : t('rv_discard', { tile });
    case 'pung': return t('act_pung');
    case 'kong': return t('act_kong');
    case 'concealed_kong': return `${t('act_concealed_kong')} ${tile}`;
    case 'added_kong': return `${t('act_added_kong')} ${tile}`;
    case 'win': return t('act_win');
    case 'pass': return t('act_pass');
    case 'piao': return t('piao_n', { n: arg });
    default: return verb;
  }
}

/** A value in base units with its sign and two decimals: '+1.25', '-0.40'. */
export function signedValue(v) { return `${v > 0 ? '+' : ''}${v.toFixed(2)}`; }

/** The summary line of a review: agreement (%), decisions and the value lost. */
export function summaryText(review) {
  const n = review.decisions.length;
  if (!n) return t('rv_none');
  return t('rv_summary', { pct: Math.round(100 * review.agreement), n, loss: review.total_loss.toFixed(2) });
}

/** The decisions of ``review`` named costliest (its ``costliest`` steps, in that order). */
export function costliest(review) {
  const byStep = new Map(review.decisions.map((d) => [d.step, d]));
  return review.costliest.map((s) => byStep.get(s)).filter(Boolean);
}

/** One decision: the step (a button opening that moment), what was played, the review's
 * best and the value lost, then the best options with their values. */
function decisionRow(d, goTo) {
  const row = el('li', d.loss > 0 ? 'rv-row lost' : 'rv-row');
  const step = el('button', 'rv-step', t('rv_step', { n: d.step + 1 }));
  step.type = 'button';
  step.title = t('rv_open_step');
  step.addEventListener('click', () => goTo(d.step));
  row.appendChild(step);
  const agree = d.loss === 0 || (d.chosen.join() === d.best.join());
  row.appendChild(el('span', 'rv-played', agree
    ? t('rv_played_best', { action: actionText(d.chosen) })
    : t('rv_played', { action: actionText(d.chosen), best: actionText(d.best), loss: d.loss.toFixed(2) })));
  const options = el('span', 'rv-options muted',
    d.choices.map((c) => `${actionText(c.action)} ${signedValue(c.value)}`).join(' · '));
  row.appendChild(options);
  return row;
}

/** The review panel of ``review`` for the player named ``name``; ``goTo(step)`` opens the
 * replay at the moment of a decision (the state before its action). */
export function reviewPanel(review, name, goTo) {
  const panel = el('section', 'review-panel');
  panel.setAttribute('aria-label', t('rv_title'));
  panel.appendChild(el('h3', null, `${t('rv_title')} · ${name}`));
  panel.appendChild(el('p', 'rv-summary', summaryText(review)));
  panel.appendChild(el('p', 'muted rv-help', t('rv_help')));
  const worst = costliest(review);
  if (worst.length) {
    panel.appendChild(el('h4', null, t('rv_costliest')));
    const list = el('ol', 'rv-list');
    for (const d of worst) list.appendChild(decisionRow(d, goTo));
    panel.appendChild(list);
  }
  if (review.decisions.length) {
    const all = el('details', 'rv-all');
    all.appendChild(el('summary', null, t('rv_all', { n: review.decisions.length })));
    const list = el('ol', 'rv-list');
    for (const d of review.decisions) list.appendChild(decisionRow(d, goTo));
    all.appendChild(list);
    panel.appendChild(all);
  }
  return panel;
}
