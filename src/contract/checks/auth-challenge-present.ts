import type { ResponseCheck } from '../types.js';
import { challengedSchemes, challengeSchemes, takesApiKey } from './auth-schemes.js';
import { failure } from './failure.js';

/**
 * Every 401 carries a `WWW-Authenticate` challenge for a scheme the operation takes (RFC 9110
 * §15.5.2; RFC 6750 §3 for Bearer, RFC 7617 for Basic). API keys have no registered scheme, so
 * where an operation takes one any challenge will do, and for API-key-only operations a missing one
 * is only a warning.
 */
export const authChallengePresent: ResponseCheck = {
  name: 'auth-challenge-present',
  kind: 'response',
  severity: 'error',
  description: 'every 401 carries a WWW-Authenticate challenge for the operation’s scheme',
  inspect(_plan, exchange) {
    if (exchange.response?.status !== 401) return [];
    const header = exchange.response.headers['www-authenticate'];
    // An API key has no registered scheme: where one is accepted, a challenge of any scheme is applicable.
    const wanted = takesApiKey(exchange.operation) ? [] : challengeSchemes(exchange.operation);
    const expected = wanted.length > 0 ? `a challenge for ${wanted.join(' or ')}` : 'a challenge';
    if (header === undefined || challengedSchemes(header).length === 0) {
      return [
        failure(
          this.name,
          challengeSchemes(exchange.operation).length > 0 ? this.severity : 'warning',
          exchange,
          `401 without a WWW-Authenticate challenge`,
          { expected: `WWW-Authenticate: ${expected}`, actual: header === undefined ? '(absent)' : header },
        ),
      ];
    }
    const offered = challengedSchemes(header);
    if (wanted.length === 0 || offered.some((scheme) => wanted.includes(scheme))) return [];
    return [
      failure(
        this.name,
        this.severity,
        exchange,
        `401 challenges for ${offered.join(', ')}, not for ${wanted.join(' or ')}`,
        {
          expected: `WWW-Authenticate: ${expected}`,
          actual: header,
        },
      ),
    ];
  },
};
