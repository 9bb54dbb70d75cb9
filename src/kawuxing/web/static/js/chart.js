// The running scores of a match as an SVG line chart (the match end's settlement, settle.js):
// one line a seat in its colour, a point a hand, the zero line and a legend with the totals.

import { t } from './i18n.js';
import { SEAT_COLORS } from './seats.js';

function signed(n) { return (n > 0 ? '+' : '') + n; }

/**
 * An SVG chart of the running scores: ``hands`` is the list of each hand's deltas; one line
 * per seat from 0, a point per hand, the zero line, and a legend with the totals.
 */
export function scoreChart(hands, names) {
  const W = 560;
  const H = 290;
  const pad = { l: 44, r: 16, t: 16, b: 70 };
  const series = [0, 1, 2].map((s) => {
    let sum = 0;
    return [0, ...hands.map((d) => (sum += d[s]))];
  });
  const all = series.flat();
  let lo = Math.min(0, ...all);
  let hi = Math.max(0, ...all);
  if (hi === lo) { hi += 1; lo -= 1; }
  const span = hi - lo;
  lo -= span * 0.08;
  hi += span * 0.08;
  const n = hands.length;
  const x = (i) => pad.l + (n ? (i / n) * (W - pad.l - pad.r) : 0);
  const y = (v) => pad.t + ((hi - v) / (hi - lo)) * (H - pad.t - pad.b);
  const parts = [];
  parts.push(`<svg class="chart" viewBox="0 0 ${W} ${H}" role="img" aria-label="${t('chart_title')}">`);
  parts.push(`<title>${t('chart_title')}</title>`);
  const step = niceStep(hi - lo);
  for (let v = Math.ceil(lo / step) * step; v <= hi; v += step) {
    parts.push(`<line x1="${pad.l}" x2="${W - pad.r}" y1="${y(v).toFixed(1)}" y2="${y(v).toFixed(1)}" class="${v === 0 ? 'zero' : 'grid'}"/>`);
    parts.push(`<text x="${pad.l - 6}" y="${(y(v) + 4).toFixed(1)}" text-anchor="end" class="axis">${v}</text>`);
  }
  for (let i = 0; i <= n; i++) {
    parts.push(`<text x="${x(i).toFixed(1)}" y="${H - pad.b + 16}" text-anchor="middle" class="axis">${i}</text>`);
  }
  parts.push(`<text x="${(pad.l + W - pad.r) / 2}" y="${H - pad.b + 31}" text-anchor="middle" class="axis">${t('chart_x')}</text>`);
  series.forEach((vals, s) => {
    const pts = vals.map((v, i) => `${x(i).toFixed(1)},${y(v).toFixed(1)}`).join(' ');
    parts.push(`<polyline points="${pts}" fill="none" stroke="${SEAT_COLORS[s]}" stroke-width="2.5" stroke-linejoin="round"/>`);
    vals.forEach((v, i) => {
      if (i === 0) return;
      const d = hands[i - 1][s];
      parts.push(`<circle cx="${x(i).toFixed(1)}" cy="${y(v).toFixed(1)}" r="3.5" fill="${SEAT_COLORS[s]}"><title>${escapeXml(names[s])} · ${t('hand_n', { n: i })}: ${signed(d)} → ${v}</title></circle>`);
    });
  });
  const lw = (W - pad.l - pad.r) / 3;
  names.forEach((name, s) => {
    const lx = pad.l + s * lw;
    const ly = H - 6;
    parts.push(`<rect x="${lx}" y="${ly - 9}" width="12" height="4" fill="${SEAT_COLORS[s]}"/>`);
    parts.push(`<text x="${lx + 16}" y="${ly - 4}" class="legend">${escapeXml(name)} ${signed(series[s][n])}</text>`);
  });
  parts.push('</svg>');
  return parts.join('');
}

function niceStep(range) {
  const raw = range / 5;
  const mag = 10 ** Math.floor(Math.log10(raw || 1));
  for (const m of [1, 2, 5, 10]) if (m * mag >= raw) return m * mag;
  return 10 * mag;
}

function escapeXml(s) {
  return String(s).replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&apos;' }[c]));
}
