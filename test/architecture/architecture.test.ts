// The architecture as a test (ARCHITECTURE.md, "The folder graph"): which folders of src/ may
// import which, pure folders free of I/O whatever the import form, and no import cycles. Lint
// holds the static imports of pure files too; this also sees `await import('node:fs')`,
// `import type` and `typeof import()`, and the graph between every folder.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import {
  cycles,
  folderOf,
  forbiddenEdges,
  ioInPureFiles,
  roomOf,
  usedEdges,
  type Place,
  type Sources,
} from './import-graph.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

/**
 * A graph as ARCHITECTURE.md draws it: the ```folder-graph block (`mock -> core, http`) or the
 * ```room-graph block (`mock/respond -> mock, mock/request`).
 */
function documentedGraph(name: 'folder-graph' | 'room-graph' = 'folder-graph'): Map<string, Set<string>> {
  const text = readFileSync(path.join(ROOT, 'ARCHITECTURE.md'), 'utf8');
  const block = new RegExp(`\`\`\`${name}\\n([\\s\\S]*?)\`\`\``).exec(text)?.[1];
  if (!block) throw new Error(`ARCHITECTURE.md has no \`\`\`${name} block`);
  const graph = new Map<string, Set<string>>();
  for (const line of block.split('\n').filter((row) => row.trim() !== '')) {
    const [from, to = ''] = line.split('->').map((part) => part.trim());
    graph.set(
      from!,
      new Set(
        to
          .split(',')
          .map((name) => name.trim())
          .filter(Boolean),
      ),
    );
  }
  return graph;
}

/** The folders split into rooms (those the room graph names) and where a file sits among them. */
function documentedRooms(): { graph: Map<string, Set<string>>; roomed: Set<string>; place: Place } {
  const graph = documentedGraph('room-graph');
  const roomed = new Set([...graph.keys()].map((room) => room.split('/')[0]!));
  return { graph, roomed, place: (file) => roomOf(file, roomed) };
}

function srcSources(): Sources {
  const files = (readdirSync(path.join(ROOT, 'src'), { recursive: true }) as string[])
    .filter((file) => file.endsWith('.ts'))
    .map((file) => `src/${file.split(path.sep).join('/')}`);
  return new Map(files.map((file) => [file, readFileSync(path.join(ROOT, file), 'utf8')]));
}

/** The pure folders and their adapters, as eslint.config.js lists them (one list, read from there). */
async function purity(): Promise<{ isPure: (file: string) => boolean; isIoModule: (specifier: string) => boolean }> {
  const { PURE, PURE_EXCEPTIONS, IO_MODULES } = await import('../../eslint.config.js');
  const matches = (globs: readonly string[], file: string) => globs.some((glob) => path.posix.matchesGlob(file, glob));
  return {
    isPure: (file) => matches(PURE, file) && !matches(PURE_EXCEPTIONS, file),
    isIoModule: (specifier) =>
      IO_MODULES.some((module) =>
        module.endsWith('/*') ? specifier.startsWith(module.slice(0, -1)) : specifier === module,
      ),
  };
}

