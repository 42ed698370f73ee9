// A correct Library server (fixtures/explore/library.yaml) with switchable faults in its pages
// and its references: a `prev` link on the first page, `self`/`first`/`prev`/`last` links that
// lead elsewhere, a page past the last that fails or repeats items, a page parameter ignored, a
// book naming a shelf that does not exist accepted. Plain node:http, no kennel code.
import { randomUUID } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { bearerToken, Refusal, startJsonServer, type Answer, type ReceivedRequest } from '../helpers/json-server.js';
import type { LoopbackServer } from '../helpers/loopback.js';
import { integerParameter, problemAnswer, uuidOf, type Json } from './coachline-data.js';

export const LIBRARY_SPEC = fileURLToPath(new URL('../fixtures/explore/library.yaml', import.meta.url));

export const LIBRARY_TOKEN = 'library-token';

export type LibraryFault =
  | 'prev-on-first-page'
  | 'page-past-last-500'
  | 'self-elsewhere'
  | 'first-elsewhere'
  | 'prev-elsewhere'
  | 'last-not-last'
  | 'total-off-by-one'
  | 'books-page-ignored'
  | 'books-past-last-repeats'
  | 'unknown-shelf-accepted'
  | 'unknown-author-accepted';

export interface LibraryOptions {
  fault?: LibraryFault;
  /** Books on the shelves at start (3 by default: one page at the default limit). */
  books?: number;
}

