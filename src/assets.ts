import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { ToolError } from './core/tool-error.js';

/**
 * Files shipped with the package (spec, fixtures), found relative to this module: the same path
 * works from src/ and dist/, and from any working directory.
 */
export function packageFile(relative: string): string {
  return fileURLToPath(new URL(`../${relative}`, import.meta.url));
}

/** The Pet Store document kennel serves when no --spec is given. */
export const PETSTORE_SPEC = packageFile('spec/petstore.yaml');

/** Reads a JSON file; a missing or malformed file is a ToolError naming it. */
export async function readJsonFile<T>(file: string): Promise<T> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    throw new ToolError(`cannot read: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`, file);
  }
  try {
    return JSON.parse(text) as T;
  } catch (error) {
    throw new ToolError(`not valid JSON: ${(error as Error).message}`, file);
  }
}
