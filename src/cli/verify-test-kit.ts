/** Test code only: a real run dir, copies of it, and a forger that re-chains the ledger and re-seals it. */
import { cpSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { canonicalJson, sha256Hex } from '../contract/index.ts';
import { GENESIS } from '../ledger/index.ts';
import { cli } from './cli.ts';
import { testIo } from './test-io.ts';

export type Event = Record<string, unknown> & { type: string };

/** Runs `caplab demo` (local transport) inside `parent` and returns the run dir. */
export async function demoRunDir(parent: string): Promise<string> {
  const io = testIo(mkdtempSync(join(parent, 'demo-')));
  const code = await cli(['demo', '--transport', 'local', '--json', '--run-id', 'v'], io);
  if (code !== 0) throw new Error(`demo exited ${code}: ${io.err()}`);
  return JSON.parse(io.out()).run_dir;
}

/** A fresh copy of a run dir inside `parent`. */
export function copyRun(dir: string, parent: string): string {
  const copy = join(mkdtempSync(join(parent, 'copy-')), 'run');
  cpSync(dir, copy, { recursive: true });
  return copy;
}

export function readEvents(dir: string): Event[] {
  return readFileSync(join(dir, 'ledger.jsonl'), 'utf8').trimEnd().split('\n').map((line) => JSON.parse(line));
}

/** The sha256/bytes of a file as a ledger reference would record them. */
export function refOf(dir: string, path: string): { sha256: string; bytes: number } {
  const bytes = readFileSync(join(dir, path));
  return { sha256: sha256Hex(bytes), bytes: bytes.byteLength };
}

/**
 * Rewrites the ledger from edited events as a careful forger would: canonical
 * lines, seq and prev recomputed, the seal recomputed (same format). Returns the new head.
 */
export function rechain(dir: string, edit: (events: Event[]) => Event[]): string {
  const format = JSON.parse(readFileSync(join(dir, 'ledger.head'), 'utf8')).format;
  let prev = GENESIS;
  let text = '';
  const events = edit(readEvents(dir));
  for (const [seq, event] of events.entries()) {
    const line = canonicalJson({ ...event, seq, prev });
    prev = sha256Hex(line);
    text += `${line}\n`;
  }
  writeFileSync(join(dir, 'ledger.jsonl'), text);
  writeFileSync(join(dir, 'ledger.head'), `${canonicalJson({ count: events.length, format, head: prev })}\n`);
  return prev;
}

/** `caplab verify DIR --json ARGS…`: exit code, the raw output and the one JSON document it must be. */
export async function verifyJson(dir: string, ...args: string[]): Promise<{ code: number; out: string; doc: { verified: boolean; error?: { kind: string; at: { file: string } } } & Record<string, unknown> }> {
  const io = testIo('/');
  const code = await cli(['verify', dir, '--json', ...args], io);
  return { code, out: io.out(), doc: JSON.parse(io.out()) };
}
