/** What a responder answers; the router adds the operation's headers and writes it. */
export interface HttpResponse {
  status: number;
  /** JSON text of the body, already serialized (pets cache theirs), or undefined for none. */
  json?: string;
  /** A non-JSON body (PEM files, plain text), with its content type. */
  text?: string;
  contentType?: string;
  headers?: Record<string, string>;
}

/** The Content-Type of every JSON body kennel writes. */
export const JSON_CONTENT_TYPE = 'application/json; charset=utf-8';
