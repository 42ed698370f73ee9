// `npm run typecheck` and `eslint .` in one process, for `npm test`: the type-check and ESLint's
// type-aware rules each build a TypeScript program of the whole tree, the same work twice; here
// ESLint is handed the type-check's program (`parserOptions.programs`, typescript-eslint's own
// option). Same tsconfig.json, same eslint.config.js, same findings as the two commands.
//
//   node scripts/typecheck-and-lint.js     exit 0 when both are clean, 1 when either finds a problem
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { ESLint } from 'eslint';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/** The program `tsc -p tsconfig.json` builds, and what it reports (a broken tsconfig is reported, not thrown). */
function typeCheck() {
  const configErrors = [];
  const host = { ...ts.sys, onUnRecoverableConfigFileDiagnostic: (diagnostic) => configErrors.push(diagnostic) };
  const config = ts.getParsedCommandLineOfConfigFile(path.join(ROOT, 'tsconfig.json'), undefined, host);
  if (!config) return { program: undefined, diagnostics: configErrors };
  const program = ts.createProgram({
    rootNames: config.fileNames,
    options: config.options,
    projectReferences: config.projectReferences,
    configFileParsingDiagnostics: ts.getConfigFileParsingDiagnostics(config),
  });
  return { program, diagnostics: [...ts.getPreEmitDiagnostics(program)] };
}

function formatDiagnostics(diagnostics) {
  const host = {
    getCanonicalFileName: (fileName) => fileName,
    getCurrentDirectory: () => ROOT,
    getNewLine: () => '\n',
  };
  const colour = process.stdout.isTTY || Boolean(process.env.FORCE_COLOR);
  const text = colour
    ? ts.formatDiagnosticsWithColorAndContext(diagnostics, host)
    : ts.formatDiagnostics(diagnostics, host);
  return `${text}\nFound ${diagnostics.length} type error(s).\n`;
}

/** `eslint .` with the type-aware rules reading `program` instead of building their own. */
async function lint(program) {
  const eslint = new ESLint({
    cwd: ROOT,
    overrideConfig: {
      files: ['**/*.ts'],
      languageOptions: { parserOptions: { projectService: false, programs: [program] } },
    },
  });
  const results = await eslint.lintFiles(['.']);
  const formatter = await eslint.loadFormatter('stylish');
  return { failed: results.some((result) => result.errorCount > 0), text: await formatter.format(results) };
}

const { program, diagnostics } = typeCheck();
if (diagnostics.length > 0) process.stdout.write(formatDiagnostics(diagnostics));
// A tsconfig.json that does not parse leaves no program to lint with: that is the one finding.
const linted = program ? await lint(program) : { failed: false, text: '' };
process.stdout.write(linted.text);
process.exitCode = diagnostics.length > 0 || linted.failed ? 1 : 0;
