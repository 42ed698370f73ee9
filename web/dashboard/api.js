// The control API under /__kennel/world (spec/domains.yaml), with the admin token when one is set.
import { $ } from './dom.js';

const API = '/__kennel/world';
/** Where the admin token is kept: this tab only, gone when it closes. */
export const TOKEN_KEY = 'kennel.adminToken';

/** A problem answer of the control API (its Error body), or a network failure. */
export class ApiError extends Error {
  constructor(status, code, message) {
    super(message);
    this.status = status;
    this.code = code;
  }
}

export async function api(method, path, body) {
  const headers = {};
  if (body !== undefined) headers['content-type'] = 'application/json';
  const token = sessionStorage.getItem(TOKEN_KEY);
  if (token) headers.authorization = `Bearer ${token}`;
  let response;
  try {
    response = await fetch(`${API}${path}`, {
      method,
      headers,
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  } catch {
    throw new ApiError(0, 'offline', 'kennel serve does not answer: is it still running?');
  }
  const text = await response.text();
  const data = (response.headers.get('content-type') ?? '').includes('json') && text ? JSON.parse(text) : text;
  if (response.ok) return data;
  const problem = typeof data === 'object' && data ? data : { code: 'error', message: text };
  if (response.status === 401) askForToken(problem.message);
  throw new ApiError(response.status, problem.code, problem.message);
}

export const problemText = (error) => (error instanceof ApiError ? `${error.message} (${error.code})` : String(error));

function askForToken(message) {
  $('token-form').hidden = false;
  $('token-error').textContent = sessionStorage.getItem(TOKEN_KEY) ? message : '';
  $('token').focus();
}
