/**
 * caplab SIGKILLed: none of its code runs, so only its guard process
 * (platform/guard.ts) can end what it started. On the real program from
 * source, 20 trials in a row each: during a hung hook that forks
 * (`sleep M & sleep M`; MCP and local transport alternate, so the fixture
 * server is in half of them), and during a probe of a server that never
 * answers (the same forking shell, in probe's temp cwd). After the kill,
 * polled with a deadline: no process of theirs (marker sleeps, and every
 * descendant caplab had) and no `caplab-probe-*` folder in the trial's TMPDIR.
 *
 * That the guard sees EOF at all also shows no child holds caplab's end of
 * its pipe: a live sleep holding it would keep the guard waiting, and itself
 * alive. Trials run a few at a time, each with its own TMPDIR and marker.
 */
import { expect, test } from 'bun:test';
import { readdirSync, writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { scratchDir } from '../../test/scratch.ts';
import { killAllWith } from '../platform/testing/find.ts';
import { sigkillTrial, type SigkillTrial, type TrialOutcome } from '../platform/testing/sigkill-trial.ts';

const main = join(import.meta.dir, '../main.ts');
const TRIALS = 20;
/** Trials at once: each runs caplab, its guard, the hook or server (and over MCP the fixture server). */
const AT_ONCE = 4;
let markers = 0;

/** A sleep duration no other process uses (a valid number for sleep), to find exactly one trial's processes. */
const marker = () => `${900 + markers++}.${process.pid}${Math.floor(Math.random() * 1e6)}`;

function hookTrial(n: number): SigkillTrial {
  const dir = scratchDir('caplab-sigkill-');
  const m = marker();
  const settings = { hooks: { PreToolUse: [{ matcher: 'create_card', hooks: [{ type: 'command', command: `sleep ${m} & sleep ${m}`, timeout: 600 }] }] } };
  writeFileSync(join(dir, 'settings.json'), JSON.stringify(settings));
  const transport = n % 2 === 0 ? 'mcp' : 'local';
  const argv = [process.execPath, main, 'demo', '--transport', transport, '--settings', join(dir, 'settings.json'), '--out', join(dir, 'run')];
  return { argv, cwd: dir, tmp: dir, marker: m, markerCount: 2, probeFolder: false };
}

function probeTrial(): SigkillTrial {
  const dir = scratchDir('caplab-sigkill-');
  const m = marker();
  return { argv: [process.execPath, main, 'probe', '--', 'sh', '-c', `sleep ${m} & sleep ${m}`], cwd: dir, tmp: dir, marker: m, markerCount: 2, probeFolder: true };
}

const clean = (n: number) => ({ n, extraFds: [], left: { processes: [], folders: [] } });

/** Runs `TRIALS` trials, `AT_ONCE` at a time, each outcome with its number; stops after the first batch with a failed trial. */
async function trials(make: (n: number) => SigkillTrial): Promise<(TrialOutcome & { readonly n: number })[]> {
  const outcomes: (TrialOutcome & { n: number })[] = [];
  for (let first = 0; first < TRIALS; first += AT_ONCE) {
    const batch = Array.from({ length: Math.min(AT_ONCE, TRIALS - first) }, (_, i) => first + i);
    const done = await Promise.all(batch.map(async (n) => ({ n, ...(await sigkillTrial(make(n))) })));
    outcomes.push(...done);
    if (!done.every((outcome) => Bun.deepEquals(outcome, clean(outcome.n)))) break;
  }
  return outcomes;
}

const adopt = join(import.meta.dir, '../platform/testing/adopt.ts');

/** What a caplab run left behind when it exited, read by a subreaper parent (see adopt.ts). */
async function leftBehind(args: readonly string[], cwd: string) {
  const helper = Bun.spawn([process.execPath, adopt, process.execPath, main, ...args], { cwd, env: { PATH: process.env['PATH'] ?? '/usr/bin:/bin' }, stdout: 'pipe', stderr: 'pipe' });
  const [out, err, code] = await Promise.all([new Response(helper.stdout).text(), new Response(helper.stderr).text(), helper.exited]);
  expect({ code, err }).toEqual({ code: 0, err: '' });
  return JSON.parse(out) as { subreaper: boolean; code: number; stderr: string; adopted: string[] };
}

test('the guard starts with the first child: a local demo without hooks starts none; with one hook, exactly one, alive until caplab ended', async () => {
  const dir = scratchDir('caplab-guard-start-');
  const bare = await leftBehind(['demo', '--transport', 'local', '--out', join(dir, 'bare')], dir);
  expect(bare).toEqual({ subreaper: true, code: 0, stderr: '', adopted: [] });
  // The check can see what it forbids: a hook's run leaves its guard (alive or a zombie) to the subreaper.
  const settings = { hooks: { PreToolUse: [{ matcher: 'create_card', hooks: [{ type: 'command', command: 'true' }] }] } };
  writeFileSync(join(dir, 'settings.json'), JSON.stringify(settings));
  const hooked = await leftBehind(['demo', '--transport', 'local', '--settings', join(dir, 'settings.json'), '--out', join(dir, 'hooked')], dir);
  expect(hooked).toEqual({ subreaper: true, code: 0, stderr: '', adopted: [basename(process.execPath).slice(0, 15)] });
});

test(`SIGKILL during a hung forking hook leaves no process of the run, ${TRIALS} trials in a row (MCP and local alternate)`, async () => {
  const outcomes = await trials(hookTrial);
  for (const outcome of outcomes) expect(outcome).toEqual(clean(outcome.n));
  expect(outcomes.length).toBe(TRIALS);
}, 240_000);

test(`SIGKILL during a probe of a server that never answers leaves no process of it and no caplab-probe-* folder, ${TRIALS} trials in a row`, async () => {
  const outcomes = await trials(probeTrial);
  for (const outcome of outcomes) expect(outcome).toEqual(clean(outcome.n));
  expect(outcomes.length).toBe(TRIALS);
}, 240_000);

/** A SIGKILL the moment probe's temp folder exists; whether the folder is gone afterwards (polled). */
async function killAtFolder(): Promise<{ seen: boolean; left: string[] }> {
  const dir = scratchDir('caplab-sigkill-folder-');
  const m = marker();
  const caplab = Bun.spawn([process.execPath, main, 'probe', '--', 'sh', '-c', `sleep ${m}`], { cwd: dir, env: { PATH: process.env['PATH'] ?? '/usr/bin:/bin', TMPDIR: dir }, stdin: 'ignore', stdout: 'ignore', stderr: 'ignore' });
  const folders = () => readdirSync(dir).filter((name) => name.startsWith('caplab-probe-'));
  try {
    const deadline = performance.now() + 30_000;
    while (folders().length === 0 && caplab.exitCode === null && performance.now() < deadline) await Bun.sleep(0);
    const seen = folders().length > 0;
    caplab.kill('SIGKILL');
    await caplab.exited;
    const gone = performance.now() + 10_000;
    while (folders().length > 0 && performance.now() < gone) await Bun.sleep(10);
    return { seen, left: folders() };
  } finally {
    caplab.kill('SIGKILL');
    killAllWith(m);
  }
}

test('SIGKILL the moment probe’s temp folder appears leaves no folder: it is registered with the guard before it is made, 10 trials', async () => {
  // The audit: with the guard started by the folder's own registration, 8 of 10 such kills left the folder.
  for (let n = 0; n < 10; n++) expect([n, await killAtFolder()]).toEqual([n, { seen: true, left: [] }]);
}, 240_000);
