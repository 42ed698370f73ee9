import { curlCommand } from '../request-builder.js';
import type { RunSummary } from '../runner.js';
import type { CheckFailure } from '../types.js';

function failureRecord(failure: CheckFailure, apiKey: string) {
  const { exchange, ...rest } = failure;
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
          body: exchange.response.text.slice(0, 4000),
        }
      : { error: exchange.error },
    curl: curlCommand(exchange.request, apiKey),
  };
}

/** The whole run as JSON (bigints written exactly); the API key never appears. */
export function jsonReport(summary: RunSummary, apiKey: string): string {
  const report = {
    ...summary,
    cases: summary.cases.map((result) => ({
      ...result,
      failures: result.failures.map((item) => failureRecord(item, apiKey)),
    })),
  };
  return `${JSON.stringify(report, (_key, value: unknown) => (typeof value === 'bigint' ? JSON.rawJSON(value.toString()) : value), 2)}\n`;
}