export async function startLibrary(options: LibraryOptions = {}): Promise<LoopbackServer> {
  const has = (fault: LibraryFault) => options.fault === fault;
  const shelves: Json[] = Array.from({ length: 7 }, (_, index) => ({
    id: uuidOf(7, index),
    name: `Shelf ${index + 1}`,
  }));
  const authors: Json[] = ['Jane Austen', 'Italo Calvino', 'Toni Morrison'].map((name, index) => ({
    id: uuidOf(9, index),
    name,
  }));
  const books: Json[] = Array.from({ length: options.books ?? 3 }, (_, index) => ({
    id: uuidOf(8, index),
    title: `Book ${index + 1}`,
    shelf_id: shelves[index % shelves.length]!.id,
  }));

  function shelfPage(url: URL): Json {
    const page = integerParameter(url.searchParams, 'page', 1, 1_000_000, 1);
    const limit = integerParameter(url.searchParams, 'limit', 1, 20, 5);
    const last = Math.max(1, Math.ceil(shelves.length / limit));
    if (page > last && has('page-past-last-500')) throw new Refusal(500, 'no such page');
    const link = (to: number) => {
      const target = new URL(url);
      target.searchParams.set('page', String(to));
      target.searchParams.set('limit', String(limit));
      return target.toString();
    };
    let prev = page > 1 ? link(page - 1) : has('prev-on-first-page') ? link(0) : null;
    if (page === 2 && has('prev-elsewhere')) prev = link(2);
    return {
      data: shelves.slice((page - 1) * limit, page * limit),
      total: shelves.length + (has('total-off-by-one') ? 1 : 0),
      links: {
        self: link(has('self-elsewhere') ? page + 1 : page),
        first: link(has('first-elsewhere') ? 2 : 1),
        last: link(has('last-not-last') ? 1 : last),
        next: page < last ? link(page + 1) : null,
        prev,
      },
    };
  }

  function bookPage(url: URL): Json[] {
    const page = integerParameter(url.searchParams, 'page', 1, 1_000_000, 1);
    const limit = integerParameter(url.searchParams, 'limit', 1, 50, 10);
    const last = Math.max(1, Math.ceil(books.length / limit));
    const shown = has('books-page-ignored') ? 1 : has('books-past-last-repeats') ? Math.min(page, last) : page;
    return books.slice((shown - 1) * limit, shown * limit);
  }

  function created(text: string, kind: 'shelf' | 'book'): Json {
    const value = parsed(text);
    if (kind === 'shelf') {
      if (typeof value.name !== 'string' || value.name.length < 1 || value.name.length > 60)
        throw new Refusal(400, 'name must be 1 to 60 characters');
      const shelf = { id: randomUUID(), name: value.name };
      shelves.push(shelf);
      return shelf;
    }
    if (typeof value.title !== 'string' || value.title.length < 1 || value.title.length > 120)
      throw new Refusal(400, 'title must be 1 to 120 characters');
    if (typeof value.shelf_id !== 'string' || !/^[0-9a-f-]{36}$/i.test(value.shelf_id))
      throw new Refusal(400, 'shelf_id must be a uuid');
    if (!has('unknown-shelf-accepted') && !shelves.some((shelf) => shelf.id === value.shelf_id))
      throw new Refusal(422, `no shelf ${value.shelf_id}`);
    const author = value.author_id;
    if (author !== undefined && (typeof author !== 'string' || !/^[0-9a-f-]{36}$/i.test(author)))
      throw new Refusal(400, 'author_id must be a uuid');
    if (author !== undefined && !has('unknown-author-accepted') && !authors.some((entry) => entry.id === author))
      throw new Refusal(422, `no author ${author}`);
    const book = {
      id: randomUUID(),
      title: value.title,
      shelf_id: value.shelf_id,
      ...(author ? { author_id: author } : {}),
    };
    books.push(book);
    return book;
  }

  const loans: Json[] = [];

  function loan(text: string): Json {
    const value = parsed(text);
    if (typeof value.borrower !== 'string' || value.borrower.length < 1 || value.borrower.length > 60)
      throw new Refusal(400, 'borrower must be 1 to 60 characters');
    if (typeof value.book_id !== 'string' || !/^[0-9a-f-]{36}$/i.test(value.book_id))
      throw new Refusal(400, 'book_id must be a uuid');
    // The document promises nothing about a book that does not exist: the loan is taken as sent.
    const made = { id: randomUUID(), book_id: value.book_id, borrower: value.borrower };
    loans.push(made);
    return made;
  }

  function route(request: ReceivedRequest): Answer {
    if (bearerToken(request.headers) !== LIBRARY_TOKEN) throw new Refusal(401, 'a bearer token is required');
    const { method, url, text } = request;
    const path = url.pathname.replace(/^\/api/, '');
    if (path === '/shelves' && method === 'GET') return { status: 200, body: shelfPage(url) };
    if (path === '/books' && method === 'GET') return { status: 200, body: bookPage(url) };
    if (path === '/shelves' && method === 'POST') return { status: 201, body: created(text, 'shelf') };
    if (path === '/books' && method === 'POST') return { status: 201, body: created(text, 'book') };
    if (path === '/authors' && method === 'GET') {
      const q = url.searchParams.get('q');
      if (!q) throw new Refusal(400, 'q is required');
      return {
        status: 200,
        body: authors.filter((entry) => String(entry.name).toLowerCase().includes(q.toLowerCase())),
      };
    }
    if (path === '/loans' && method === 'POST') return { status: 201, body: loan(text) };
    const item = /^\/(shelves|books|loans|authors)\/([^/]+)$/.exec(path);
    if (!item) throw new Refusal(404, `nothing at ${url.pathname}`);
    if (method !== 'GET') throw new Refusal(405, `${method} is not allowed here`);
    const kept = { shelves, books, loans, authors }[item[1] as 'shelves' | 'books' | 'loans' | 'authors'];
    const found = kept.find((entry) => entry.id === decodeURIComponent(item[2]!));
    if (!found) throw new Refusal(404, `no ${item[1]} item ${item[2]}`);
    return { status: 200, body: found };
  }

  return startJsonServer(route, problemAnswer('library'));
}

/** A JSON object body; an `id` (read-only) must still be a uuid when sent. */
function parsed(text: string): Json {
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    throw new Refusal(400, 'the body is not JSON');
  }
  const value = (body ?? {}) as Json;
  if (value.id !== undefined && (typeof value.id !== 'string' || !/^[0-9a-f-]{36}$/i.test(value.id)))
    throw new Refusal(400, 'id must be a uuid');
  return value;
}
