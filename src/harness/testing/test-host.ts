import { convertArguments } from '../../binding/index.ts';
import { fixedClock } from '../../ledger/index.ts';
import type { RunOptions } from '../run.ts';

/**
 * The host every harness test runs a task under unless it says otherwise: the
 * clock at the epoch, cwd `/`, no hooks, every call allowed, the real argument
 * conversion. Spread it into `runTask`'s options and override what a test is about.
 */
export function testHost(): Pick<RunOptions, 'clock' | 'cwd' | 'hooks' | 'permission' | 'convert'> {
  return {
    clock: fixedClock(0),
    cwd: '/',
    hooks: [],
    permission: () => ({ decision: 'allow', by: 'default', reason: 'test' }),
    convert: convertArguments,
  };
}
