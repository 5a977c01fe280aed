import { fail, ok, type Failure, type Outcome } from '../../contract/index.ts';
import { refuse } from './basis.ts';
import { decodeText, type InboundMessage } from './messages.ts';

/** A stream that broke while its answer was being read: it may have been sent in part, so the outcome is unknown. */
export function dropped(what: string, why: string): Failure {
  return fail('closed', 'stream_dropped', `${what}: ${why} before its answer; outcome unknown, never re-sent`);
}

/**
 * Reads a response body as it streams and stops at `maxBytes`: a body one
 * byte over is refused protocol/too_large (never read further, whatever its
 * `Content-Length` says), a stream that breaks is closed/stream_dropped.
 */
export async function readBodyBounded(response: Response, maxBytes: number, what: string): Promise<Outcome<Uint8Array>> {
  const reader = response.body?.getReader();
  if (!reader) return ok(new Uint8Array(0));
  const parts: Uint8Array[] = [];
  let total = 0;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      total += value.byteLength;
      if (total > maxBytes) {
        void reader.cancel().catch(() => {});
        return refuse('protocol', 'too_large', `${what}: the JSON body passed ${maxBytes} bytes (httpBodyBytes); not read further`);
      }
      parts.push(value);
    }
  } catch (error) {
    return dropped(what, `the body broke (${error instanceof Error ? error.message : String(error)})`);
  }
  const body = new Uint8Array(total);
  let at = 0;
  for (const part of parts) {
    body.set(part, at);
    at += part.byteLength;
  }
  return ok(body);
}

const decoder = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

/**
 * One JSON text from an HTTP body or an SSE event, read as a stdio line's is
 * (`decodeText`): fatal UTF-8, exactly one JSON-RPC message, no key twice.
 */
export function decodeHttp(bytes: Uint8Array | string, where: string): Outcome<InboundMessage> {
  let text: string;
  try {
    text = typeof bytes === 'string' ? bytes : decoder.decode(bytes);
  } catch {
    return refuse('protocol', 'encoding', `${where} is not valid UTF-8`);
  }
  const decoded = decodeText(text);
  if (decoded.ok || decoded.kind !== 'framing') return decoded;
  return refuse('protocol', 'framing', `${where} is not one JSON text: ${JSON.stringify(text.slice(0, 80))}`);
}

/** The media type of a `Content-Type` value, lower-cased, without parameters. */
export function mediaType(contentType: string | null): string {
  return (contentType ?? '').split(';')[0]!.trim().toLowerCase();
}
