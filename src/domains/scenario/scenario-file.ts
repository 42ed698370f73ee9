import { readdir, readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import { Ajv2020, type ErrorObject } from 'ajv/dist/2020.js';
import { packageFile, readJsonFile } from '../../assets.js';
import { ToolError } from '../../core/tool-error.js';
import { parseYamlSource } from '../../openapi/yaml-source.js';
import type { Scenario } from './scenario.js';
import { scenarioFrom } from './scenario-parse.js';
import { ACTIONS } from './actions/index.js';
import { worldProblems, type WorldConfig } from '../sim/world-config.js';

/** The shipped scenario library and the default world. */
export const SCENARIO_DIR = packageFile('scenarios');
export const WORLD_FILE = packageFile('fixtures/world.json');

let validator: Promise<ReturnType<Ajv2020['compile']>> | undefined;

/** The scenario schema, compiled once: callers that arrive together share one compilation. */
function schemaValidator(): Promise<ReturnType<Ajv2020['compile']>> {
  validator ??= readJsonFile<object>(packageFile('spec/scenario.schema.json')).then((schema) =>
    new Ajv2020({ allErrors: true, strict: false }).compile(schema),
  );
  validator.catch(() => (validator = undefined));
  return validator;
}

/** One schema error in words, with the offending key named for unknown properties. */
function describe(error: ErrorObject): { pointer: string; message: string } {
  if (error.keyword === 'additionalProperties') {
    const key = String(error.params.additionalProperty);
    const inStep = /^\/steps\/\d+$/.test(error.instancePath);
    return {
      pointer: `#${error.instancePath}/${key}`,
      message: `unknown key ${JSON.stringify(key)}${inStep ? `; a step has name, expect and one action of: ${ACTIONS.join(', ')}` : ''}`,
    };
  }
  if (error.keyword === 'required')
    return {
      pointer: `#${error.instancePath}`,
      message: `missing required key ${JSON.stringify(error.params.missingProperty)}`,
    };
  if (error.keyword === 'enum')
    return {
      pointer: `#${error.instancePath}`,
      message: `must be one of: ${(error.params.allowedValues as unknown[]).map((value) => JSON.stringify(value)).join(', ')}`,
    };
  return { pointer: `#${error.instancePath}`, message: error.message ?? `fails ${error.keyword}` };
}

/** The most specific errors: drop those whose pointer is an ancestor of another's (oneOf noise). */
function mostSpecific(errors: readonly ErrorObject[]): ErrorObject[] {
  const useful = errors.filter(
    (error) => error.keyword !== 'oneOf' && error.keyword !== 'anyOf' && error.keyword !== 'if',
  );
  return useful.filter(
    (error) => !useful.some((other) => other !== error && other.instancePath.startsWith(`${error.instancePath}/`)),
  );
}

/** Reads, parses and validates one scenario file; every problem is a ToolError naming file:line. */
export async function loadScenarioFile(file: string): Promise<Scenario> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    throw new ToolError(
      `cannot read the scenario: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`,
      file,
    );
  }
  return { ...(await scenarioFromText(text, file, path.basename(file).replace(/\.ya?ml$/, ''))), file };
}

/**
 * Parses and validates a scenario's YAML (or JSON) text exactly as a file's; every problem is a
 * ToolError naming `file:line` (`file`: where the text came from). `name` is the scenario's name
 * (a file's is its base name).
 */
export async function scenarioFromText(text: string, file: string, name: string): Promise<Scenario> {
  const parsed = parseYamlSource(text);
  if (!parsed.ok) throw new ToolError(`invalid YAML: ${parsed.message}`, `${file}:${parsed.line}:${parsed.column}`);
  const at = (pointer: string) => `${file}:${parsed.source.lineOf(pointer) ?? 1}`;
  const validate = await schemaValidator();
  if (!validate(parsed.source.value)) {
    const [first, ...rest] = mostSpecific(validate.errors ?? []).map(describe);
    throw new ToolError(
      `${first!.message}${rest.length > 0 ? ` (and ${rest.length} more problem${rest.length > 1 ? 's' : ''})` : ''}`,
      at(first!.pointer),
    );
  }
  const { scenario, problems } = scenarioFrom(parsed.source.value, name, parsed.source.lineOf);
  if (problems.length > 0) throw new ToolError(problems[0]!.message, at(problems[0]!.pointer));
  return scenario;
}

/** Files named by `inputs` (files, or directories whose *.yaml files are taken in name order). */
export async function scenarioFiles(inputs: readonly string[]): Promise<string[]> {
  const files: string[] = [];
  for (const input of inputs.length > 0 ? inputs : [SCENARIO_DIR]) {
    let info;
    try {
      info = await stat(input);
    } catch {
      throw new ToolError('no such file or directory', input);
    }
    if (!info.isDirectory()) {
      files.push(input);
      continue;
    }
    const names = (await readdir(input)).filter((name) => /\.ya?ml$/.test(name)).sort();
    if (names.length === 0) throw new ToolError('no .yaml scenario files in this directory', input);
    files.push(...names.map((name) => path.join(input, name)));
  }
  return files;
}

/** A world file (default: the bundled fixtures/world.json), checked; a problem is a ToolError naming file:line. */
export async function loadWorld(file = WORLD_FILE): Promise<WorldConfig> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    throw new ToolError(
      `cannot read the world file: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`,
      file,
    );
  }
  let world: unknown;
  try {
    world = JSON.parse(text);
  } catch (error) {
    throw new ToolError(`not valid JSON: ${(error as Error).message}`, file);
  }
  const [first, ...rest] = worldProblems(world);
  if (!first) return world as WorldConfig;
  const parsed = parseYamlSource(text);
  const line = parsed.ok ? parsed.source.lineOf(`#${first.pointer}`) : undefined;
  const more = rest.length > 0 ? ` (and ${rest.length} more problem${rest.length > 1 ? 's' : ''})` : '';
  throw new ToolError(`${first.message}${more}`, line ? `${file}:${line}` : file);
}
