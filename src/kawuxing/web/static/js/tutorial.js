// 新手教程 (issue 35): the guided first hand, #/tutorial. The server sends seat 0's frames of a
// scripted hand (GET /api/tutorial: views and events drawn by the engine, and the steps where
// the newcomer plays); this page draws them with the table, lets the two other seats play
// theirs, and at each lesson waits for the newcomer's move — a discard, a pung, a 亮倒, the
// 卡五星 win — with a coach saying what to do and why. A move other than the lesson's is not
// played: the coach says what to look for. Nothing here decides a rule.

import { api } from './api.js';
import { el } from './dom.js';
import { BANNER_MS, flyClaims, reducedMotion, sayEvent, winBannerEl } from './effects.js';
import { onLangChange, t } from './i18n.js';
import { settlementEl } from './settle.js';
import { renderTable } from './table.js';

const OTHERS_MS = 1100;  // a scripted seat's move stays this long before the next

/** Whether two actions (JSON lists) are the same. */
export function sameAction(a, b) {
  return JSON.stringify(a) === JSON.stringify(b);
}

/** The lesson of frame ``step`` (``lessons`` of GET /api/tutorial), or null: the script plays. */
export function lessonAt(lessons, step) {
  return lessons.find((l) => l.step === step) || null;
}

/** What a click on tile ``code`` plays in ``view``: its discard (with 亮倒 in declare mode)
 * when ``view.legal`` holds one, else null. */
export function tileAction(view, code, declareMode) {
  const want = declareMode ? [view.seat, 'discard', code, 'declare'] : [view.seat, 'discard', code];
  return view.legal.find((a) => sameAction(a, want)) || null;
}

/** Where the coach points for ``lesson`` (a CSS selector in the board): the tile to discard,
 * else the action's key (亮倒 first, then the tile, in declare mode). */
export function pointAt(lesson, declareMode) {
  const [, verb, tile, declare] = lesson.action;
  if (verb === 'discard' && declare && !declareMode) return '.actions .act-declare';
  if (verb === 'discard' && declare) return `.declare-panel .option[data-tile="${tile}"] .pick`;
  if (verb === 'discard') return `.hand .tile[data-code="${tile}"]`;
  return `.actions .act-${verb}`;
}

const PLAYERS = [
  { kind: 'human', nickname: null },
  { kind: 'bot', bot: 'heuristic:2', nickname: 'bot', persona: { key: 'persona_lao_zhang' } },
  { kind: 'bot', bot: 'heuristic:2', nickname: 'bot', persona: { key: 'persona_xiao_wang' } },
];

