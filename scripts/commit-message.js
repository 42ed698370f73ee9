// The commit style CONTRIBUTING.md asks for, held by a machine: a subject of at most 72
// characters, then a blank line and a body that says why. `.githooks/commit-msg` runs this on every
// commit once a clone opts in (`git config core.hooksPath .githooks`); merges, reverts and
// fixup!/squash! commits, which git writes itself, pass as they are.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

export const MAX_SUBJECT = 72;

/** What is wrong with a commit message, in words; empty when it follows the style. */
export function commitMessageProblems(message) {
  const lines = message
    .split('\n')
    .filter((line) => !line.startsWith('#'))
    .map((line) => line.trimEnd());
  while (lines.length > 0 && lines.at(-1) === '') lines.pop();
  const [subject = '', separator, ...body] = lines;
  if (/^(Merge|Revert|fixup!|squash!|amend!) /.test(subject)) return [];
  const problems = [];
  if (subject.trim() === '') problems.push('the subject is empty');
  if (subject.length > MAX_SUBJECT)
    problems.push(`the subject has ${subject.length} characters; at most ${MAX_SUBJECT}`);
  if (separator !== undefined && separator !== '') problems.push('a blank line must follow the subject');
  if (body.every((line) => line.trim() === '')) problems.push('a body after a blank line must say why');
  return problems;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const problems = commitMessageProblems(readFileSync(process.argv[2], 'utf8'));
  for (const problem of problems) console.error(`commit message: ${problem} (CONTRIBUTING.md, "Commits")`);
  process.exitCode = problems.length > 0 ? 1 : 0;
}
