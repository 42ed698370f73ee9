// A small, correct server for fixtures/contract/lessons.yaml: a search with required query and
// header parameters and a create with formats and bounds. Each fault is one validation a real
// implementation gets wrong, so the tests prove which check catches it.
import { randomUUID } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import {
  bearerToken,
  jsonBody,
  Refusal,
  startJsonServer,
  type Answer,
  type ReceivedRequest,
} from '../helpers/json-server.js';
import type { LoopbackServer } from '../helpers/loopback.js';

export const LESSONS_SPEC = fileURLToPath(new URL('../fixtures/contract/lessons.yaml', import.meta.url));

export type LessonsFault =
  | 'missing-teacher-accepted'
  | 'missing-header-accepted'
  | 'malformed-uuid-accepted'
  | 'malformed-date-time-accepted'
  | 'offset-refused'
  | 'maximum-refused'
  | 'max-length-refused'
  | 'exclusive-minimum-accepted';

/** Correct choices where the document is silent: a local time without an offset taken as UTC. */
export type LessonsVariant = 'lenient-local-time';

type Fields = Record<string, unknown>;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const DATE_TIME = /^(\d{4})-(\d{2})-(\d{2})[Tt](\d{2}):(\d{2}):(\d{2})(\.\d+)?([Zz]|[+-]\d{2}:\d{2})$/;

interface Options {
  faults: readonly LessonsFault[];
  variants: readonly LessonsVariant[];
}

function isDateTime(value: unknown, options: Options): boolean {
  if (typeof value !== 'string') return false;
  if (options.faults.includes('malformed-date-time-accepted')) return true;
  const text =
    options.variants.includes('lenient-local-time') && !/([Zz]|[+-]\d{2}:\d{2})$/.test(value) ? `${value}Z` : value;
  if (options.faults.includes('offset-refused') && !/Z$/.test(text)) return false;
  const match = DATE_TIME.exec(text);
  if (!match) return false;
  const [month, day, hour, minute, second] = match.slice(2, 7).map(Number) as [number, number, number, number, number];
  return month >= 1 && month <= 12 && day >= 1 && day <= 31 && hour < 24 && minute < 60 && second < 60;
}

function lessonOf(value: unknown, options: Options): Fields {
  if (value === null || typeof value !== 'object' || Array.isArray(value))
    throw new Refusal(400, 'a lesson is an object');
  const body = value as Fields;
  const has = (fault: LessonsFault) => options.faults.includes(fault);
  const title = body.title;
  const longest = has('max-length-refused') ? 39 : 40;
  if (typeof title !== 'string' || [...title].length < 3 || [...title].length > longest)
    throw new Refusal(400, 'title is 3 to 40 characters');
  if (typeof body.teacher !== 'string' || !UUID.test(body.teacher)) throw new Refusal(400, 'teacher is a uuid');
  if (!isDateTime(body.starts_at, options)) throw new Refusal(400, 'starts_at is an RFC 3339 date-time');
  const most = has('maximum-refused') ? 29 : 30;
  if (!Number.isInteger(body.seats) || (body.seats as number) < 1 || (body.seats as number) > most)
    throw new Refusal(400, 'seats is an integer from 1 to 30');
  const cheapest = (price: number) => (has('exclusive-minimum-accepted') ? price >= 0 : price > 0);
  if (body.price !== undefined && (typeof body.price !== 'number' || !cheapest(body.price) || body.price > 500))
    throw new Refusal(400, 'price is above 0 and at most 500');
  const known = new Set(['title', 'teacher', 'starts_at', 'seats', 'price']);
  for (const name of Object.keys(body)) if (!known.has(name)) throw new Refusal(400, `unknown property ${name}`);
  return body;
}

function search(request: ReceivedRequest, lessons: readonly Fields[], options: Options): Fields[] {
  const has = (fault: LessonsFault) => options.faults.includes(fault);
  const url = request.url;
  const teacher = url.searchParams.get('teacher');
  if (teacher === null && !has('missing-teacher-accepted')) throw new Refusal(400, 'teacher is required');
  if (teacher !== null && !UUID.test(teacher) && !has('malformed-uuid-accepted'))
    throw new Refusal(400, 'teacher is a uuid');
  const from = url.searchParams.get('from');
  if (from === null || !isDateTime(from, options)) throw new Refusal(400, 'from is a required date-time');
  const campus = request.headers['x-campus'];
  const campusValid = typeof campus === 'string' && campus.length >= 2 && campus.length <= 8;
  if (!campusValid && !(campus === undefined && has('missing-header-accepted')))
    throw new Refusal(400, 'X-Campus is 2 to 8 characters');
  const limitText = url.searchParams.get('limit');
  if (limitText !== null && (!/^[0-9]+$/.test(limitText) || Number(limitText) < 1 || Number(limitText) > 50))
    throw new Refusal(400, 'limit is an integer from 1 to 50');
  const fromTime = Date.parse(from.replace(/^(.*T\d{2}:\d{2}:\d{2}(\.\d+)?)$/, '$1Z'));
  return lessons
    .filter((lesson) => teacher === null || lesson.teacher === teacher)
    .filter((lesson) => Date.parse(String(lesson.starts_at)) >= fromTime)
    .slice(0, limitText === null ? 10 : Number(limitText));
}

/** Starts the lessons server; every request needs `Authorization: Bearer <apiKey>`. */
export async function startLessonsServer(apiKey: string, options: Partial<Options> = {}): Promise<LoopbackServer> {
  const settings: Options = { faults: options.faults ?? [], variants: options.variants ?? [] };
  const lessons: Fields[] = [];

  function route(request: ReceivedRequest): Answer {
    if (request.url.pathname !== '/lessons') throw new Refusal(404, 'no such path');
    if (bearerToken(request.headers) !== apiKey) throw new Refusal(401, 'a bearer token is needed');
    if (request.method === 'GET') return { status: 200, body: search(request, lessons, settings) };
    if (request.method !== 'POST') throw new Refusal(405, 'GET or POST');
    const lesson = { id: randomUUID(), ...lessonOf(jsonBody(request), settings) };
    lessons.push(lesson);
    return { status: 201, body: lesson };
  }

  return startJsonServer(route, refused);
}

/** A refusal: `{status, title}`, and a 401 challenges for a bearer token. */
function refused(error: Refusal): Answer {
  const headers: Record<string, string> = error.status === 401 ? { 'www-authenticate': 'Bearer' } : {};
  return { status: error.status, body: { status: error.status, title: error.message }, headers };
}
