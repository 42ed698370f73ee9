/** HTML building blocks of the reference page: every text that reaches the page goes through `escapeHtml`. */

const HTML_ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

/** Text made safe to place in HTML, in element content and in quoted attributes. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (character) => HTML_ESCAPES[character]!);
}

/** Inline code spans (`x`) of already escaped text. */
function inlineCode(escaped: string): string {
  return escaped.replace(/`([^`\n]+)`/g, '<code>$1</code>');
}

/**
 * A description as paragraphs: blank lines split paragraphs and `code` spans become <code>; no
 * other Markdown is interpreted (links, HTML and emphasis show as their text), so nothing a
 * document says can add markup or script to the page.
 */
export function prose(text: unknown): string {
  if (typeof text !== 'string' || text.trim() === '') return '';
  return text
    .trim()
    .split(/\n\s*\n/)
    .map((paragraph) => `<p>${inlineCode(escapeHtml(paragraph.replace(/\s*\n\s*/g, ' ')))}</p>`)
    .join('');
}

/** One line of description text, with code spans; '' when there is none. */
export function inline(text: unknown): string {
  return typeof text === 'string' ? inlineCode(escapeHtml(text.trim().replace(/\s*\n\s*/g, ' '))) : '';
}

/** `<code>text</code>`, escaped. */
export function code(text: string): string {
  return `<code>${escapeHtml(text)}</code>`;
}

/** An id attribute value made of safe characters only, unique for distinct inputs of the same prefix. */
export function anchor(prefix: string, name: string): string {
  const safe = name.replace(/[^A-Za-z0-9_-]/g, (character) => `.${character.codePointAt(0)!.toString(16)}.`);
  return `${prefix}-${safe}`;
}

/** A table with a header row; cells are HTML already. Nothing when there are no rows. */
export function table(headings: readonly string[], rows: readonly (readonly string[])[], className = ''): string {
  if (rows.length === 0) return '';
  const head = headings.map((heading) => `<th scope="col">${escapeHtml(heading)}</th>`).join('');
  const body = rows.map((row) => `<tr>${row.map((cell) => `<td>${cell}</td>`).join('')}</tr>`).join('');
  const klass = className ? ` class="${className}"` : '';
  return `<table${klass}><thead><tr>${head}</tr></thead><tbody>${body}</tbody></table>`;
}

const MONTHS = [
  'January',
  'February',
  'March',
  'April',
  'May',
  'June',
  'July',
  'August',
  'September',
  'October',
  'November',
  'December',
];

/** `2030-12-05` (or a YAML date) as `{iso: '2030-12-05', text: '5 December 2030'}`; undefined when it is no date. */
export function calendarDate(value: unknown): { iso: string; text: string } | undefined {
  const raw = value instanceof Date && !Number.isNaN(value.getTime()) ? value.toISOString() : value;
  if (typeof raw !== 'string') return undefined;
  const match = /^(\d{4})-(\d{2})-(\d{2})/.exec(raw.trim());
  if (!match) return undefined;
  const [, year, month, day] = match as unknown as [string, string, string, string];
  const name = MONTHS[Number(month) - 1];
  if (!name || Number(day) < 1 || Number(day) > 31) return undefined;
  return { iso: `${year}-${month}-${day}`, text: `${Number(day)} ${name} ${year}` };
}
