// The architecture as a test (ARCHITECTURE.md, "The folder graph"): which folders of src/ may
// import which, pure folders free of I/O whatever the import form, and no import cycles. Lint
// holds the static imports of pure files too; this also sees `await import('node:fs')`,
// `import type` and `typeof import()`, and the graph between every folder.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { cycles, folderOf, forbiddenEdges, importsOf, ioInPureFiles, type Sources } from './import-graph.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

/** The folder graph as ARCHITECTURE.md draws it, in its ```folder-graph block: `mock -> core, http`. */
function documentedGraph(): Map<string, Set<string>> {
  const text = readFileSync(path.join(ROOT, 'ARCHITECTURE.md'), 'utf8');
  const block = /```folder-graph\n([\s\S]*?)```/.exec(text)?.[1];
  if (!block) throw new Error('ARCHITECTURE.md has no ```folder-graph block');
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
    const used = new Set<string>();
    for (const [file, source] of sources)
      for (const edge of importsOf(file, source)) if (edge.to) used.add(`${folderOf(file)} -> ${folderOf(edge.to)}`);
    const unused = [...graph].flatMap(([from, targets]) =>
      [...targets].filter((to) => !used.has(`${from} -> ${to}`)).map((to) => `${from} -> ${to}`),
    );
    expect(unused, 'edges drawn in ARCHITECTURE.md that no import uses: remove them').toEqual([]);
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
    const generic = /^src\/(mock|contract|openapi|http)\//;
    const petNames = /\bseedPets\b|\bmaxPetsPerTenant\b|store\/pet\.js/;
    const found = [...sources.entries()]
      .filter(([file, text]) => generic.test(file) && file !== 'src/serve/server.ts' && petNames.test(text))
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
