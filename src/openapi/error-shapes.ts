import { isJsonMediaType, type Operation, type OperationResponse } from './operations.js';

/**
 * The responses whose body is an operation's error shape: its documented 4xx with a JSON body,
 * then its 5xx. An API writes every failure in one shape, so a 401 it forgot to document still
 * looks like its 404: the mock borrows these for a status the operation does not list, and the
 * checker accepts them there.
 */
export function errorShapesOf(operation: Operation): OperationResponse[] {
  const withJson = (response: OperationResponse) =>
    response.content.some((media) => isJsonMediaType(media.mediaType) && media.schema !== undefined);
  const inRange = (digit: string) =>
    operation.responses.filter((response) => response.status.startsWith(digit) && withJson(response));
  return [...inRange('4'), ...inRange('5')];
}
