/**
 * An error nothing caught, in the real program during a probe (injected by
 * test/fault-preload.ts, with no guard process to fall back on): caplab runs
 * the cleanups registered — the server's group killed, the temp cwd removed
 * — prints one line, no stack trace, and exits 70.
 */
import { expect, test } from 'bun:test';
import { join } from 'node:path';
import { EXIT } from './exit.ts';
import { probeHostile } from './testing/hostile-run.ts';

const PRELOAD = join(import.meta.dir, '../../test/fault-preload.ts');

test.each(['throw', 'reject'])('an uncaught %s during probe: the server (which outlives SIGTERM) killed, the temp cwd gone, one line, exit 70', async (fault) => {
  const { code, stdout, stderr } = await probeHostile('silent', { bun: ['--preload', PRELOAD], env: { FAULT: fault }, flags: ['--startup-timeout-ms', '600000'] });
  expect(code).toBe(EXIT.internal);
  expect(stdout).toBe('');
  // Only the announcement probe writes before it starts may precede it (it may also be lost at the exit).
  const own = stderr.split('\n').filter((line) => line !== '' && !line.startsWith('caplab probe: starting') && !line.startsWith('  cwd '));
  const error = fault === 'throw' ? 'RangeError: injected fault' : 'Error: injected fault';
  expect(own).toEqual([`caplab: internal error (exit 70): ${error}`]);
});
