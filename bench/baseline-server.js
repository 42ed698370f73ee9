// The benchmark's floor: the least a Koa 3 + @koa/router server can do for the Pet Store routes.
// A fixed 20-pet list, one fixed pet, POST echoes the body with an incrementing id, and the same
// bearer check kennel does (key looked up in a Set, 401 JSON otherwise). No validation, no store.
//
//   node bench/baseline-server.js --port 4020 --api-key bench-key [--host 127.0.0.1]
import { createServer } from 'node:http';
import { parseArgs } from 'node:util';
import Koa from 'koa';
import Router from '@koa/router';

const { values } = parseArgs({
  options: {
    host: { type: 'string', default: '127.0.0.1' },
    port: { type: 'string', default: '4020' },
    'api-key': { type: 'string', multiple: true, default: ['bench-key'] },
  },
});

const KEYS = new Set(values['api-key']);
const STATUSES = ['available', 'pending', 'sold'];
const NAMES = ['Rex', 'Tom', 'Bella', 'Max', 'Luna', 'Charlie', 'Daisy', 'Milo', 'Lola', 'Oreo'];
const PETS = Array.from({ length: 20 }, (_, index) => ({
  id: index + 1,
  name: NAMES[index % NAMES.length],
  categoryId: (index % 8) + 1,
  status: STATUSES[index % STATUSES.length],
}));
const MAX_BODY = 64 * 1024;
let nextId = PETS.length + 1;

function problem(ctx, status, code, message) {
  ctx.status = status;
  ctx.body = { code, message, status };
}

function readJson(req) {
  return new Promise((resolve, reject) => {
    const chunks = [];
    let size = 0;
    req.on('data', (chunk) => {
      size += chunk.length;
      if (size > MAX_BODY) reject(new Error('body too large'));
      else chunks.push(chunk);
    });
    req.on('end', () => {
      try {
        resolve(JSON.parse(Buffer.concat(chunks).toString('utf8')));
      } catch (error) {
        reject(error);
      }
    });
    req.on('error', reject);
  });
}

const app = new Koa();

app.use(async (ctx, next) => {
  const header = ctx.get('authorization');
  const key = header.startsWith('Bearer ') ? header.slice(7).trim() : '';
  if (!KEYS.has(key)) {
    ctx.set('WWW-Authenticate', 'Bearer realm="baseline"');
    return problem(ctx, 401, key === '' ? 'missing_api_key' : 'invalid_api_key', 'A valid Bearer API key is required');
  }
  return next();
});

const router = new Router({ prefix: '/v1' });
router.get('/pets', (ctx) => {
  ctx.body = PETS;
});
router.get('/pets/:id', (ctx) => {
  ctx.body = PETS[0];
});
router.post('/pets', async (ctx) => {
  let body;
  try {
    body = await readJson(ctx.req);
  } catch {
    return problem(ctx, 400, 'invalid_body', 'Request body must be JSON');
  }
  if (typeof body !== 'object' || body === null || Array.isArray(body))
    return problem(ctx, 400, 'invalid_body', 'Request body must be a JSON object');
  ctx.status = 201;
  ctx.body = { id: nextId++, ...body };
});
app.use(router.routes());
app.use(router.allowedMethods());

const server = createServer(app.callback());
server.keepAliveTimeout = 5_000;
server.listen(Number(values.port), values.host);

const shutdown = () => {
  server.close(() => process.exit(0));
  server.closeAllConnections();
};
process.on('SIGTERM', shutdown);
process.on('SIGINT', shutdown);
