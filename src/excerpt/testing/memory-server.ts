/**
 * TEST ONLY — the misbehaving server (`misbehave-server.ts`) in this process,
 * behind an in-memory transport: the protocol-level modes without a process.
 */
import { memoryTransportPair, type Transport } from '../../mcp/index.ts';
import { misbehaver, type Mode, type Received } from './misbehave-server.ts';

export interface MemoryServer {
  /** The client's end, to hand to a correlator or a session. */
  readonly transport: Transport<void> & { readonly closed: boolean };
  /** Every message the server read, in order. */
  readonly received: readonly Received[];
  /** What the server wrote to its "stderr". */
  stderr(): string;
  /** Whether the connection is closed (by either side). */
  readonly closed: () => boolean;
}

/** Modes that break the byte stream or the process, not the protocol: they need the stdio transport. */
const STDIO_ONLY = new Set<Mode>(['banner', 'stray', 'bad_utf8', 'trickle', 'oversize', 'ignore_term', 'grandchild', 'setsid_grandchild', 'die_start', 'report', 'deaf', 'ping_flood']);

export function memoryServer(mode: Mode): MemoryServer {
  if (STDIO_ONLY.has(mode)) throw new Error(`misbehave mode ${mode} needs a process (stdio transport)`);
  const [transport, peer] = memoryTransportPair();
  const received: Received[] = [];
  let stderr = '';
  const handle = misbehaver(mode, {
    send: (message) => peer.send({ jsonrpc: '2.0', ...message }),
    // One whole line of JSON text goes through as written; anything finer needs the stdio transport.
    raw: (bytes) => {
      const text = typeof bytes === 'string' ? bytes : new TextDecoder().decode(bytes);
      if (!text.endsWith('\n') || text.indexOf('\n') !== text.length - 1) throw new Error('raw bytes other than one line need the stdio transport');
      peer.sendText(text.slice(0, -1));
    },
    log: (text) => void (stderr += text),
    // A crash: the server is gone mid-message; nothing after it runs.
    exit: () => {
      peer.close();
      throw new Crashed();
    },
    report: () => '{}',
    token: undefined,
  });
  // One message at a time, as the process reads its stdin: the next waits for the last.
  // A cold start (slow_start) reads nothing for 400 ms.
  let queue = mode === 'slow_start' ? Bun.sleep(400) : Promise.resolve();
  peer.onmessage = (message) => {
    received.push(message as Received);
    queue = queue.then(() => handle(message as Received)).catch((error: unknown) => {
      if (!(error instanceof Crashed)) throw error;
    });
  };
  return { transport, received, stderr: () => stderr, closed: () => peer.closed };
}

class Crashed extends Error {}
