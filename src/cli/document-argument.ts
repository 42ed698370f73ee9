import { ToolError } from '../core/tool-error.js';

/** How help describes the document argument of `serve` and `check`. */
export const DOCUMENT_HELP =
  'OpenAPI 3.0/3.1 or Swagger 2.0 document: a file or an http(s) URL, its $refs resolved relative to it (default: the bundled spec/petstore.yaml)';

/**
 * The document a command reads: the positional argument or `--spec` (either, as in Prism and
 * Schemathesis; both only when they agree), undefined for the bundled one.
 */
export function documentOf(positional: string | undefined, flag: string | undefined): string | undefined {
  if (positional !== undefined && flag !== undefined && positional !== flag)
    throw new ToolError(
      `two documents given: ${positional} and --spec ${flag}; name one, as an argument or with --spec`,
    );
  return positional ?? flag;
}
