// A small, correct JSON:API-style server for fixtures/contract/bracket-pages.yaml: articles listed
// by id in pages of page[size] (5 by default, 10 at most), bodies of application/vnd.api+json only
// (any parameter but ext and profile is a 415, as JSON:API says). `faults` break one thing each.
import { fileURLToPath } from 'node:url';
import { Refusal, startJsonServer, type Answer, type ReceivedRequest } from '../helpers/json-server.js';
import type { LoopbackServer } from '../helpers/loopback.js';

export const BRACKET_PAGES_SPEC = fileURLToPath(new URL('../fixtures/contract/bracket-pages.yaml', import.meta.url));

export type BracketPagesFault =
  | 'size-ignored'
  | 'letter-case-refused'
  | 'plain-json-answers'
  | 'patch-type-unchecked'
  | 'patch-ignored'
  | 'next-repeats-page'
  | 'deleted-still-listed';

const JSON_API = 'application/vnd.api+json';

interface Article {
  id: string;
  title: string;
  summary?: string;
  deleted?: boolean;
}
const SEEDED = 7;

function pageParameter(request: ReceivedRequest, name: string, max: number, fallback: number): number {
  const text = request.url.searchParams.get(name);
  if (text === null) return fallback;
  const value = /^\d{1,6}$/.test(text) ? Number(text) : 0;
  if (value < 1 || value > max) throw new Refusal(400, `${name} must be from 1 to ${max}`);
  return value;
}

function documentOf(request: ReceivedRequest, faults: readonly BracketPagesFault[], update = false): any {
  const [type = '', ...parameters] = (request.headers['content-type'] ?? '').split(';').map((part) => part.trim());
  const caseRefused = faults.includes('letter-case-refused') && type !== JSON_API;
  if (
    type.toLowerCase() !== JSON_API ||
    parameters.some((parameter) => !/^(ext|profile)=/i.test(parameter)) ||
    caseRefused
  )
    throw new Refusal(415, `send ${JSON_API} without parameters`);
  let value: any;
  try {
    value = JSON.parse(request.text);
  } catch {
    throw new Refusal(400, 'malformed JSON');
  }
  const title = value?.data?.attributes?.title;
  if (typeof value?.data !== 'object' || value.data === null) throw new Refusal(400, 'the body needs a data object');
  const attributes = value.data.attributes;
  if (attributes !== undefined && (typeof attributes !== 'object' || attributes === null || Array.isArray(attributes)))
    throw new Refusal(400, 'data.attributes must be an object');
  const extra = Object.keys(attributes ?? {}).some((name) => name !== 'title' && name !== 'summary');
  const summary = attributes?.summary;
  if (summary !== undefined && (typeof summary !== 'string' || summary.length > 80))
    throw new Refusal(400, 'summary is text of at most 80 characters');
  const badTitle = title !== undefined && (typeof title !== 'string' || title.length < 1 || title.length > 40);
  const typeUnchecked = update && faults.includes('patch-type-unchecked');
  if ((value?.data?.type !== 'articles' && !typeUnchecked) || badTitle || extra)
    throw new Refusal(400, 'an article needs type articles and a title of 1 to 40 characters');
  return value.data;
}

export function startBracketPages(faults: readonly BracketPagesFault[] = []): Promise<LoopbackServer> {
  const articles: Article[] = Array.from({ length: SEEDED }, (_, index) => ({
    id: String(index + 1),
    title: `Article ${index + 1}`,
  }));
  let made = SEEDED;
  const json = (article: Article) => ({
    type: 'articles',
    id: article.id,
    attributes: {
      title: article.title,
      ...(article.summary === undefined ? {} : { summary: article.summary }),
      created_at: '2026-11-27T08:00:00Z',
    },
  });
  const answered = faults.includes('plain-json-answers') ? 'application/json' : JSON_API;
  const handle = (request: ReceivedRequest): Answer => {
    const path = request.url.pathname;
    if (path === '/api/articles' && request.method === 'POST') {
      const { title, summary } = documentOf(request, faults).attributes ?? {};
      if (title === undefined) throw new Refusal(400, 'an article needs a title');
      const article: Article = {
        id: String((made += 1)),
        title,
        ...(summary === undefined ? {} : { summary }),
      };
      articles.push(article);
      return { status: 201, body: { data: json(article) }, type: answered };
    }
    if (path === '/api/articles' && request.method === 'GET') {
      const number = pageParameter(request, 'page[number]', 1_000_000, 1);
      const asked = pageParameter(request, 'page[size]', 10, 5);
      const size = faults.includes('size-ignored') ? 5 : asked;
      const page = articles.slice((number - 1) * size, number * size);
      const target = faults.includes('next-repeats-page') ? number : number + 1;
      const more = number * size < articles.length;
      const next = more ? { href: `/api/articles?page%5Bnumber%5D=${target}&page%5Bsize%5D=${asked}` } : null;
      return { status: 200, body: { data: page.map(json), links: { next } }, type: answered };
    }
    const article = articles.find((candidate) => path === `/api/articles/${candidate.id}` && !candidate.deleted);
    if (article && request.method === 'DELETE') {
      if (faults.includes('deleted-still-listed')) article.deleted = true;
      else articles.splice(articles.indexOf(article), 1);
      return { status: 204 };
    }
    if (article && request.method === 'GET') return { status: 200, body: { data: json(article) }, type: answered };
    if (article && request.method === 'PATCH') {
      const data = documentOf(request, faults, true);
      if (typeof data.id !== 'string') throw new Refusal(400, 'data needs id and attributes');
      if (data.id !== article.id) throw new Refusal(409, `data.id must be "${article.id}"`);
      const { title, summary } = (data.attributes ?? {}) as { title?: string; summary?: string };
      const updated = {
        ...article,
        ...(title === undefined ? {} : { title }),
        ...(summary === undefined ? {} : { summary }),
      };
      if (!faults.includes('patch-ignored')) Object.assign(article, updated);
      return { status: 200, body: { data: json(updated) }, type: answered };
    }
    throw new Refusal(404, `nothing at ${path}`);
  };
  return startJsonServer(handle, (refusal) => ({
    status: refusal.status,
    body: { errors: [{ status: String(refusal.status), title: refusal.message }] },
    type: JSON_API,
  }));
}
