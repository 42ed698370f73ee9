/** One answer that breaks its document. */
export interface AuditFinding {
  operation: string;
  status: number;
  problem: string;
  url: string;
  /** The `Prefer` header the request carried, if any. */
  prefer?: string;
}

/** What `auditAnswers` found for one document. */
export interface AuditResult {
  file: string;
  operations: number;
  exchanges: number;
  flagged: number;
  unknownIds: number;
  unspecified: number;
  /** 409s for a create sent twice with a key the client chooses, where the document gives no 409. */
  taken: number;
  /** `Prefer: code=2xx` answered 404, 409 or 422 because the state says so (a made-up id). */
  stateDecided: number;
  /** Items a list showed that their read answered 404 (a list of examples, an item kept nowhere). */
  listedNotFound: number;
  findings: AuditFinding[];
}

/** Serves `file` with kennel, calls each operation with a valid request and judges every answer. */
export function auditAnswers(file: string, options?: { verbose?: boolean }): Promise<AuditResult>;