/** Draw #/tutorial into ``root``; returns the cleanup (stops the scripted seats' timer). */
export function renderTutorial(root) {
  const page = el('div', 'screen tutorial');
  page.appendChild(el('p', 'muted', t('loading')));
  root.replaceChildren(page);
  const state = { data: null, step: 0, intro: true, wrong: false, declareMode: false, selected: null, callouts: {}, banner: null, timer: null, gone: false };
  const players = () => PLAYERS.map((p, i) => (i === 0 ? { ...p, nickname: t('tut_you') } : p));
  const coach = el('section', 'card coach');
  coach.setAttribute('aria-live', 'polite');
  const tableBox = el('div', 'table-screen');
  const settleBox = el('div', 'tutorial-settle');

  function frame() { return state.data.frames[state.step]; }

  /** The coach says ``text`` (``short``: in one line, what a phone held sideways shows);
   * ``buttons``: [{label, cls, onClick}] or [{label, cls, href}]. */
  function coachSay(text, short, buttons = []) {
    coach.replaceChildren(el('h2', null, t('tut_title')), el('p', 'say', text), el('p', 'say-short', short));
    if (!buttons.length) return;
    const row = el('div', 'buttons');
    for (const { label, cls, onClick, href } of buttons) {
      const b = el(href ? 'a' : 'button', cls, label);
      if (href) b.href = href;
      else { b.type = 'button'; b.addEventListener('click', onClick); }
      row.appendChild(b);
    }
    coach.appendChild(row);
  }

  function draw() {
    const f = frame();
    const lesson = lessonAt(state.data.lessons, state.step);
    const discard = f.events.find((e) => e.type === 'discard');
    renderTable(tableBox, {
      view: f.view, seat: 0, handNo: 0, players: players(), totals: null, rules: state.data.rules,
      readOnly: !lesson || state.intro, revealAll: false, replay: true, selected: state.selected,
      declareMode: state.declareMode, busy: false, callouts: state.callouts,
      lastDiscard: discard ? { seat: discard.seat } : null, hintable: false,
      bannerNode: state.banner ? winBannerEl(state.banner, f.view, players()) : null, winTiles: state.winTiles,
    }, { act: (a) => play(a), tile: (i, code, ev) => tile(i, code, ev), toggleDeclare });
    tableBox.querySelectorAll('.coach-pick').forEach((e) => e.classList.remove('coach-pick'));
    if (lesson && !state.intro) {
      const spots = tableBox.querySelectorAll(pointAt(lesson, state.declareMode));
      const spot = spots[spots.length - 1];
      if (spot) {
        spot.classList.add('coach-pick');
        // what to press in sight (a phone shows the coach and the board by scrolling)
        spot.scrollIntoView({ block: 'nearest', behavior: reducedMotion() ? 'auto' : 'smooth' });
      }
    }
  }

  /** A tile clicked: a mouse plays it at once; a touch raises it first and plays it on the
   * second tap, as at a real table. */
  function tile(i, code, ev) {
    if (ev && ev.pointerType === 'touch' && state.selected !== i) {
      state.selected = i;
      draw();
      return;
    }
    play(tileAction(frame().view, code, state.declareMode));
  }

  function toggleDeclare() {
    const lesson = lessonAt(state.data.lessons, state.step);
    if (!lesson || state.intro) return;
    state.declareMode = !state.declareMode;
    draw();
  }

  /** The newcomer's move: the lesson's goes on, any other gets the coach's pointer. */
  function play(action) {
    const lesson = lessonAt(state.data.lessons, state.step);
    if (!lesson || state.intro) return;
    if (!action || !sameAction(action, lesson.action)) {
      state.wrong = true;
      state.selected = null;
      show();
      return;
    }
    state.wrong = false;
    state.declareMode = false;
    state.selected = null;
    advance();
  }

  /** The next frame: its events said and shown (call-outs, the win banner). */
  function advance() {
    state.step += 1;
    const f = frame();
    state.callouts = {};
    for (const e of f.events) {
      const key = sayEvent(e);
      if (key) state.callouts[e.seat] = { id: `tut-${f.step}-${e.n}`, text: t(key) };
      if (e.type !== 'win') continue;
      const b = { id: 'tutorial', seats: [e.seat], selfDraw: e.by === 'self_draw' };
      Object.assign(state, { banner: b, winTiles: { [e.seat]: e.tile } });
      clearTimeout(state.bannerTimer);  // the banner goes as at a table: the end screen stays clear
      state.bannerTimer = setTimeout(() => { if (state.banner === b && !state.gone) { state.banner = null; show(); } }, BANNER_MS);
    }
    show();
    flyClaims(tableBox.querySelector('.board'), f.events);
  }

  function show() {
    clearTimeout(state.timer);
    if (state.gone) return;
    draw();
    const lesson = lessonAt(state.data.lessons, state.step);
    settleBox.replaceChildren();
    if (state.intro) {
      coachSay(t('tut_intro'), t('tut_title'), [{ label: t('tut_start'), cls: 'primary tut-start', onClick: () => { state.intro = false; show(); } }]);
    } else if (lesson) {
      const [text, short] = [t('tut_' + lesson.lesson), t(`tut_${lesson.lesson}_short`)];
      const not = state.wrong ? `${t('tut_not_that')} ` : '';
      coachSay(not + text, not + short);
    } else if (state.step === state.data.frames.length - 1) {
      coachSay(t('tut_done'), t('tut_done_short'), [{ label: t('tut_again'), cls: 'tut-again', onClick: restart },
        { label: t('tut_play'), cls: 'button primary to-lobby', href: '#/' },
        { label: t('howto_nav'), cls: 'button to-rules', href: '#/rules' }]);
      settleBox.appendChild(settlementEl({ view: frame().view, players: players(), seat: 0, totals: null, handNo: null, rules: state.data.rules }));
    } else {
      coachSay(t('tut_others'), t('tut_others'));
      state.timer = setTimeout(advance, OTHERS_MS);
    }
  }

  function restart() {
    Object.assign(state, { step: 0, intro: false, wrong: false, declareMode: false, selected: null, callouts: {}, banner: null, winTiles: null });
    show();
  }

  const unLang = onLangChange(() => { if (state.data && !state.gone) show(); });
  api.tutorial().then((r) => {
    if (state.gone) return;
    if (!r.ok) {
      page.replaceChildren(el('p', 'error', t('load_failed', { message: r.error })));
      return;
    }
    state.data = r.data;
    page.replaceChildren(coach, tableBox, settleBox);
    show();
  });
  return () => { state.gone = true; clearTimeout(state.timer); clearTimeout(state.bannerTimer); unLang(); };
}
