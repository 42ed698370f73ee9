// Which Node kennel runs on. Kept apart from the CLI so that an older Node gets one clear line
// instead of a failure deep inside a check (Node 20 lacks JSON.rawJSON, for one).

/** The lowest Node major version kennel supports (package.json "engines"). */
export const REQUIRED_MAJOR = 24;

/** Why `version` (process.versions.node) cannot run kennel, or undefined when it can. */
export function nodeVersionProblem(version) {
  const major = Number(String(version).split('.')[0]);
  if (Number.isInteger(major) && major >= REQUIRED_MAJOR) return undefined;
  return (
    `kennel: needs Node ${REQUIRED_MAJOR} or later, found ${version}. ` +
    'Run it through npm (npx kennel …, npm start), which puts the Node 24 that npm ci installs first on PATH.'
  );
}
