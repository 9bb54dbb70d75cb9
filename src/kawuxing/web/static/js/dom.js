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
