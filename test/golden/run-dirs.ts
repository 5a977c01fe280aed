/**
 * The run dirs `demo` (both transports) and `check` write for a fixed run id
 * and SOURCE_DATE_EPOCH, as a map of file → sha256. The expected map is
 * committed (`expected.json`); a refactor that claims to change no behaviour
 * must reproduce it byte for byte. `bun test/golden/write.ts` rewrites it
 * after a change that is meant to alter what a run records (say why in the
 * commit).
 *
 * The fixture server is launched through `/bin/sh` with the Bun executable and
 * the source entry passed by environment: the recorded launch (command, cwd,
 * env names) is then the same in every checkout, so the hashes do not depend
 * on where the repository lives. Values of launch env names are never recorded.
 */
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { checkCommand } from '../../src/cli/check-command.ts';
import { parseRunFlags, runCommand } from '../../src/cli/run-command.ts';
import { testIo } from '../../src/cli/test-io.ts';
import { excerptCli } from '../../src/cli/testing/excerpt-cli.ts';
import { DEV_SERVE_ENTRY } from '../../src/cli/tasks.ts';
import { excerptTaskOverMcp } from '../../src/excerpt/index.ts';

export const GOLDEN_EPOCH = '1700000000';

const LAUNCH = {
  command: ['/bin/sh', '-c', 'exec "$CAPLAB_GOLDEN_BUN" "$CAPLAB_GOLDEN_ENTRY" serve'],
  cwd: '/',
  env: { CAPLAB_GOLDEN_BUN: process.execPath, CAPLAB_GOLDEN_ENTRY: DEV_SERVE_ENTRY[0]! },
};

export type Hashes = Record<string, string>;

function hashTree(dir: string): Hashes {
  const out: Hashes = {};
  const files = readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => join(entry.parentPath, entry.name).slice(dir.length + 1))
    .sort();
  for (const file of files) out[file] = createHash('sha256').update(readFileSync(join(dir, file))).digest('hex');
  return out;
}

/** Runs demo (local, mcp) and check in `cwd`; returns each command's exit code and the hashes of everything it wrote. */
export async function goldenRuns(cwd: string): Promise<Record<string, { readonly exit: number; readonly files: Hashes }>> {
  const io = () => ({ ...testIo(cwd), env: { SOURCE_DATE_EPOCH: GOLDEN_EPOCH, PATH: process.env['PATH'] ?? '/usr/bin:/bin' } });
  const task = () => excerptCli(excerptTaskOverMcp({ envSource: { SOURCE_DATE_EPOCH: GOLDEN_EPOCH }, launch: LAUNCH }));
  const out: Record<string, { exit: number; files: Hashes }> = {};
  for (const transport of ['local', 'mcp']) {
    const id = `golden-demo-${transport}`;
    const parsed = parseRunFlags(['--transport', transport, '--run-id', id, '--json'], 'demo', task());
    if (!parsed.ok) throw new Error(parsed.message);
    const flags = parsed.value;
    const exit = await runCommand(flags, io(), task());
    out[`demo --transport ${transport}`] = { exit, files: hashTree(join(cwd, 'caplab-runs', id)) };
  }
  const exit = await checkCommand(['--run-id', 'golden-check', '--json', '--out', 'check'], io(), task());
  out['check'] = { exit, files: hashTree(join(cwd, 'check')) };
  return out;
}

export const EXPECTED_PATH = new URL('./expected.json', import.meta.url).pathname;
