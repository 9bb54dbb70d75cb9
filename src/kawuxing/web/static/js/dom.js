// The one DOM helper every screen uses to build its elements.

/**
 * A new element: el('div', 'cls names', 'text'). cls (a className string) and text (set as
 * textContent, so never parsed as HTML) are optional; null or undefined leaves them unset.
 * Returns the HTMLElement.
 */
export function el(tag, cls, text) {
  const e = document.createElement(tag);
  if (cls) e.className = cls;
  if (text !== undefined && text !== null) e.textContent = text;
  return e;
}

/**
 * A table with one header row: tableEl('hands', ['When', 'Hand']) -> {table, body}; the th
 * cells hold the headings as text, ``body`` (the tbody, already in the table) takes the rows.
 */
export function tableEl(cls, headings) {
  const table = el('table', cls);
  const head = el('tr');
  for (const h of headings) head.appendChild(el('th', null, h));
  table.appendChild(el('thead')).appendChild(head);
  const body = table.appendChild(el('tbody'));
  return { table, body };
}

const HANDLERS = ['onclick', 'oninput', 'onchange'];

/** The key a child pairs by: its tag and data-key, or its tag and place among the siblings of
 * that tag without a key (text nodes: their place among the text nodes). */
function keyOf(node, seen) {
  let base;
  if (node.nodeType !== 1) base = '#' + node.nodeType;
  else {
    const k = node.getAttribute('data-key');
    if (k !== null) return `${node.tagName}=${k}`;
    base = node.tagName;
  }
  const i = seen.get(base) || 0;
  seen.set(base, i + 1);
  return `${base}#${i}`;
}

function patchNode(old, fresh) {
  if (old.nodeType !== 1) {
    if (old.data !== fresh.data) old.data = fresh.data;
    return;
  }
  for (const a of [...old.attributes]) if (!fresh.hasAttribute(a.name)) old.removeAttribute(a.name);
  for (const a of fresh.attributes) if (old.getAttribute(a.name) !== a.value) old.setAttribute(a.name, a.value);
  for (const h of HANDLERS) if (old[h] !== fresh[h]) old[h] = fresh[h];
  if (old.tagName === 'svg' && old.isEqualNode(fresh)) return;  // a tile face: drawn once
  patchChildren(old, fresh);
}

function patchChildren(parent, fresh) {
  const olds = new Map();
  let seen = new Map();
  for (const c of [...parent.childNodes]) olds.set(keyOf(c, seen), c);
  seen = new Map();
  const wanted = [];
  for (const c of [...fresh.childNodes]) {
    const k = keyOf(c, seen);
    const old = olds.get(k);
    if (old && old.nodeType === c.nodeType) {
      olds.delete(k);
      patchNode(old, c);
      wanted.push(old);
    } else wanted.push(c);
  }
  for (const gone of olds.values()) gone.remove();
  let ref = parent.firstChild;
  for (const node of wanted) {
    if (node === ref) ref = ref.nextSibling;
    else parent.insertBefore(node, ref);
  }
}

/**
 * Make ``root`` (in the page) like ``fresh`` (an element of the same tag just built, not in the
 * page) keeping every element that stays: children pair by tag and data-key (else by place
 * among the siblings of their tag); root and each kept element take the new attributes, text,
 * children and handlers (onclick, oninput, onchange — set them as properties, not with
 * addEventListener).
 * Kept elements keep focus, scroll and transitions; new ones are inserted (their CSS animations
 * play), gone ones removed. A focused element that had to move is focused again. Returns root.
 */
export function patch(root, fresh) {
  const active = document.activeElement;
  patchNode(root, fresh);
  if (active && active !== document.activeElement && active.isConnected && root.contains(active)) {
    active.focus({ preventScroll: true });
  }
  return root;
}
