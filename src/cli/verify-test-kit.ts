/** Test code only: a real run dir, copies of it, and a forger that re-chains the ledger and re-seals it. */
import { cpSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
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
export async function verifyJson(dir: string, ...args: string[]): Promise<{ code: number; out: string; doc: { verified: boolean; error?: { kind: string; message?: string; at: { file: string } } } & Record<string, unknown> }> {
  const io = testIo('/');
  const code = await cli(['verify', dir, '--json', ...args], io);
  return { code, out: io.out(), doc: JSON.parse(io.out()) };
}

/** The text of the tool's own block of the tool_result answering `toolCallId`, from the request payloads of `dir`. */
function resultText(dir: string, toolCallId: string): string {
  for (const entry of readdirSync(join(dir, 'requests')).filter((name) => name.endsWith('-request.json'))) {
    const messages = JSON.parse(readFileSync(join(dir, 'requests', entry), 'utf8')).messages as { content: unknown }[];
    for (const block of messages.flatMap((m) => (Array.isArray(m.content) ? m.content : [])) as { type: string; tool_use_id?: string; content?: { text?: string }[] }[]) {
      if (block.type === 'tool_result' && block.tool_use_id === toolCallId) return block.content?.[0]?.text ?? '';
    }
  }
  throw new Error(`no tool_result answers ${toolCallId} in ${dir}`);
}

/**
 * A copy of a local demo run dir as a record of an older format (2 or 3)
 * looks: run_start names no task, each call ties its tool's one text block by
 * its text's hash (`model_text_sha256`), and run_end names the format unless
 * it is the base one — the seal names it.
 */
export function asOlderFormat(dir: string, parent: string, format: 'caplab.ledger/2' | 'caplab.ledger/3'): string {
  const copy = copyRun(dir, parent);
  const seal = join(copy, 'ledger.head');
  writeFileSync(seal, `${canonicalJson({ ...JSON.parse(readFileSync(seal, 'utf8')), format })}\n`);
  rechain(copy, (events) =>
    events.map((e) => {
      if (e.type === 'run_start') {
        const { task: _task, ...start } = e;
        return start as Event;
      }
      if (e.type === 'call') {
        const { model_content_sha256: _content, ...call } = e;
        return { ...call, type: 'call', model_text_sha256: sha256Hex(resultText(copy, e['tool_call_id'] as string)) };
      }
      if (e.type !== 'run_end') return e;
      const { format: _format, ...end } = e;
      return format === 'caplab.ledger/2' ? (end as Event) : { ...end, type: 'run_end', format };
    }),
  );
  return copy;
}
