// Building the page: elements from data as text only (never HTML), and how values read.

/** The element with this id. */
export const $ = (id) => document.getElementById(id);

/** An element with attributes, listeners (`onclick`) and children; strings become text nodes. */
export function h(tag, props = {}, ...children) {
  const element = document.createElement(tag);
  for (const [key, value] of Object.entries(props)) {
    if (value === undefined || value === null || value === false) continue;
    if (key === 'class') element.className = value;
    else if (key.startsWith('on')) element.addEventListener(key.slice(2), value);
    else element.setAttribute(key, value === true ? '' : String(value));
  }
  for (const child of children.flat()) {
    if (child === undefined || child === null || child === false) continue;
    element.append(child instanceof Node ? child : String(child));
  }
  return element;
}

export const when = (iso) => (iso ? iso.replace('T', ' ').replace(/\.\d+Z$/, 'Z') : '');
export const ms = (iso) => Date.parse(iso);

export function recordValueText(value) {
  if (typeof value === 'string') return value;
  if (value && 'tag' in value) return `${value.flags} ${value.tag} "${value.value}"`;
  if (value && 'exchange' in value) return `${value.preference} ${value.exchange}`;
  return JSON.stringify(value);
}

/** The `value` field of a new record, from what a person types (`0 issue letsencrypt.org`, `10 mx.example.com`). */
/** A button that copies `text`; where the clipboard is refused it selects the text for Ctrl+C instead. */
export function copyButton(text, label) {
  const button = h(
    'button',
    { type: 'button', class: 'copy', 'aria-label': `Copy ${label}`, 'data-copy': text },
    'Copy',
  );
  button.addEventListener('click', async () => {
    try {
      await navigator.clipboard.writeText(text);
      button.textContent = 'Copied';
    } catch {
      // No clipboard permission (or an insecure origin): select the text for the person to copy.
      const field = h('input', { value: text, readonly: true, class: 'copy-fallback', 'aria-label': label });
      button.after(field);
      field.select();
      field.addEventListener('blur', () => field.remove());
      button.textContent = 'Press Ctrl+C';
    }
    setTimeout(() => (button.textContent = 'Copy'), 1500);
  });
  return button;
}

export function badge(state) {
  return h('span', { class: `badge ${state}` }, state.replace('_', ' '));
}

export function evidenceList(evidence) {
  const rows = [];
  const add = (label, values) => {
    if (!values || values.length === 0) return;
    rows.push(h('dt', {}, label), h('dd', {}, ...[].concat(values).map((value) => h('code', {}, value))));
  };
  add('Expected', evidence.expected);
  add('Observed', evidence.observed);
  add('Still pending', evidence.pending);
  add('Retry at', evidence.retryAt && when(evidence.retryAt));
  add('Cached answer until', evidence.cachedUntil && when(evidence.cachedUntil));
  if (evidence.hint) rows.push(h('dt', {}, 'Hint'), h('dd', {}, evidence.hint));
  return rows.length ? h('dl', { class: 'evidence' }, rows) : undefined;
}
