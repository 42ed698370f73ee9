// A small, correct server for fixtures/contract/courses.yaml: courses carry links to themselves and
// to their teacher. Each fault breaks one link, so the tests prove body-links-resolve catches it.
import { fileURLToPath } from 'node:url';
import { jsonBody, Refusal, startJsonServer, type Answer, type ReceivedRequest } from '../helpers/json-server.js';
import type { LoopbackServer } from '../helpers/loopback.js';

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

  function route(request: ReceivedRequest): Answer {
    const { method, url } = request;
    const path = url.pathname;
    const query = url.searchParams;
    if (path === '/api/courses' && method === 'GET') {
      const online = query.get('online');
      if (online !== null && online !== 'true' && online !== 'false') throw new Refusal(400, 'online is a boolean');
      const wanted = options.fault === 'online-filter-ignored' || online === null ? undefined : online === 'true';
      const found = [...courses.values()].filter((course) => wanted === undefined || course.online_only === wanted);
      return { status: 200, body: found.map(shown) };
    }
    if (path === '/api/courses' && method === 'POST') {
      const body = jsonBody(request) as Record<string, unknown> | null;
      if (body === null || typeof body !== 'object' || Array.isArray(body)) throw new Refusal(400, 'an object');
      const title = body.title;
      if (typeof title !== 'string' || title.length < 1 || [...title].length > 80)
        throw new Refusal(400, 'title is 1 to 80 characters');
      if (typeof body.teacher_id !== 'string' || !/^[0-9a-f-]{36}$/i.test(body.teacher_id))
        throw new Refusal(400, 'teacher_id is a uuid');
      if (!TEACHERS.has(body.teacher_id.toLowerCase())) throw new Refusal(422, 'no such teacher');
      if (body.online_only !== undefined && typeof body.online_only !== 'boolean')
        throw new Refusal(400, 'online_only is a boolean');
      const course = {
        id: next++,
        title,
        teacher_id: body.teacher_id.toLowerCase(),
        online_only: body.online_only === true,
      };
      courses.set(course.id, course);
      return { status: 201, body: shown(course) };
    }
    const course = /^\/api\/courses\/([1-9][0-9]*)$/.exec(path);
    if (course && method === 'GET') {
      const found = courses.get(Number(course[1]));
      if (!found) throw new Refusal(404, 'no such course');
      return { status: 200, body: shown(found) };
    }
    const teacher = /^\/api\/teachers\/([^/]+)$/.exec(path);
    if (teacher && method === 'GET') {
      const id = decodeURIComponent(teacher[1]!).toLowerCase();
      const name = TEACHERS.get(id);
      if (!name) throw new Refusal(404, 'no such teacher');
      return { status: 200, body: { id, name } };
    }
    throw new Refusal(404, 'no such path');
  }

  const loopback = await startJsonServer(route, (refusal) => ({
    status: refusal.status,
    body: { message: refusal.message },
  }));
  origin = loopback.url;
  return { ...loopback, url: `${loopback.url}/api` };
}
