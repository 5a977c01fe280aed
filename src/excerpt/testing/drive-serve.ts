import { PassThrough, Writable } from 'node:stream';
import { serve } from '../server/index.ts';
import type { Snapshot } from '../snapshot.ts';

/** What an in-process `serve()` said on each stream, and how it ended. */
export interface Driven {
  readonly code: number;
  /** stdout split into lines, each parsed as JSON. */
  readonly answers: Record<string, unknown>[];
  /** stdout split into lines, as written (without the `\n`). */
  readonly lines: string[];
  /** stderr split into lines, the ready line and the exit line included. */
  readonly notes: string[];
}

/**
 * Runs `serve()` on in-memory streams: writes `input` (text or raw bytes) to
 * its stdin, ends stdin, and collects everything it wrote.
 */
export async function driveServe(input: string | Uint8Array, snapshot?: Snapshot): Promise<Driven> {
  const stdin = new PassThrough();
  const out: Buffer[] = [];
  const err: Buffer[] = [];
  const sink = (into: Buffer[]) =>
    new Writable({
      write(chunk: Buffer, _encoding, callback) {
        into.push(Buffer.from(chunk));
        callback();
      },
    });
  const exit = serve({ stdin, stdout: sink(out), stderr: sink(err), ...(snapshot ? { snapshot } : {}) });
  stdin.end(typeof input === 'string' ? Buffer.from(input) : Buffer.from(input));
  const code = await exit;
  const lines = (chunks: Buffer[]) => Buffer.concat(chunks).toString('utf8').split('\n').slice(0, -1);
  const written = lines(out);
  return { code, answers: written.map((line) => JSON.parse(line) as Record<string, unknown>), lines: written, notes: lines(err) };
}
