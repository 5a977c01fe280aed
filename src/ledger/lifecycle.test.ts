/**
 * verify's lifecycle and reading rules at the ledger level (issue 11), on the
 * sample run: forged events re-chained and re-sealed, and a file system that
 * fails where a real one could (simulated: tests run as root, where chmod does not stop reads).
 */
import { afterAll, describe, expect, test } from 'bun:test';
import * as nodeFs from 'node:fs';
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { canonicalJson, sha256Hex } from '../contract/index.ts';
import { encodeSeal, GENESIS, LEDGER_FORMAT } from './format.ts';
import type { RunDirFs } from './fs.ts';
import { renderVerifyText } from './render.ts';
import { tempDir, writeSampleRun } from './testing/sample-run.ts';
import { verify } from './verify.ts';

type Event = Record<string, unknown> & { type: string };
const parent = tempDir('caplab-lifecycle-');
afterAll(() => rmSync(parent, { recursive: true, force: true }));
let n = 0;
const sample = () => writeSampleRun(join(parent, `run-${++n}`)).dir;

function forge(dir: string, edit: (events: Event[]) => Event[], format: string = LEDGER_FORMAT): void {
  let prev = GENESIS;
  const events = edit(readFileSync(join(dir, 'ledger.jsonl'), 'utf8').trimEnd().split('\n').map((l) => JSON.parse(l)));
  const lines = events.map((event, seq) => {
    const line = canonicalJson({ ...event, seq, prev });
    prev = sha256Hex(line);
    return `${line}\n`;
  });
  writeFileSync(join(dir, 'ledger.jsonl'), lines.join(''));
  writeFileSync(join(dir, 'ledger.head'), encodeSeal({ count: events.length, format, head: prev }));
}
const kind = (dir: string, fs?: RunDirFs) => {
  const report = verify(dir, fs ? { fs } : {});
  return report.ok ? 'verifies' : `${report.kind}@${report.at.file}${report.at.type ? `:${report.at.type}` : ''}`;
};
/** Drops the acceptance event; run_start vouches for the card instead, so the record still covers every file. */
const withoutAcceptance = (es: Event[]) => {
  const card = es.find((e) => e.type === 'acceptance')!['files'] as object[];
  return es.filter((e) => e.type !== 'acceptance').map((e) => (e.type === 'run_start' ? { ...e, files: [...(e['files'] as object[]), ...card] } : e));
};
// The run_end keeps the format it names (every run's but the base format's names one).
const end = (fields: Record<string, unknown>) => (es: Event[]) => es.map((e) => (e.type === 'run_end' ? { type: 'run_end', at: e['at'], ...(e['format'] ? { format: e['format'] } : {}), ...fields } : e));

