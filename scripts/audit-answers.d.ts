/** One answer that breaks its document. */
export interface AuditFinding {
  operation: string;
  status: number;
  problem: string;
  url: string;
}

/** What `auditAnswers` found for one document. */
export interface AuditResult {
  file: string;
  operations: number;
  exchanges: number;
  flagged: number;
  unknownIds: number;
  unspecified: number;
  findings: AuditFinding[];
}

/** Serves `file` with kennel, calls each operation with a valid request and judges every answer. */
export function auditAnswers(file: string, options?: { verbose?: boolean }): Promise<AuditResult>;
