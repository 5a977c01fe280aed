/**
 * TEST ONLY — run as `bun escape.ts MARKER SUBREAPER(0|1)`. Starts a tracked
 * child that stays (`sleep MARKER1`) and a shell whose background child
 * leaves its session (`setsid sleep MARKER2`) and outlives it, then sweeps
 * and prints the report as one JSON line. Never imported by shipped code.
 */
import { becomeSubreaper, reapOrphans, trackChild } from '../index.ts';
import { setsidSleep } from './find.ts';

const [marker = '0', subreaper = '1'] = process.argv.slice(2);
const became = subreaper === '1' ? becomeSubreaper() : undefined;
const kept = Bun.spawn(['sleep', `${marker}1`], { stdio: ['ignore', 'ignore', 'ignore'], detached: true });
trackChild(kept.pid, kept.exited);
// The shell waits until the escaped child runs sleep in its own session (setsid, then exec), then exits.
const shell = Bun.spawn(['sh', '-c', setsidSleep(`${marker}2`)], { stdio: ['ignore', 'ignore', 'ignore'] });
trackChild(shell.pid, shell.exited);
await shell.exited;
const report = await reapOrphans({ termMs: 1000, killMs: 1000 });
const keptAlive = kept.exitCode === null;
kept.kill('SIGKILL');
await kept.exited;
process.stdout.write(`${JSON.stringify({ became, report, keptAlive })}\n`);
