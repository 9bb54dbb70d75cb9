// The topics rule options are grouped by, on the room form (lobby.js) and on a room's rules page
// (rulespage.js): by the chapter of the rule that defines each option (the served `rule`,
// RULES.md R1-R13 and VARIANTS.md R14-R18), never by an option's name.

/** The groups in the order shown: {key (its i18n label), chapters (rule numbers)}. */
export const RULE_GROUPS = [
  { key: 'optgroup_table', chapters: [1, 2, 3, 12, 13] },  // tiles, dealer, deal, the match
  { key: 'optgroup_play', chapters: [4, 5, 6, 7] },  // claims, kongs, winning
  { key: 'optgroup_declare', chapters: [8] },  // 亮倒
  { key: 'optgroup_value', chapters: [9] },  // 番
  { key: 'optgroup_draw', chapters: [10] },  // 荒庄, 查叫
  { key: 'optgroup_piao', chapters: [11] },  // 漂
  { key: 'optgroup_extras', chapters: [14, 15, 16, 18] },  // 买马, 数坎, 跑恰摸八, extras × base
  { key: 'optgroup_shang_lou', chapters: [17] },  // 上楼
];

/** The group key of a rule number such as 'R8.11' (the last group for one not listed). */
export function groupOf(rule) {
  const m = /^R(\d+)/.exec(rule || '');
  const chapter = m ? Number(m[1]) : NaN;
  const found = RULE_GROUPS.find((g) => g.chapters.includes(chapter));
  return (found || RULE_GROUPS[RULE_GROUPS.length - 1]).key;
}

/**
 * The text of an option's value (``option`` as GET /api/rules serves it, ``t`` the lookup): the
 * label of the offered value equal to it; else a pattern table as "双龙七对 ×16"; else its JSON.
 */
export function valueLabel(option, value, t) {
  const json = JSON.stringify(value);
  const offered = option.offered.find((o) => JSON.stringify(o.value) === json);
  if (offered) {
    const text = t(offered.label);
    if (text !== offered.label) return text;
  }
  if (option.type === 'pattern_caps' && value && typeof value === 'object') {
    const caps = Object.entries(value).map(([name, cap]) => `${name} ×${cap}`);
    return caps.length ? caps.join(t('list_sep')) : t('none_value');
  }
  return json;
}