describe('the architecture of src/', () => {
  const sources = srcSources();

  it('every import between folders follows the folder graph of ARCHITECTURE.md', () => {
    const found = forbiddenEdges(sources, documentedGraph()).map((edge) => `${edge.from} imports ${edge.specifier}`);
    expect(found).toEqual([]);
  });

  it('the folder graph of ARCHITECTURE.md names only what src/ holds, and every edge it draws is used', () => {
    const graph = documentedGraph();
    const folders = new Set([...sources.keys()].map(folderOf));
    expect([...graph.keys()].sort()).toEqual([...folders].sort());
    const used = usedEdges(sources);
    const unused = [...graph].flatMap(([from, targets]) =>
      [...targets].filter((to) => !used.has(`${from} -> ${to}`)).map((to) => `${from} -> ${to}`),
    );
    expect(unused, 'edges drawn in ARCHITECTURE.md that no import uses: remove them').toEqual([]);
  });

  it('every import between rooms of one folder follows the room graph of ARCHITECTURE.md', () => {
    const { graph, place } = documentedRooms();
    const found = forbiddenEdges(sources, graph, place)
      .filter((edge) => folderOf(edge.from) === folderOf(edge.to!))
      .map((edge) => `${edge.from} imports ${edge.specifier}`);
    expect(found).toEqual([]);
  });

  it('the room graph names the rooms its folders hold, and every edge it draws is used', () => {
    const { graph, place } = documentedRooms();
    const rooms = new Set([...sources.keys()].map(place).filter((room) => room !== undefined));
    expect([...graph.keys()].sort()).toEqual([...rooms].sort());
    const used = usedEdges(sources, place);
    const unused = [...graph].flatMap(([from, targets]) =>
      [...targets].filter((to) => !used.has(`${from} -> ${to}`)).map((to) => `${from} -> ${to}`),
    );
    expect(unused, 'edges drawn in the room graph that no import uses: remove them').toEqual([]);
  });

  it('pure folders import no I/O module, statically, dynamically or re-exported', async () => {
    const { isPure, isIoModule } = await purity();
    expect(ioInPureFiles(sources, isPure, isIoModule).map((edge) => `${edge.from}: ${edge.specifier}`)).toEqual([]);
  });

  it("the store raises its own errors, never an HTTP problem (a 503 is the HTTP layer's reading)", () => {
    const problems = [...sources.entries()]
      .filter(([file, text]) => file.startsWith('src/store/') && /core\/problem\.js/.test(text))
      .map(([file]) => file);
    expect(problems).toEqual([]);
  });

  it("generic code names items and seeders, never the Pet Store's pets (only the composition root wires them)", () => {
    const generic = /^src\/(mock|proxy|contract|openapi|http)\//;
    const petNames = /\bseedPets\b|\bmaxPetsPerTenant\b|store\/pet\.js/;
    const found = [...sources.entries()]
      .filter(([file, text]) => generic.test(file) && petNames.test(text))
      .map(([file]) => file);
    expect(found).toEqual([]);
  });

  it("a bare `Plan` is the platform's subscription plan only: kennel check prepares a `CheckPlan`", () => {
    const found = [...sources.entries()]
      .filter(([file, text]) => !file.startsWith('src/domains/') && /\b(?:interface|type|class) Plan\b/.test(text))
      .map(([file]) => file);
    expect(found).toEqual([]);
  });

  it('the loaded OpenAPI document is called `document`, never `spec` (the glossary)', () => {
    const spec = /\b(?:#?spec)\??:\s*(?:Pick<)?LoadedDocument\b/;
    const found = [...sources.entries()]
      .filter(([, text]) => spec.test(text.replace(/\/\*\* @deprecated[^*]*\*\/\s*spec: LoadedDocument;/g, '')))
      .map(([file]) => file);
    expect(found).toEqual([]);
  });

  it('no import cycle between files (type-only imports count)', () => {
    expect(cycles(sources)).toEqual([]);
  });
});

describe('the rules catch what lint alone let through', () => {
  const graph = new Map([
    ['core', new Set<string>()],
    ['store', new Set(['core'])],
    ['mock', new Set(['core', 'store'])],
    ['domains', new Set(['core'])],
  ]);

  it('core or store importing the mock server', () => {
    const probe: Sources = new Map([
      ['src/core/x.ts', "import type { RunningMock } from '../mock/server.js';\n"],
      ['src/store/y.ts', "export { startMock } from '../mock/server.js';\n"],
      ['src/serve/server.ts', 'export const startMock = 1;\n'],
    ]);
    expect(forbiddenEdges(probe, graph).map((edge) => edge.from)).toEqual(['src/core/x.ts', 'src/store/y.ts']);
  });

  it('the mock or the proxy importing their host, src/serve (the host importing both is the rule)', () => {
    const probe: Sources = new Map([
      ['src/mock/respond/x.ts', "import type { RunningMock } from '../../serve/running-mock.js';\n"],
      ['src/proxy/y.ts', "import { startMock } from '../serve/server.js';\n"],
      ['src/serve/z.ts', "import { createMockApp } from '../mock/app.js';\nimport '../proxy/relay.js';\n"],
    ]);
    expect(forbiddenEdges(probe, documentedGraph()).map((edge) => edge.from)).toEqual([
      'src/mock/respond/x.ts',
      'src/proxy/y.ts',
    ]);
  });

  it('a stage importing a later one: a request reader the responder, a check the runner', () => {
    const { graph, place } = documentedRooms();
    const probe: Sources = new Map([
      ['src/mock/request/a.ts', "import { send } from '../respond/b.js';\n"],
      ['src/contract/checks/c.ts', "import { runContract } from '../run/runner.js';\n"],
      ['src/contract/prepare/p.ts', "export type Summary = typeof import('../run/run-types.js');\n"],
      ['src/contract/run/r.ts', "import { CHECKS } from '../checks/registry.js';\n"],
      ['src/mock/routing/s.ts', "import { answer } from '../respond/t.js';\n"],
    ]);
    expect(forbiddenEdges(probe, graph, place).map((edge) => edge.from)).toEqual([
      'src/mock/request/a.ts',
      'src/contract/checks/c.ts',
      'src/contract/prepare/p.ts',
    ]);
  });

  it('a dynamic import of node:fs in the pure simulator', async () => {
    const { isPure, isIoModule } = await purity();
    const probe: Sources = new Map([
      ['src/domains/sim/z.ts', "export async function read() {\n  const fs = await import('node:fs');\n}\n"],
      ['src/domains/sim/ok.ts', "// import('node:fs') in a comment is not an import\nexport type T = 1;\n"],
    ]);
    expect(ioInPureFiles(probe, isPure, isIoModule).map((edge) => edge.from)).toEqual(['src/domains/sim/z.ts']);
  });

  it('a cycle closed by a type-only import', () => {
    const probe: Sources = new Map([
      ['src/a/one.ts', "import { two } from './two.js';\n"],
      ['src/a/two.ts', "import type { One } from './one.js';\n"],
      ['src/a/three.ts', "import { two } from './two.js';\n"],
    ]);
    expect(cycles(probe)).toEqual([['src/a/one.ts', 'src/a/two.ts']]);
  });
});
