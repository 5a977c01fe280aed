/**
 * The checks a release machine runs on a built file, besides its header:
 * a file for this machine's OS and CPU gets test/binary.test.ts with
 * `CAPLAB_BIN` set to it; linux-arm64 on an x64 Linux gets `demo` under
 * Debian's qemu-user-static (`qemu-aarch64-static -L /usr/aarch64-linux-gnu`)
 * when that and libc6-arm64-cross are installed (`--transport local`: over
 * MCP the binary starts its own executable, which under qemu-user is qemu); every other file is only
 * built, and its check says skipped, with why.
 */
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ReleaseTarget } from '../build.ts';
import { expectedHeader } from './headers.ts';
import type { CheckRun } from './manifest.ts';

const QEMU = 'qemu-aarch64-static';
const ARM64_LIBS = '/usr/aarch64-linux-gnu';

async function run(argv: readonly string[], cwd: string, env: Record<string, string | undefined>): Promise<{ code: number; stdout: string; stderr: string }> {
  const child = Bun.spawn([...argv], { cwd, env, stdin: 'ignore', stdout: 'pipe', stderr: 'pipe' });
  const [stdout, stderr, code] = await Promise.all([new Response(child.stdout).text(), new Response(child.stderr).text(), child.exited]);
  return { code, stdout, stderr };
}

/** Whether this machine runs `target`'s files natively. */
export function runsHere(target: ReleaseTarget, platform: string = process.platform, arch: string = process.arch): boolean {
  const want = expectedHeader(target);
  const os = target.split('-')[0] === 'windows' ? 'win32' : target.split('-')[0];
  return os === platform && want.machine === arch;
}

/** test/binary.test.ts on the file: its summary line is the detail. */
async function binaryTests(file: string, root: string): Promise<CheckRun> {
  const result = await run([process.execPath, 'test', '--timeout', '60000', 'test/binary.test.ts'], root, { ...process.env, CAPLAB_BIN: file });
  const summary = `${result.stdout}${result.stderr}`.split('\n').map((l) => l.trim()).filter((l) => /^\d+ (pass|fail)$/.test(l)).join(', ');
  return { check: 'test/binary.test.ts', outcome: result.code === 0 ? 'passed' : 'failed', detail: `CAPLAB_BIN=${file.split('/').at(-1)} bun test: ${summary || `exit ${result.code}`}` };
}

/** `demo --transport local --json` under qemu-user: accepted, or what went wrong. */
async function qemuDemo(file: string): Promise<CheckRun> {
  const check = `demo --transport local under ${QEMU} -L ${ARM64_LIBS}`;
  const found = Bun.which(QEMU);
  if (found === null || !existsSync(ARM64_LIBS)) return { check, outcome: 'skipped', detail: `${QEMU} or ${ARM64_LIBS} is not installed (apt-get install qemu-user-static libc6-arm64-cross)` };
  const cwd = mkdtempSync(join(tmpdir(), 'caplab-release-qemu-'));
  try {
    const result = await run([found, '-L', ARM64_LIBS, file, 'demo', '--transport', 'local', '--json'], cwd, { PATH: '/usr/bin:/bin' });
    let accepted = false;
    try {
      accepted = JSON.parse(result.stdout).accepted === true;
    } catch {
      // Not JSON: a failure, said below.
    }
    // Over MCP the demo spawns its own executable as `serve`, and under qemu-user that path is qemu's: local only.
    if (result.code === 0 && accepted) return { check, outcome: 'passed', detail: 'exit 0, accepted: true (the MCP demo is not run: under qemu-user the binary\'s own path is qemu\'s, so it cannot start itself as serve)' };
    return { check, outcome: 'failed', detail: `exit ${result.code}: ${result.stderr.trim().split('\n')[0] ?? ''}` };
  } finally {
    rmSync(cwd, { recursive: true, force: true });
  }
}

/** Every check this machine runs on `file` (a `target` binary), beyond the header. */
export async function hostChecks(target: ReleaseTarget, file: string, root: string): Promise<readonly CheckRun[]> {
  if (runsHere(target)) {
    const tests = await binaryTests(file, root);
    // A baseline build exists for CPUs without AVX2; run on one with it, that difference goes untested.
    return target.endsWith('-baseline') ? [{ ...tests, detail: `${tests.detail} (on this machine's CPU: what baseline leaves out was not exercised)` }] : [tests];
  }
  if (target === 'linux-arm64' && process.platform === 'linux') return [await qemuDemo(file)];
  return [{ check: 'run', outcome: 'skipped', detail: `only built: a ${target} file does not run on ${process.platform}-${process.arch}` }];
}
