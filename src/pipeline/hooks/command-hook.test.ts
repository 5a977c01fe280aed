import { afterAll, describe, expect, test } from 'bun:test';
import { mkdtempSync, readdirSync, readFileSync, readlinkSync, rmSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { LIMITS } from '../../contract/index.ts';
import type { HookInput, ToolHookInput } from '../hook.ts';
import { commandHook, type CommandHookOptions } from './command-hook.ts';

const FIXTURES = resolve(import.meta.dir, '../../../fixtures/hooks');
const scratch = mkdtempSync(join(tmpdir(), 'caplab-hooks-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

/** The env source the hook's environment is built from; a real process.env is never mutated. */
const PARENT_ENV = {
  PATH: process.env['PATH'] ?? '/usr/bin:/bin',
  HOME: '/home/caplab-test',
  ANTHROPIC_API_KEY: 'sk-ant-secret-should-not-leak',
  AWS_SECRET_ACCESS_KEY: 'aws-secret-should-not-leak',
  GITHUB_TOKEN: 'ghp_secret_should_not_leak',
};

const options: CommandHookOptions = { cwd: FIXTURES, env: PARENT_ENV };

function input(toolName: string, event: ToolHookInput['hook_event_name'] = 'PreToolUse'): HookInput {
  return {
    session_id: 'run-test',
    transcript_path: '/runs/run-test/ledger.jsonl',
    cwd: '/work/somewhere',
    hook_event_name: event,
    tool_name: toolName,
    tool_input: { excerpts: [{ source_id: 'alpha', quote: 'a "quoted" tool_name":"read_source' }] },
    tool_use_id: 'toolu_01',
    ...(event === 'PostToolUse' ? { tool_response: { ok: true } } : {}),
  };
}

function run(command: string, toolName = 'create_card', extra: Partial<CommandHookOptions> = {}, timeoutSec = 10) {
  const hook = commandHook({ event: 'PreToolUse', matcher: '*', command, timeoutSec }, { ...options, ...extra });
  return hook.run(input(toolName), new AbortController().signal);
}

function linkOf(path: string): string | undefined {
  try {
    return readlinkSync(path);
  } catch {
    return undefined;
  }
}

/** A pid is gone when /proc has no entry or only a zombie awaiting its reaper. */
function gone(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2).startsWith('Z');
  } catch {
    return true;
  }
}

/** Polls until `pid` is gone: a SIGKILL is delivered, not awaited, so one look right after it can race the kernel. */
async function goneWithin(pid: number, deadlineMs = 5000): Promise<boolean> {
  const end = Date.now() + deadlineMs;
  while (!gone(pid)) {
    if (Date.now() > end) return false;
    await Bun.sleep(10);
  }
  return true;
}

describe('commandHook with real scripts', () => {
  test('deny-create.sh: exit 2 blocks create_card with stderr as the reason', async () => {
    const result = await run('sh ./deny-create.sh');
    expect(result.exitCode).toBe(2);
    expect(result.block).toBe('deny-create.sh: creating cards is not allowed by this settings file');
    expect(result.hook).toBe('sh ./deny-create.sh');
  });

  test('deny-create.sh: exit 0 and no block for read_source, even with a forged key in tool_input', async () => {
    const result = await run('sh ./deny-create.sh', 'read_source');
    expect(result.exitCode).toBe(0);
    expect(result.block).toBeUndefined();
  });

  test('the hook is given Claude Code field names on stdin', async () => {
    const result = await run('sh ./echo-input.sh');
    expect(JSON.parse(result.block ?? '')).toEqual(input('create_card'));
  });

  for (const decision of ['deny', 'allow', 'ask'] as const) {
    test(`JSON permissionDecision ${decision} is returned with its reason`, async () => {
      const result = await run(`sh ./decide.sh ${decision}`);
      expect(result.exitCode).toBe(0);
      expect(result.permissionDecision).toBe(decision);
      expect(result.reason).toBe(`decide.sh said ${decision}`);
      expect(result.block).toBeUndefined();
    });
  }

  test('rewrite-input.sh returns updatedInput with verbatim fixture quotes', async () => {
    const result = await run('sh ./rewrite-input.sh');
    expect(result.updatedInput).toEqual({
      excerpts: [
        { source_id: 'alpha', quote: 'They cared that the light turned' },
        { source_id: 'beta', quote: 'A tally records what happened, not what was hoped.' },
      ],
    });
    const sources = ['alpha', 'beta'].map((id) => readFileSync(resolve(FIXTURES, `../sources/${id}.md`), 'utf8'));
    const rewritten = result.updatedInput as { excerpts: { quote: string }[] };
    rewritten.excerpts.forEach((excerpt, i) => expect(sources[i]).toContain(excerpt.quote));
    expect(result.permissionDecision).toBeUndefined();
  });

  test('rewrite-input.sh says nothing for other tools', async () => {
    const result = await run('sh ./rewrite-input.sh', 'read_source');
    expect(result).toEqual({ hook: 'sh ./rewrite-input.sh', exitCode: 0 });
  });

  for (const code of [1, 3, 127]) {
    test(`exit ${code} is recorded and does not block`, async () => {
      const result = await run(`sh ./exit-with.sh ${code}`);
      expect(result.exitCode).toBe(code);
      expect(result.block).toBeUndefined();
      expect(result.permissionDecision).toBeUndefined();
      expect(result.stderr).toBe(`exit-with.sh: exiting ${code}\n`);
      expect(result.note).toContain('non-blocking');
    });
  }

  test('a missing executable exits 127: recorded, non-blocking (Claude Code fails open here)', async () => {
    const result = await run('./no-such-script.sh');
    expect(result.exitCode).toBe(127);
    expect(result.block).toBeUndefined();
  });

  test('`sh MISSING` exits 2 under POSIX sh, so it blocks with the shell error as the reason', async () => {
    // Worth knowing when writing settings: `sh ./x.sh` fails closed if x.sh is missing.
    const result = await run('sh ./no-such-script.sh');
    expect(result.exitCode).toBe(2);
    expect(result.block).toContain('no-such-script.sh');
  });

  test('timeout kills the whole process group: the background child does not survive', async () => {
    const pidFile = join(scratch, 'hang.pid');
    const result = await run(`sh ./hang.sh ${pidFile}`, 'create_card', {}, 0.3);
    expect(result.timedOut).toBe(true);
    expect(result.exitCode).toBeUndefined();
    expect(result.block).toBeUndefined();
    expect(result.note).toContain('timed out');
    const child = Number(readFileSync(pidFile, 'utf8').trim());
    expect(child).toBeGreaterThan(0);
    expect(await goneWithin(child)).toBe(true);
  });

  test('a hook that exits ends its group with it: a background child does not outlive it', async () => {
    const result = await run('sleep 30 </dev/null >/dev/null 2>&1 & echo $!');
    const child = Number(result.stdout?.trim());
    try {
      expect(result.exitCode).toBe(0);
      expect(child).toBeGreaterThan(0);
      expect(await goneWithin(child)).toBe(true);
    } finally {
      if (child > 0 && !gone(child)) process.kill(child, 'SIGKILL');
    }
  });

  test('abort kills the process group and is recorded; the hook inherits only fds 0-2', async () => {
    // A FIFO tells the test, without polling, that the script has started its child.
    const fifo = join(scratch, 'abort.fifo');
    expect(Bun.spawnSync(['mkfifo', fifo]).exitCode).toBe(0);
    const controller = new AbortController();
    const hook = commandHook({ event: 'PreToolUse', matcher: '*', command: `sh ./hang.sh ${fifo}`, timeoutSec: 60 }, options);
    const pending = hook.run(input('create_card'), controller.signal);
    let child = 0;
    try {
      child = Number((await readFile(fifo, 'utf8')).trim());
      // The shell writes the pid right after fork, while the child still sets up
      // its fds (sh points a background job's stdin at /dev/null: close, then open;
      // exec closes close-on-exec fds a moment after the program name changes).
      // What the host passed stays for the child's life, so poll with a deadline
      // until only 0–2 (and the shell's own script) remain: a leaked host fd never
      // goes away and fails this.
      const foreign = () => {
        const fds = readdirSync(`/proc/${child}/fd`);
        const extra = fds.filter((fd) => !['0', '1', '2'].includes(fd)).map((fd) => linkOf(`/proc/${child}/fd/${fd}`));
        // `undefined`: the fd closed between listing and reading it.
        return [...['0', '1', '2'].filter((fd) => !fds.includes(fd)).map((fd) => `missing ${fd}`), ...extra.filter((t) => t !== undefined && t !== join(FIXTURES, 'hang.sh'))];
      };
      const comm = () => {
        try {
          return readFileSync(`/proc/${child}/comm`, 'utf8').trim();
        } catch {
          return 'gone';
        }
      };
      const deadline = Date.now() + 5000;
      // First the exec (stdin is set up before it), then the close-on-exec fds going away.
      while (comm() !== 'sleep' && comm() !== 'gone' && Date.now() < deadline) await Bun.sleep(5);
      while (foreign().length > 0 && Date.now() < deadline) await Bun.sleep(5);
      expect(foreign()).toEqual([]);
    } finally {
      // Also when a check above failed: the hook and its background sleep must not outlive the test.
      controller.abort();
    }
    const result = await pending;
    expect(result.note).toContain('aborted');
    expect(result.timedOut).toBeUndefined();
    expect(await goneWithin(child)).toBe(true);
  });

  test('environment is allowlisted: no secrets, PATH/HOME/CLAUDE_PROJECT_DIR present', async () => {
    const result = await run('sh ./print-env.sh');
    const env = result.stdout ?? '';
    expect(env).not.toContain('secret');
    expect(env).not.toContain('ANTHROPIC_API_KEY');
    expect(env).not.toContain('AWS_SECRET_ACCESS_KEY');
    expect(env).not.toContain('GITHUB_TOKEN');
    // Each value the hook was given is recorded only as a marker naming its variable (see the next test).
    expect(env).toContain('HOME=[redacted:HOME]\n');
    expect(env).toContain('PATH=[redacted:PATH]\n');
    expect(env).toContain('CLAUDE_PROJECT_DIR=[redacted:CLAUDE_PROJECT_DIR]\n');
    expect(result.note).toBe('non-JSON stdout recorded');
  });

  test('a value caplab placed in the hook env is redacted from every recorded field: stdout, stderr, the block reason', async () => {
    const home = '/home/caplab-secret-user';
    const env = { ...PARENT_ENV, HOME: home };
    const said = await run(`echo "home is $HOME"; echo "also $HOME" >&2`, 'create_card', { env });
    expect([said.stdout, said.stderr]).toEqual(['home is [redacted:HOME]\n', 'also [redacted:HOME]\n']);
    const blocked = await run(`echo "no: $HOME/x" >&2; exit 2`, 'create_card', { env });
    expect(blocked.block).toBe('no: [redacted:HOME]/x');
    // Cut at the capture limit in the middle of the value: the part before the cut is dropped too.
    const cut = await run(`printf 'xxxxxxxxxx%s' "$HOME"`, 'create_card', { env, captureLimit: 18 });
    expect(cut.stdout).toBe('xxxxxxxxxx……[truncated]');
    expect(JSON.stringify([said, blocked, cut])).not.toContain('caplab-secret-user');
    // Short values are not redacted: a value 1 must not blank every digit.
    const short = await run(`echo "lang=$LANG 1 2 3"`, 'create_card', { env: { ...env, LANG: 'C' } });
    expect(short.stdout).toBe('lang=C 1 2 3\n');
  });

  test('output capture is bounded and marked', async () => {
    const result = await run('sh ./flood.sh', 'create_card', { captureLimit: 1024 });
    expect(result.exitCode).toBe(0);
    expect(result.stdout?.endsWith('…[truncated]')).toBe(true);
    expect(new TextEncoder().encode(result.stdout).byteLength).toBe(1024 + new TextEncoder().encode('…[truncated]').byteLength);
  });

  test('a hook printing 50 MB keeps LIMITS.hookOutputBytes of each stream, marked, and still exits 0', async () => {
    const flood = 'cat >/dev/null; head -c 50000000 /dev/zero | tr "\\0" o; head -c 1000000 /dev/zero | tr "\\0" e >&2';
    const result = await run(flood);
    expect(result.exitCode).toBe(0);
    const mark = '…[truncated]';
    expect(result.stdout).toBe('o'.repeat(LIMITS.hookOutputBytes) + mark);
    expect(result.stderr).toBe('e'.repeat(LIMITS.hookOutputBytes) + mark);
    // A generous budget for a shared machine, not a speed claim.
  }, 30_000);

  test('a hook that cannot start is recorded, non-blocking', async () => {
    const result = await run('true', 'create_card', { cwd: join(scratch, 'missing-dir') });
    expect(result.block).toBeUndefined();
    expect(result.note).toContain('could not start');
  });

  test('an already aborted signal never starts the hook', async () => {
    const controller = new AbortController();
    controller.abort();
    const hook = commandHook({ event: 'PreToolUse', matcher: '*', command: 'sh ./deny-create.sh' }, options);
    const result = await hook.run(input('create_card'), controller.signal);
    expect(result.block).toBeUndefined();
    expect(result.note).toBe('aborted before start');
  });
});

test("the engine's deadline for a command hook lies past its own timeout and pipe drain, so the hook's own kill and report come first", () => {
  for (const timeoutSec of [1, 60, 600]) {
    const hook = commandHook({ event: 'PreToolUse', matcher: '*', command: 'true', timeoutSec }, { ...options, drainGraceMs: 250 });
    expect((hook.timeoutMs ?? 0) - timeoutSec * 1000 - 250).toBeGreaterThan(0);
  }
});
