// Lets a bench script import the test suite's TypeScript helpers (test/**/*.ts) with Node's own
// type stripping (Node >= 23.6): the tests import each other as `./x.js`, as TypeScript's nodenext
// resolution wants, so a `.js` specifier that does not exist is retried as `.ts`.
import { registerHooks } from 'node:module';

registerHooks({
  resolve(specifier, context, nextResolve) {
    try {
      return nextResolve(specifier, context);
    } catch (error) {
      const relative = specifier.startsWith('./') || specifier.startsWith('../');
      if (!relative || !specifier.endsWith('.js')) throw error;
      return nextResolve(`${specifier.slice(0, -3)}.ts`, context);
    }
  },
});
