/**
 * Answers to requests Node's HTTP parser refuses before any route sees them (fastify's
 * `clientErrorHandler`), as ES bodies instead of fastify's `{"error":"Bad Request",…}`:
 * - a request line and headers past Node's limit: 400 `too_long_frame_exception`, as Netty's
 *   decoder answers one past `http.max_header_size` in ES;
 * - a request not received in full within `http.request_timeout`: 408 `timeout_exception`, then close
 *   (ES has no such deadline and closes an idle read at `http.read_timeout` without an answer);
 * - anything else malformed (bytes HTTP does not allow in the URL or a header, a bad method or
 *   version, a broken chunk): 400 `illegal_argument_exception` with the parser's own reason, as ES
 *   answers a request its decoder failed on. Nothing the client sent is echoed.
 * The connection is closed after the answer, as Node's default does: the parser cannot go on.
 */
import { maxHeaderSize } from 'node:http';
import type { Socket } from 'node:net';
import { EsError } from '../errors/index.js';

type ClientError = Error & { code?: string; reason?: string };
/** Node's own field: the response being written on the connection, if any (Node's default handler reads it too). */
type HttpSocket = Socket & { _httpMessage?: { headersSent: boolean } | null };

function answerOf(err: ClientError): { status: number; line: string; error: EsError } {
  if (err.code === 'HPE_HEADER_OVERFLOW') {
    return { status: 400, line: 'Bad Request', error: new EsError('too_long_frame_exception', `HTTP header is larger than ${maxHeaderSize} bytes.`, 400) };
  }
  if (err.code === 'ERR_HTTP_REQUEST_TIMEOUT') {
    const error = new EsError('timeout_exception', 'the request was not received in full within http.request_timeout', 408);
    return { status: 408, line: 'Request Timeout', error };
  }
  // llhttp's reasons are fixed texts ("Invalid character in URL", "Invalid method encountered").
  const reason = typeof err.reason === 'string' && err.reason.length > 0 && err.reason.length <= 100 ? err.reason : 'malformed HTTP request';
  return { status: 400, line: 'Bad Request', error: new EsError('illegal_argument_exception', `invalid HTTP request: ${reason}`, 400) };
}

/** fastify's `clientErrorHandler`. */
export function esClientError(err: ClientError, socket: HttpSocket): void {
  // A reset connection has nobody to answer.
  if (err.code === 'ECONNRESET' || socket.destroyed) return;
  // As Node's default: no answer in the middle of a response already on its way (a pipelined
  // request's parse error), which would corrupt what the client reads.
  const writing = socket._httpMessage;
  if (socket.writable && (writing === undefined || writing === null || !writing.headersSent)) {
    const { status, line, error } = answerOf(err);
    const body = JSON.stringify(error.toBody());
    socket.write(`HTTP/1.1 ${status} ${line}\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`);
  }
  socket.destroy(err);
}
