/**
 * TEST ONLY — runs `caplab run --mcp-config` in-process against hostile
 * stdio servers (`hostile-configured.ts`, one process per entry) and holds
 * the run to what every hostile case must keep: no server process left, no
 * `caplab-server-*` cwd left in the temp folder, and a run dir (when one was
 * made) that `caplab verify` accepts. Each entry gets `HOSTILE_SECRET` in its
 * env, for the redaction checks.
 */
import { expect } from 'bun:test';
import { existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { scratchDir } from '../../../test/scratch.ts';
import { until } from '../../../test/until.ts';
import { isRunning } from '../../mcp/wire/testing/processes.ts';
import { cli } from '../cli.ts';
import { testIo } from '../test-io.ts';
import type { ConfiguredHostileMode } from './hostile-configured-cases.ts';

export const HOSTILE_SERVER = join(import.meta.dir, 'hostile-configured.ts');
/** The value every entry's env carries as HOSTILE_SECRET: nothing caplab writes may hold it. */
export const SECRET = 'hostile-secret-5f1c2e9a';

/** A config entry: its mode, and the mode's argument. */
export type HostileEntry = ConfiguredHostileMode | readonly [ConfiguredHostileMode, string];

/** One tool call of the scenario: its id (after `toolu_`), the model's name of the tool, the arguments. */
export type ScriptedCall = readonly [id: string, name: string, args: unknown];

export interface HostileConfiguredRun {
  readonly code: number;
  readonly stdout: string;
  readonly stderr: string;
  /** The run dir, whether or not the run made one. */
  readonly runDir: string;
  /** The ledger's events (empty without a run dir). */
  readonly events: readonly Record<string, any>[];
  /** The pids the servers wrote (each server, and what it started). */
  readonly pids: readonly number[];
}

/** The pids the servers announced. */
function announced(file: string): number[] {
  return existsSync(file) ? readFileSync(file, 'utf8').trim().split('\n').filter(Boolean).map(Number) : [];
}

function scenario(calls: readonly ScriptedCall[]): Record<string, unknown> {
  const usage = { input_tokens: 1, output_tokens: 1 };
  const uses = calls.length > 0 ? [{ tool_calls: calls.map(([id, name, args]) => ({ id: `toolu_${id}`, name, arguments: args })), usage }] : [];
  return { name: 'hostile-configured', description: 'Calls hostile servers\' tools, then ends.', expect: { accepted: false, card: false }, responses: [...uses, { text: 'Done.', usage }] };
}

/**
 * Runs one scenario with the given servers (key → mode) and checks the
 * invariants above. `--json` unless `text` is set; `--yes` answers every
 * `ask`, `--transport local` leaves the task's own fixture server out.
 * `program` runs the real program instead, as a child (its own temp
 * folder; on Linux a child subreaper, which finds what left the server's
 * process group). A run shared by several tests is made in a `dir` of the file's (a scratch
 * folder made in `beforeAll` would be removed after its first test).
 */
export async function hostileConfiguredRun(servers: Readonly<Record<string, HostileEntry>>, calls: readonly ScriptedCall[], options: { readonly flags?: readonly string[]; readonly text?: boolean; readonly dir?: string; readonly program?: boolean } = {}): Promise<HostileConfiguredRun> {
  const dir = options.dir ?? scratchDir('caplab-chostile-');
  const pidsFile = join(dir, 'pids');
  const mcpServers = Object.fromEntries(Object.entries(servers).map(([key, entry]) => {
    const [mode, arg] = typeof entry === 'string' ? [entry] : entry;
    return [key, { command: process.execPath, args: [HOSTILE_SERVER, mode, ...(arg !== undefined ? [arg] : [])], env: { HOSTILE_PIDS: pidsFile, HOSTILE_SECRET: SECRET } }];
  }));
  writeFileSync(join(dir, 'servers.json'), JSON.stringify({ mcpServers }));
  writeFileSync(join(dir, 'scenario.json'), JSON.stringify(scenario(calls)));
  const runDir = join(dir, 'run');
  const argv = ['run', '--mcp-config', join(dir, 'servers.json'), '--scenario', join(dir, 'scenario.json'), '--transport', 'local', '--run-id', 'hostile', '--out', runDir, '--yes', ...(options.text ? [] : ['--json']), ...(options.flags ?? [])];
  const ran = options.program ? await program(argv, dir) : await inProcess(argv, dir);

  const pids = announced(pidsFile);
  await until(() => pids.every((pid) => !isRunning(pid)));
  const left = readdirSync(ran.tmp).filter((name) => name.startsWith('caplab-server-'));
  expect({ started: pids.length > 0, alive: pids.filter(isRunning), left }).toEqual({ started: true, alive: [], left: [] });
  const ledger = join(runDir, 'ledger.jsonl');
  const events = existsSync(ledger) ? readFileSync(ledger, 'utf8').trim().split('\n').map((line) => JSON.parse(line) as Record<string, any>) : [];
  if (events.length > 0) {
    const verified = testIo(dir);
    expect({ verify: await cli(['verify', runDir], verified), out: verified.err() }).toEqual({ verify: 0, out: '' });
  }
  return { code: ran.code, stdout: ran.stdout, stderr: ran.stderr, runDir, events, pids };
}

const MAIN = join(import.meta.dir, '../../main.ts');

type Ran = { readonly code: number; readonly stdout: string; readonly stderr: string; readonly tmp: string };

/** `cli(argv)` in this process: its servers' cwds are made in this process's temp folder. */
async function inProcess(argv: readonly string[], dir: string): Promise<Ran> {
  const io = testIo(dir, { PATH: process.env['PATH'] ?? '/usr/bin:/bin' });
  const code = await cli(argv, io);
  return { code, stdout: io.out(), stderr: io.err(), tmp: tmpdir() };
}

/** The real program (`bun src/main.ts`, a child subreaper on Linux) with a temp folder of its own. */
async function program(argv: readonly string[], dir: string): Promise<Ran> {
  const tmp = join(dir, 'tmp');
  mkdirSync(tmp);
  const child = Bun.spawn([process.execPath, MAIN, ...argv], { cwd: dir, env: { PATH: process.env['PATH'] ?? '/usr/bin:/bin', TMPDIR: tmp }, stdin: 'ignore', stdout: 'pipe', stderr: 'pipe' });
  const [stdout, stderr, code] = await Promise.all([new Response(child.stdout).text(), new Response(child.stderr).text(), child.exited]);
  return { code, stdout, stderr, tmp };
}

/** Every file under a folder, as text (the run dir is small and made by the run). */
export function filesUnder(dir: string): { readonly path: string; readonly text: string }[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .map((name) => join(dir, name))
    .filter((path) => statSync(path).isFile())
    .map((path) => ({ path, text: readFileSync(path, 'utf8') }));
}
