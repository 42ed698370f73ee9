// The try-it panels of kennel's API reference (src/reference/render-reference.ts renders the page).
// Requests go to this page's own origin, under the API's base path; the only credential sent is
// the key the reader typed into the page's key field, and it is kept in this page's memory only.

const basePath = document.body.dataset.basePath ?? '';

/** The key field's value, trimmed. */
function readerKey() {
  const field = document.getElementById('api-key');
  return field ? field.value.trim() : '';
}

/** Adds the reader's key the way the operation's security scheme says (form's data-auth). */
function addCredentials(auth, headers, query) {
  const key = readerKey();
  if (key === '' || auth === 'none') return;
  if (auth === 'bearer') headers.set('Authorization', `Bearer ${key}`);
  else if (auth === 'basic') headers.set('Authorization', `Basic ${btoa(key.includes(':') ? key : `${key}:`)}`);
  else if (auth.startsWith('header:')) headers.set(auth.slice('header:'.length), key);
  else if (auth.startsWith('query:')) query.append(auth.slice('query:'.length), key);
}

/** The request the form describes, or a message saying which required field is empty. */
function requestOf(form) {
  const headers = new Headers({ Accept: 'application/json, */*;q=0.5' });
  const query = new URLSearchParams();
  let path = form.dataset.path;
  for (const field of form.querySelectorAll('[data-in]')) {
    const value = field.value.trim();
    const name = field.dataset.name;
    if (value === '') {
      // Without a path parameter there is no URL; other missing values are sent absent, so the
      // reader sees how the API answers that.
      if (field.dataset.in === 'path') return { problem: `${name} is required` };
      continue;
    }
    if (field.dataset.in === 'path') path = path.replaceAll(`{${name}}`, encodeURIComponent(value));
    else if (field.dataset.in === 'query') query.append(name, value);
    else if (field.dataset.in === 'header') headers.set(name, value);
  }
  addCredentials(form.dataset.auth, headers, query);
  const init = { method: form.dataset.method, headers, credentials: 'omit', cache: 'no-store' };
  const body = form.querySelector('[data-body]');
  if (body && body.value.trim() !== '') {
    headers.set('Content-Type', body.dataset.contentType);
    init.body = body.value;
  }
  const search = query.size > 0 ? `?${query}` : '';
  return { url: `${basePath}${path}${search}`, init };
}

/** The body as text, pretty-printed when it is JSON. */
function bodyText(text, contentType) {
  if (!/json/i.test(contentType ?? '')) return text;
  try {
    return JSON.stringify(JSON.parse(text), null, 2);
  } catch {
    return text;
  }
}

function show(form, status, headerText, body) {
  const result = form.querySelector('.try-it-result');
  result.hidden = false;
  result.querySelector('.try-it-status').textContent = status;
  result.querySelector('.try-it-headers pre').textContent = headerText;
  result.querySelector('.try-it-body').textContent = body;
}

async function send(form) {
  const request = requestOf(form);
  if (request.problem) return show(form, `Not sent: ${request.problem}`, '', '');
  const button = form.querySelector('button[type="submit"]');
  button.disabled = true;
  show(form, `Sending ${request.init.method} ${request.url}…`, '', '');
  try {
    const response = await fetch(request.url, request.init);
    const lines = [...response.headers].map(([name, value]) => `${name}: ${value}`).join('\n');
    const text = await response.text();
    const status = `${response.status} ${response.statusText}`.trim();
    show(
      form,
      `${request.init.method} ${request.url} → ${status}`,
      lines,
      bodyText(text, response.headers.get('content-type')),
    );
  } catch (error) {
    show(form, `${request.init.method} ${request.url} failed: ${error.message}`, '', '');
  } finally {
    button.disabled = false;
  }
}

for (const form of document.querySelectorAll('form.try-it')) {
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    if (form.dataset.enabled === 'true') send(form);
  });
}
