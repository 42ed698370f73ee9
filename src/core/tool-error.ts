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
