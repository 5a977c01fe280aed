/**
 * TEST ONLY — the hostile server (`hostile-server.ts`) in this process,
 * behind an in-memory transport, for what needs no process: long listings
 * and what probe does between their pages. Modes that send what JSON cannot
 * carry (`1e400`, nesting past the stack) need stdio (`hostile.ts`).
 */
import { memoryTransportPair, type Transport } from '../../wire/index.ts';
import { hostileServer, type HostileMessage, type HostileMode } from './hostile-server.ts';

/** The client's end; `answered` is told each method the server answered, as it answers. */
export function hostileMemory(mode: HostileMode, count: number, answered: (method: string) => void = () => {}): Transport<void> {
  const [transport, peer] = memoryTransportPair();
  const handle = hostileServer(mode, count, (line) => peer.send(JSON.parse(line)), answered);
  peer.onmessage = (message) => handle(message as HostileMessage);
  return transport;
}
