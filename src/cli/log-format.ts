import type { DestinationStream } from 'pino';
import { ToolError } from '../core/tool-error.js';

/** How `kennel serve` writes its request log: pino's JSON lines, or one human line per event. */
export const LOG_FORMATS = ['json', 'pretty'] as const;
export type LogFormat = (typeof LOG_FORMATS)[number];

/** Flag, then KENNEL_LOG_FORMAT, then: pretty for a person at a terminal, JSON for everything else (CI, Docker, a pipe into jq). */
export function resolveLogFormat(flag: LogFormat | undefined, env: string | undefined, isTerminal: boolean): LogFormat {
  if (flag) return flag;
  if (env === undefined || env === '') return isTerminal ? 'pretty' : 'json';
  if ((LOG_FORMATS as readonly string[]).includes(env)) return env as LogFormat;
  throw new ToolError(`KENNEL_LOG_FORMAT=${env} must be one of: ${LOG_FORMATS.join(', ')}`);
}

// Shown in the line itself, so left out of pino-pretty's key/value block under it.
const SHOWN = 'pid,hostname,service,method,url,status,durationMs,operationId,file,operations,kept,dropped,shared';

/**
 * A request line reads like an access log: `GET /v1/pets 200 1.42ms (listPets)`. Other events
 * about a request (a proxied exchange's violations) carry no status or time: their message leads.
 */
function message(log: Record<string, unknown>, messageKey: string): string {
  const text = String(log[messageKey] ?? '');
  const operation = typeof log.operationId === 'string' ? ` (${log.operationId})` : '';
  if (typeof log.method === 'string' && typeof log.status === 'number' && typeof log.durationMs === 'number')
    return `${log.method} ${String(log.url)} ${log.status} ${log.durationMs}ms${operation}`;
  const request = [log.method, log.url, log.status].filter((part) => part !== undefined).join(' ');
  return request === '' ? text : `${text}: ${request}${operation}`;
}

/**
 * The stream pino writes to: `out` itself for JSON; for pretty, each JSON line is turned into a
 * human one before it reaches `out`. pino-pretty is only loaded when pretty is asked for.
 */
export async function logDestination(
  format: LogFormat,
  out: DestinationStream,
  colorize: boolean,
): Promise<DestinationStream> {
  if (format === 'json') return out;
  const { prettyFactory } = await import('pino-pretty');
  const pretty = prettyFactory({
    colorize,
    translateTime: 'SYS:HH:MM:ss.l',
    ignore: SHOWN,
    messageFormat: message,
  });
  return { write: (line: string) => out.write(pretty(line)) };
}
