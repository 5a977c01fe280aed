import * as nodeFs from 'node:fs';
import { basename, dirname, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { inert } from '../base/index.ts';
import { fail, isSchemaValidator, LIMITS, type Failure } from '../contract/index.ts';
import { startConfigured } from './configured.ts';
import { EXIT, exitCodeOf, interrupted } from './exit.ts';
import { repeatedFlag } from './flags.ts';
import type { Io } from './io.ts';
import { enclosingRunDir, lstatOrUndefined, realPathOf, statOrUndefined, tempBeside, unwritablePlace, usageFailure } from './paths.ts';
import { SERVER_OPTIONS, serverFlags } from './server-flags.ts';
import { starterName, starterScenario, type StarterTool } from './starter.ts';

const OPTIONS = {
  'mcp-config': SERVER_OPTIONS['mcp-config'],
  server: { type: 'string', multiple: true },
  out: { type: 'string' },
  'startup-timeout-ms': SERVER_OPTIONS['startup-timeout-ms'],
  'timeout-ms': SERVER_OPTIONS['timeout-ms'],
  help: { type: 'boolean', short: 'h' },
} as const;

/** What `scenario new` was asked for. */
interface NewFlags {
  readonly mcpConfig: string;
  /** `--server KEY`s as given; none: every stdio and http entry of the config. */
  readonly servers: readonly string[];
  /** `--out`, absolute. */
  readonly out: string;
  readonly startupTimeoutMs: number;
  readonly timeoutMs: number;
}

const usage = (io: Io, message: string): number => (io.stderr(`caplab scenario new: ${message}\nSee \`caplab scenario --help\`.\n`), EXIT.usage);
const refused = (io: Io, failure: Failure, code: number): number => (io.stderr(`caplab scenario new: ${failure.class}/${failure.kind}: ${inert(failure.message)}\n`), code);

/** `caplab scenario <sub>`: only `new` so far; anything else is a usage error. */
export async function scenarioCommand(args: readonly string[], io: Io): Promise<number> {
  const [sub, ...rest] = args;
  if (sub !== 'new') {
    io.stderr(`caplab scenario: ${sub === undefined ? 'needs a subcommand: new' : `unknown subcommand ${JSON.stringify(sub)} (known: new)`}\nSee \`caplab scenario --help\`.\n`);
    return EXIT.usage;
  }
  return scenarioNew(rest, io);
}

function parseNewFlags(args: readonly string[], io: Io): NewFlags | string {
  let values;
  try {
    values = parseArgs({ args: [...args], options: OPTIONS, strict: true, allowPositionals: false }).values;
  } catch (error) {
    return (error as Error).message;
  }
  const repeated = repeatedFlag(args, OPTIONS);
  if (repeated) return repeated;
  if (values['mcp-config'] === undefined) return 'needs --mcp-config FILE: the servers to write a starter for';
  if (values.out === undefined || values.out === '') return 'needs --out FILE: where the starter goes (a file that does not exist yet)';
  const servers = values.server ?? [];
  if (servers.includes('')) return '--server needs a server key';
  const flags = serverFlags({ ...values, 'require-server': servers });
  if (!flags.ok) return flags.message;
  return { mcpConfig: flags.value.mcpConfig!, servers: flags.value.requireServers, out: resolve(io.cwd, values.out), startupTimeoutMs: flags.value.startupTimeoutMs, timeoutMs: flags.value.timeoutMs };
}

/**
 * `caplab scenario new --mcp-config FILE [--server KEY]… --out FILE`: starts
 * the servers (each chosen one required), reads what they list, closes them
 * and writes a starter scenario (`starterScenario`) to `--out`, which must not
 * exist. It calls no tool. The file appears whole or not at all.
 */
export async function scenarioNew(args: readonly string[], io: Io): Promise<number> {
  const flags = parseNewFlags(args, io);
  if (typeof flags === 'string') return usage(io, flags);
  const target = checkTarget(flags.out);
  if (target) return refused(io, target, EXIT.usage);
  const listed = await listTools(flags, io);
  if (typeof listed === 'number') return listed;
  const name = starterName(basename(flags.out));
  const starter = starterScenario({ name, servers: listed.servers, tools: listed.tools });
  const text = `${JSON.stringify(starter, null, 2)}\n`;
  const bytes = new TextEncoder().encode(text);
  // `run` reads at most LIMITS.scenarioBytes of a scenario: a starter past it would be refused.
  if (bytes.byteLength > LIMITS.scenarioBytes) return refused(io, fail('business', 'write_failed', `the starter would be ${bytes.byteLength} bytes, past LIMITS.scenarioBytes (${LIMITS.scenarioBytes}); name fewer servers with --server`), EXIT.io);
  const written = writeNew(flags.out, bytes);
  if (written) return refused(io, written, written.kind === 'target_exists' ? EXIT.usage : EXIT.io);
  const calls = starter.expect.end.calls;
  io.stdout(`wrote ${flags.out}: ${calls} scripted call${calls === 1 ? '' : 's'} to ${listed.servers.join(', ')}; the tools left out are named in its description\n`);
  return EXIT.ok;
}

/** The chosen servers' keys and every tool they listed; or the exit code when they could not be read. */
async function listTools(flags: NewFlags, io: Io): Promise<{ readonly servers: readonly string[]; readonly tools: readonly StarterTool[] } | number> {
  // With --server just those start, each required; without, every stdio and http server starts and each is required below.
  const only = flags.servers.length > 0 ? { only: { keys: flags.servers, by: '--server' } } : {};
  const started = await startConfigured({ mcpConfig: flags.mcpConfig, requireServers: [], startupTimeoutMs: flags.startupTimeoutMs, timeoutMs: flags.timeoutMs, ...only }, false, io, 'scenario-new');
  if (!started.ok) return 'usage' in started.refusal ? refused(io, started.refusal.usage, EXIT.usage) : refused(io, started.refusal.required, EXIT.protocol);
  const { servers, notices } = started.value;
  await servers.close();
  if (io.interrupt?.aborted) {
    io.stderr(`caplab: interrupted by ${String(io.interrupt.reason)}\n`);
    return exitCodeOf(interrupted(io.interrupt));
  }
  const chosen = servers.starts;
  if (chosen.length === 0) return refused(io, fail('invalid_arguments', 'unknown_server', `${flags.mcpConfig} has no stdio or http server to write a starter for`), EXIT.usage);
  const failed = chosen.filter((start) => start.status === 'failed').map((start) => `${start.key}: ${start.failure!.class}/${start.failure!.kind}: ${start.failure!.message}`);
  if (failed.length > 0) return refused(io, fail('spawn', 'required_server', `a server did not start: ${failed.join('; ')}`), EXIT.protocol);
  for (const notice of notices) io.stderr(`caplab: ${inert(notice)}\n`);
  const offers = new Map(servers.provider.offers.map((offer) => [offer.binding.tool, offer]));
  const tools = chosen.flatMap((start) => start.tools.map((record): StarterTool => {
    if (record.status === 'unbound') return { status: 'unbound', server: start.key, name: record.name, failure: record.failure };
    const { contract } = offers.get(record.model_name)!;
    // A configured tool's input is always its listed schema's validator (configuredContract).
    if (!isSchemaValidator(contract.input)) throw new Error(`${record.model_name}: a configured tool without a listed inputSchema`);
    return { status: 'bound', modelName: record.model_name, hints: contract.hints ?? {}, input: contract.input };
  }));
  return { servers: chosen.map((start) => start.key), tools };
}

/**
 * Checks `--out` before any server starts: nothing may be there (a file,
 * folder or symlink, even one that leads nowhere: `precondition/target_exists`);
 * its folder must exist, lie in no run dir and not on a kernel filesystem,
 * and take a new file (one is created and removed beside it).
 */
function checkTarget(path: string): Failure | undefined {
  const here = lstatOrUndefined(path);
  if (here) return fail('precondition', 'target_exists', `--out ${path}: exists${here.isSymbolicLink() ? ' (a symlink, never followed)' : here.isDirectory() ? ' (a folder)' : ''}; a starter never replaces anything`);
  const folder = statOrUndefined(dirname(path));
  if (!folder?.isDirectory()) return usageFailure('bad_path', `--out ${path}: ${dirname(path)} is not a folder`);
  const real = realPathOf(path);
  const place = unwritablePlace(real);
  if (place) return usageFailure('bad_path', `--out ${path}: ${place}`);
  const runDir = enclosingRunDir(dirname(real));
  if (runDir !== undefined) return usageFailure('bad_path', `--out ${path}: inside the run dir ${runDir}; nothing is written into a run's record`);
  const probe = tempBeside(path, 'probe');
  try {
    nodeFs.closeSync(nodeFs.openSync(probe, 'wx', 0o600));
    nodeFs.unlinkSync(probe);
  } catch (error) {
    return usageFailure('bad_path', `--out ${path}: its folder cannot be written: ${(error as NodeJS.ErrnoException).code ?? String(error)}`);
  }
  return undefined;
}

/**
 * Writes `bytes` to `path` only if nothing is there: a temp file beside it
 * (created exclusively, written whole, closed), then link(2), which fails
 * rather than replace what appeared meanwhile, then the temp removed. No
 * partial file is ever seen under the name, and no temp is left behind.
 */
function writeNew(path: string, bytes: Uint8Array): Failure | undefined {
  const temp = tempBeside(path, 'tmp');
  let created = false;
  try {
    const fd = nodeFs.openSync(temp, 'wx', 0o644);
    created = true;
    try {
      nodeFs.writeFileSync(fd, bytes);
    } finally {
      nodeFs.closeSync(fd);
    }
    nodeFs.linkSync(temp, path);
    return undefined;
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'EEXIST' && created) return fail('precondition', 'target_exists', `--out ${path}: appeared while the starter was made; a starter never replaces anything`);
    return fail('business', 'write_failed', `--out ${path}: could not be written: ${code ?? String(error)}`);
  } finally {
    if (created) nodeFs.rmSync(temp, { force: true });
  }
}
