import { curlCommand } from '../prepare/request-builder.js';
import type { RunSummary } from '../run/run-types.js';
import type { Finding } from '../types.js';

function findingRecord(finding: Finding, apiKey: string) {
  const { exchange, ...rest } = finding;
  if (!exchange) return rest;
  return {
    ...rest,
    request: {
      purpose: exchange.purpose,
      method: exchange.request.method,
      url: exchange.request.url,
      body: exchange.request.body,
    },
    response: exchange.response
      ? {
          status: exchange.response.status,
          headers: exchange.response.headers,
          size: exchange.response.size,
          body: exchange.response.text.slice(0, 4000),
        }
      : { error: exchange.error },
    curl: curlCommand(exchange.request, apiKey),
  };
}

function stringify(value: unknown): string {
  return `${JSON.stringify(value, (_key, item: unknown) => (typeof item === 'bigint' ? JSON.rawJSON(item.toString()) : item), 2)}\n`;
}

/**
 * The whole run as JSON (bigints written exactly): each case's unique findings with how often they
 * came up, the first example's request, an excerpt of its response and a curl line. The API key
 * never appears.
 */
export function jsonReport(summary: RunSummary, apiKey: string): string {
  return stringify({
    ...summary,
    cases: summary.cases.map((result) => ({
      ...result,
      failures: result.failures.map((item) => findingRecord(item, apiKey)),
    })),
  });
}

/** A JSON report for a run that could not start (unreachable URL, broken spec). */
export function jsonForToolError(message: string, baseUrl: string | undefined): string {
  return stringify({ baseUrl, error: message, cases: [], errors: 0, warnings: 0, exitCode: 2 });
}
