// A small, correct server for fixtures/contract/courses.yaml: courses carry links to themselves and
// to their teacher. Each fault breaks one link, so the tests prove body-links-resolve catches it.
import { createServer, type IncomingMessage } from 'node:http';
import { fileURLToPath } from 'node:url';
import { listenOnLoopback, type LoopbackServer } from '../helpers/loopback.js';

export const COURSES_SPEC = fileURLToPath(new URL('../fixtures/contract/courses.yaml', import.meta.url));

export type CoursesFault =
  'self-points-elsewhere' | 'teacher-link-unknown' | 'teacher-link-undocumented' | 'online-filter-ignored';
/** Correct choices where the document is silent: the teacher link (a uri-reference) as an absolute path. */
export type CoursesVariant = 'path-links';

const TEACHERS = new Map([
  ['1f0c6a52-2b1e-4d7a-9c35-6a0b8e4f2d11', 'Ada'],
  ['9d3e1b7c-5a24-4f60-8e19-3c7d2a6b5f42', 'Grace'],
]);

interface Course {
  id: number;
  title: string;
  teacher_id: string;
  online_only: boolean;
}

export async function startCoursesServer(
  options: { fault?: CoursesFault; variant?: CoursesVariant } = {},
): Promise<LoopbackServer> {
  const courses = new Map<number, Course>();
  let next = 1;
  for (const [teacher] of TEACHERS)
    courses.set(next, { id: next, title: `Course ${next}`, teacher_id: teacher, online_only: next++ === 1 });
  let origin = '';

  function shown(course: Course) {
    const other = [...courses.keys()].find((id) => id !== course.id) ?? course.id;
    const self = options.fault === 'self-points-elsewhere' ? other : course.id;
    const teacherBase = options.variant === 'path-links' ? '/api' : `${origin}/api`;
    const teacherPath = options.fault === 'teacher-link-undocumented' ? 'staff' : 'teachers';
    const teacher =
      options.fault === 'teacher-link-unknown' ? '00000000-0000-4000-8000-000000000000' : course.teacher_id;
    return {
      ...course,
      links: { self: `${origin}/api/courses/${self}`, teacher: `${teacherBase}/${teacherPath}/${teacher}` },
    };
  }

  function route(
    method: string,
    path: string,
    query: URLSearchParams,
    request: IncomingMessage,
    text: string,
  ): [number, unknown] {
    if (path === '/api/courses' && method === 'GET') {
      const online = query.get('online');
      if (online !== null && online !== 'true' && online !== 'false') return [400, { message: 'online is a boolean' }];
      const wanted = options.fault === 'online-filter-ignored' || online === null ? undefined : online === 'true';
      const found = [...courses.values()].filter((course) => wanted === undefined || course.online_only === wanted);
      return [200, found.map(shown)];
    }
    if (path === '/api/courses' && method === 'POST') {
      let body: Record<string, unknown>;
      try {
        body = JSON.parse(text) as Record<string, unknown>;
      } catch {
        return [400, { message: 'malformed JSON' }];
      }
      if (request.headers['content-type']?.split(';')[0]?.trim().toLowerCase() !== 'application/json')
        return [400, { message: 'send JSON' }];
      if (body === null || typeof body !== 'object' || Array.isArray(body)) return [400, { message: 'an object' }];
      const title = body.title;
      if (typeof title !== 'string' || title.length < 1 || [...title].length > 80)
        return [400, { message: 'title is 1 to 80 characters' }];
      if (typeof body.teacher_id !== 'string' || !/^[0-9a-f-]{36}$/i.test(body.teacher_id))
        return [400, { message: 'teacher_id is a uuid' }];
      if (!TEACHERS.has(body.teacher_id.toLowerCase())) return [422, { message: 'no such teacher' }];
      if (body.online_only !== undefined && typeof body.online_only !== 'boolean')
        return [400, { message: 'online_only is a boolean' }];
      const course = {
        id: next++,
        title,
        teacher_id: body.teacher_id.toLowerCase(),
        online_only: body.online_only === true,
      };
      courses.set(course.id, course);
      return [201, shown(course)];
    }
    const course = /^\/api\/courses\/([1-9][0-9]*)$/.exec(path);
    if (course && method === 'GET') {
      const found = courses.get(Number(course[1]));
      return found ? [200, shown(found)] : [404, { message: 'no such course' }];
    }
    const teacher = /^\/api\/teachers\/([^/]+)$/.exec(path);
    if (teacher && method === 'GET') {
      const id = decodeURIComponent(teacher[1]!).toLowerCase();
      const name = TEACHERS.get(id);
      return name ? [200, { id, name }] : [404, { message: 'no such teacher' }];
    }
    return [404, { message: 'no such path' }];
  }

  const server = createServer((request, response) => {
    let text = '';
    request.setEncoding('utf8');
    request.on('data', (chunk: string) => (text += chunk));
    request.on('end', () => {
      const url = new URL(request.url ?? '/', 'http://x');
      const [status, body] = route(request.method ?? 'GET', url.pathname, url.searchParams, request, text);
      response.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
    });
  });
  const loopback = await listenOnLoopback(server);
  origin = loopback.url;
  return { ...loopback, url: `${loopback.url}/api` };
}