describe('lifecycle: one run_start, at most one acceptance, a final run_end consistent with both', () => {
  const cases: [string, (es: Event[]) => Event[], string][] = [
    ['run_end dropped', (es) => es.slice(0, -1), 'missing_event@ledger.jsonl:acceptance'],
    ['run_end not last', (es) => [...es.slice(0, -2), es.at(-1)!, es.at(-2)!], 'misplaced_event@ledger.jsonl:run_end'],
    ['two run_end', (es) => [...es, es.at(-1)!], 'duplicate_event@ledger.jsonl:run_end'],
    ['run_start not first', (es) => [es[1]!, es[0]!, ...es.slice(2)], 'misplaced_event@ledger.jsonl:run_start'],
    ['no run_start', (es) => [{ ...es[0]!, type: 'run_begin' }, ...es.slice(1)], 'missing_event@ledger.jsonl'],
    ['two acceptance', (es) => [...es.slice(0, -1), es.at(-2)!, es.at(-1)!], 'duplicate_event@ledger.jsonl:acceptance'],
    ['completed, but no acceptance', withoutAcceptance, 'inconsistent_end@ledger.jsonl:run_end'],
    ['completed, accepted differs from acceptance', end({ accepted: false, exit_code: 1, ending: 'completed' }), 'inconsistent_end@ledger.jsonl:run_end'],
    ['exit 1 for an accepted run', end({ accepted: true, exit_code: 1, ending: 'completed' }), 'inconsistent_end@ledger.jsonl:run_end'],
    ['failed yet accepted', end({ accepted: true, exit_code: 4, ending: 'failed', cause: 'x' }), 'inconsistent_end@ledger.jsonl:run_end'],
    ['failed without a cause', end({ accepted: false, exit_code: 1, ending: 'failed' }), 'inconsistent_end@ledger.jsonl:run_end'],
    ['run_end of the wrong shape', end({ accepted: 'yes', exit_code: 0, ending: 'completed' }), 'bad_event@ledger.jsonl:run_end'],
    ['exit 143 (SIGTERM) for a run that completed', end({ accepted: false, exit_code: 143, ending: 'completed' }), 'inconsistent_end@ledger.jsonl:run_end'],
    ['exit 130 (SIGINT) for a run that failed', end({ accepted: false, exit_code: 130, ending: 'failed', cause: 'x' }), 'inconsistent_end@ledger.jsonl:run_end'],
    ['an exit code no run ends with', end({ accepted: false, exit_code: 137, ending: 'interrupted', cause: 'SIGKILL' }), 'bad_event@ledger.jsonl:run_end'],
    ['acceptance checks not an array', (es) => es.map((e) => (e.type === 'acceptance' ? { ...e, checks: 3 } : e)), 'bad_event@ledger.jsonl:acceptance'],
  ];
  for (const [name, edit, expected] of cases) {
    test(name, () => {
      const dir = sample();
      forge(dir, edit);
      expect(kind(dir)).toBe(expected);
    });
  }

  test('an interrupted run with its cause verifies and says how it ended; accepted with exit 4 (outcome unknown) is consistent', () => {
    const dir = sample();
    forge(dir, end({ accepted: false, exit_code: 1, ending: 'interrupted', cause: 'SIGINT' }));
    const report = verify(dir);
    expect(report.ok && report.value.end).toEqual({ ending: 'interrupted', accepted: false, exitCode: 1, cause: 'SIGINT' });
    expect(renderVerifyText(report)).toContain('ended   interrupted (SIGINT), not accepted, exit 1');
    for (const [signal, code] of [['SIGINT', 130], ['SIGTERM', 143]] as const) {
      const stopped = sample();
      forge(stopped, end({ accepted: false, exit_code: code, ending: 'interrupted', cause: `${signal}: new work stopped` }));
      expect(kind(stopped)).toBe('verifies');
    }
    const unknown = sample();
    forge(unknown, end({ accepted: true, exit_code: 4, ending: 'completed' }));
    expect(kind(unknown)).toBe('verifies');
  });
});

describe('record format', () => {
  test('the version read is named; an unknown one is refused before any line is read', () => {
    const dir = sample();
    const report = verify(dir);
    expect(report.ok && report.value.format).toBe(LEDGER_FORMAT);
    expect(renderVerifyText(report)).toContain(`format  ${LEDGER_FORMAT}`);
    forge(dir, (es) => es, 'caplab.ledger/1');
    writeFileSync(join(dir, 'ledger.jsonl'), 'not json at all\n');
    expect(kind(dir)).toBe('unknown_format@ledger.head');
  });
});

describe('files that cannot be read (through the fs seam) are named, never thrown', () => {
  const eio = () => Object.assign(new Error('EIO: i/o error'), { code: 'EIO' });
  const failingOn = (suffix: string): RunDirFs => ({
    ...nodeFs,
    openSync: ((path: nodeFs.PathLike, ...rest: unknown[]) => {
      if (String(path).endsWith(suffix)) throw eio();
      return (nodeFs.openSync as (...a: unknown[]) => number)(path, ...rest);
    }) as typeof nodeFs.openSync,
    readFileSync: ((path: nodeFs.PathOrFileDescriptor, ...rest: unknown[]) => {
      if (String(path).endsWith(suffix)) throw eio();
      return (nodeFs.readFileSync as (...a: unknown[]) => unknown)(path, ...rest);
    }) as typeof nodeFs.readFileSync,
  });
  for (const [file, expected] of [
    ['ledger.jsonl', 'unreadable@ledger.jsonl'],
    ['ledger.head', 'unreadable@ledger.head'],
    ['card/excerpt-card.md', 'unreadable@card/excerpt-card.md:acceptance'],
  ] as const) {
    test(file, () => expect(kind(sample(), failingOn(file))).toBe(expected));
  }

  test('a listing or lstat that fails is named too', () => {
    const lstatFails: RunDirFs = { ...nodeFs, lstatSync: ((path: string) => { if (String(path).endsWith('alpha.md')) throw eio(); return nodeFs.lstatSync(path); }) as typeof nodeFs.lstatSync };
    expect(kind(sample(), lstatFails)).toBe('unreadable@snapshot/alpha.md');
  });
});
