import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { ACTION_TABLE, ACTIONS } from '../../src/domains/scenario/actions/index.js';
import { scenarioFromText } from '../../src/domains/scenario/scenario-file.js';

const schema = JSON.parse(readFileSync(new URL('../../spec/scenario.schema.json', import.meta.url), 'utf8')) as {
  $defs: { step: { properties: Record<string, unknown> } };
};
const stepProperties = schema.$defs.step.properties;
/** Step keys the schema allows that are no action. */
const NOT_ACTIONS = ['name', 'expect'];
const docs = readFileSync(new URL('../../docs/scenarios.md', import.meta.url), 'utf8');

describe('the action registry and spec/scenario.schema.json say the same thing', () => {
  it('every step key of the schema is a registered action, and every action is in the schema', () => {
    const inSchema = Object.keys(stepProperties).filter((key) => !NOT_ACTIONS.includes(key));
    expect(
      inSchema.filter((key) => !ACTIONS.includes(key as never)),
      'in spec/scenario.schema.json $defs.step but not registered in src/domains/scenario/actions/index.ts',
    ).toEqual([]);
    expect(
      ACTIONS.filter((key) => !inSchema.includes(key)),
      'registered in actions/index.ts but missing from spec/scenario.schema.json $defs.step.properties',
    ).toEqual([]);
  });

  it.each(ACTION_TABLE.map((definition) => [definition.key, definition] as const))(
    '%s: its schema fragment is the one spec/scenario.schema.json holds',
    (key, definition) => {
      expect(stepProperties[key], `copy the schema of actions/${key}.ts into $defs.step.properties`).toEqual(
        definition.schema,
      );
    },
  );

  it('keys are unique, each action has a doc line, and docs/scenarios.md lists it', () => {
    expect(new Set(ACTIONS).size).toBe(ACTIONS.length);
    for (const definition of ACTION_TABLE) {
      expect(definition.doc.trim(), definition.key).not.toBe('');
      expect(docs, `docs/scenarios.md does not mention \`${definition.key}\``).toContain(`\`${definition.key}\``);
    }
  });
});

describe("an action's parse problem is located at its step's line", () => {
  it.each([
    ['serve', '  - serve: "http://[oops"\n', 'story.yaml:4: "http://[oops" is not a URL'],
    ['advance', '  - advance: 4000d\n', 'story.yaml:4: "4000d" is longer than the 3650d (10 years) kennel accepts'],
  ])('%s', async (_key, step, message) => {
    const text = `description: x\nsteps:\n  - check: docs.example.com\n${step}`;
    await expect(scenarioFromText(text, 'story.yaml', 'story')).rejects.toThrow(message);
  });
});
