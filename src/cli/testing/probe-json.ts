/** Test code only: `caplab probe --json` in process, from the repo root with a plain PATH. */
import { cli } from '../cli.ts';
import { testIo } from '../test-io.ts';
import { ROOT } from './serve-http.ts';

/** `caplab probe --json` with these arguments: its exit code and its one JSON report. */
export async function probeJson(args: readonly string[]): Promise<{ code: number; report: Record<string, any> }> {
  const io = testIo(ROOT, { PATH: '/usr/bin:/bin' });
  const code = await cli(['probe', '--json', ...args], io);
  return { code, report: JSON.parse(io.out()) as Record<string, any> };
}
