// Which JavaScript runtime kennel runs on. Kept free of imports so that an older Node can load it
// and get one clear line instead of a failure deep inside a check.

/**
 * The lowest Node kennel supports (package.json "engines"): 22 for JSON.rawJSON, 22.19 because
 * @apidevtools/swagger-parser, which reads every document, asks for it.
 */
export const REQUIRED_NODE = '22.19';

/** A built-in kennel relies on, and what it is for (said when it is missing). */
interface Feature {
  name: string;
  use: string;
  present(scope: typeof globalThis): boolean;
}

const FEATURES: readonly Feature[] = [
  {
    name: 'JSON.rawJSON',
    use: 'to write integers beyond 2^53 digit for digit',
    present: (scope) => typeof (scope.JSON as { rawJSON?: unknown }).rawJSON === 'function',
  },
];

const ADVICE = `Install Node ${REQUIRED_NODE} or later (https://nodejs.org); in a kennel checkout, \`npx kennel …\` runs the Node 24 that npm ci installs.`;

/**
 * Why this runtime cannot run kennel, or undefined when it can: the first built-in it lacks, by
 * name, else a Node major version below the floor. `version` is process.versions.node.
 */
export function runtimeProblem(version: string, scope: typeof globalThis = globalThis): string | undefined {
  const missing = FEATURES.find((feature) => !feature.present(scope));
  if (missing)
    return `kennel: needs Node ${REQUIRED_NODE} or later: this Node (${version}) lacks ${missing.name}, which kennel uses ${missing.use}. ${ADVICE}`;
  if (atLeast(version, REQUIRED_NODE)) return undefined;
  return `kennel: needs Node ${REQUIRED_NODE} or later, found ${version}. ${ADVICE}`;
}

/** Whether `version` (major.minor.patch) is `floor` (major.minor) or later. */
function atLeast(version: string, floor: string): boolean {
  const [major, minor] = String(version).split('.').map(Number);
  const [floorMajor, floorMinor] = floor.split('.').map(Number) as [number, number];
  if (!Number.isInteger(major) || !Number.isInteger(minor)) return false;
  return major! > floorMajor || (major === floorMajor && minor! >= floorMinor);
}
