// Lets a bench script import the TypeScript test tools (test/generated/) as they are: Node 24 strips
// their types, and this hook resolves their `./x.js` imports to the `./x.ts` beside them (the
// TypeScript convention the sources follow). Only relative imports from .ts files are rewritten.
import { registerHooks } from 'node:module';

registerHooks({
  resolve(specifier, context, nextResolve) {
    const fromTypeScript = context.parentURL?.endsWith('.ts') ?? false;
    if (fromTypeScript && specifier.startsWith('.') && specifier.endsWith('.js')) {
      try {
        return nextResolve(specifier, context);
      } catch {
        return nextResolve(`${specifier.slice(0, -3)}.ts`, context);
      }
    }
    return nextResolve(specifier, context);
  },
});
