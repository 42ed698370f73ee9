/**
 * A problem with kennel's own inputs (spec file, config, flags, scenario file): the user must fix
 * something before the tool can run. `where` names the file and, when known, the line.
 */
export class ToolError extends Error {
  readonly where: string | undefined;

  constructor(message: string, where?: string) {
    super(where ? `${where}: ${message}` : message);
    this.name = 'ToolError';
    this.where = where;
  }
}

/** Why a listener could not bind its port, in words ("is already in use"), for a ToolError. */
export function whyNotBound(error: { code?: string; message: string }): string {
  if (error.code === 'EADDRINUSE') return 'is already in use';
  if (error.code === 'EACCES') return 'needs privileges kennel does not have';
  return `cannot be bound (${error.code ?? error.message})`;
}
