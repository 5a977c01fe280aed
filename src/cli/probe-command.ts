import { statSync } from 'node:fs';
import { resolve } from 'node:path';
import { ARGUMENT_BOUNDS, fail, ok, parseJsonBounded, redactorFor, type Failure, type Outcome, type Redactor } from '../contract/index.ts';
import {
  entryArgv,
  ENV_NAME,
  ENV_NAME_RULE,
  loadMcpConfig,
  probeEnv,
  probeTarget,
  resolvePaths,
  type CallRequest,
  type HttpConfigEntry,
  type ProbeOptions,
  type ProbeReport,
  type ProbeTarget,
  type ProtocolChoice,
  type StdioConfigEntry,
  type PinEntry,
  type McpConfigEntry,
  allFindings,
  LEVELS,
  parseLevelOverride,
  reachesFailOn,
  withLevels,
  type Level,
  type LevelOverrides,
  PROBE_MODERN,
  PROBE_VERSIONS,
  taskIdProblem,
  replayFuzz,
  runFuzz,
  type FuzzSection,
  type FuzzStart,
  type ReplayItem,
  type ReplayResult,
} from '../mcp/index.ts';
import { HELP } from './help.ts';
import { EXIT, exitCodeOf, interrupted } from './exit.ts';
import type { Io } from './io.ts';
import { usageFailure } from './paths.ts';
import { renderProbeText } from './probe-render.ts';
import { entryTarget, urlTarget, type PreparedHttp } from './probe-http.ts';
import { redactDeep } from './redact-deep.ts';
import { applyPins, planPins, writePins, type PinsPlan, type PinsSection } from './probe-pins.ts';
import { probeSarif } from './probe-sarif.ts';
import { probeJunitXml } from './junit.ts';
import { checkReportFile, reportTarget, writeReport } from './report-file.ts';
import { inert } from '../base/index.ts';
import { fuzzExit, fuzzFlags, fuzzText, FUZZ_SINGLE_FLAGS, FUZZ_VALUE_FLAGS, leveledFuzz, readFuzzFlag, readReplay, replayExit, replayText, type FuzzFlags, type FuzzReading } from './probe-fuzz.ts';

export interface ProbeFlags {
  readonly json: boolean;
  readonly requestMs?: number;
  readonly startupMs?: number;
  readonly cwd?: string;
  readonly env: Readonly<Record<string, string>>;
  readonly envAllow: readonly string[];
  readonly calls: readonly CallRequest[];
  readonly config?: string;
  readonly server?: string;
  readonly trust: boolean;
  readonly command: readonly string[];
  /** `--url URL`: a Streamable HTTP server, instead of a command or a config entry. */
  readonly url?: string;
  /** `--header-env NAME=VAR`, in order: header NAME sent with the value of the caller's VAR, as is. */
  readonly headerEnv: readonly { readonly name: string; readonly variable: string }[];
  /** `--protocol auto|VERSION`: how the session opens (by default, initialize offering 2025-06-18). */
  readonly protocol?: ProtocolChoice;
  /** `--fail-on LEVEL`: the lowest finding level that exits 1 (by default `error`). */
  readonly failOn: Level;
  /** `--level KIND=LEVEL`, each: that kind's level (never lowering a spec MUST). */
  readonly levels: LevelOverrides;
  /** `--pins FILE`: the pin file compared (with `updatePins`, written). */
  readonly pins?: string;
  readonly updatePins: boolean;
  /** `--name NAME`: the server's entry in the pin file (a config entry: its key by default). */
  readonly name?: string;
  /** `--all`: every entry of the config, in order. */
  readonly all: boolean;
  /** `--sarif FILE`, `--junit FILE`: report files written at the end. */
  readonly sarif?: string;
  readonly junit?: string;
  /** `--fuzz N --fuzz-tool NAME… [--seed S]`, or `--fuzz-replay FILE` (probe-fuzz.ts). */
  readonly fuzz?: FuzzFlags;
  /** `--task-status ID`: one tasks/get (+ tasks/result if completed) instead of the listing and calls. */
  readonly taskStatus?: string;
}

const VALUE_FLAGS = new Set([...FUZZ_VALUE_FLAGS, '--task-status', '--sarif', '--junit', '--pins', '--name', '--fail-on', '--level', '--protocol', '--timeout-ms', '--startup-timeout-ms', '--cwd', '--env', '--env-allow', '--call', '--args', '--mcp-config', '--server', '--url', '--header-env']);
/** Flags that take one value: given twice, which one was meant is unknown (a usage error, as in every command). */
const SINGLE_FLAGS = new Set([...FUZZ_SINGLE_FLAGS, '--task-status', '--sarif', '--junit', '--pins', '--name', '--fail-on', '--protocol', '--timeout-ms', '--startup-timeout-ms', '--cwd', '--mcp-config', '--server', '--url']);
/** Flags that shape a spawned server (its environment, its cwd): an HTTP server (`--url`) has neither. */
const SPAWN_FLAGS = ['--env', '--env-allow', '--cwd'];
/** Other spellings of a flag: one flag, so giving both is giving it twice. */
const ALIASES: Readonly<Record<string, string>> = { '--config': '--mcp-config' };

/** Parses probe's flags; a string is a usage error. `--args` belongs to the `--call` before it. */
export function parseProbeFlags(args: readonly string[]): ProbeFlags | string {
  const dash = args.indexOf('--');
  const flags = dash < 0 ? args : args.slice(0, dash);
  const command = dash < 0 ? [] : args.slice(dash + 1);
  let json = false;
  let trust = false;
  const env: Record<string, string> = {};
  const envAllow: string[] = [];
  const calls: { name: string; arguments: Record<string, unknown>; hasArgs: boolean }[] = [];
  const headerEnv: { name: string; variable: string }[] = [];
  const out: { requestMs?: number; startupMs?: number; cwd?: string; config?: string; server?: string; url?: string; protocol?: ProtocolChoice; taskStatus?: string } = {};
  let failOn: Level = 'error';
  let updatePins = false;
  let all = false;
  const gate: { pins?: string; name?: string; sarif?: string; junit?: string; fuzz?: FuzzFlags } = {};
  const levels: Record<string, Level> = {};
  const fuzzing: FuzzReading = { tools: [] };
  const given = new Set<string>();
  for (let i = 0; i < flags.length; i++) {
    const token = flags[i]!;
    const eq = token.indexOf('=');
    const spelled = token.startsWith('--') && eq > 0 ? token.slice(0, eq) : token;
    const name = ALIASES[spelled] ?? spelled;
    if (SINGLE_FLAGS.has(name) && given.has(name)) return `${name === spelled ? name : `${spelled} (${name})`} given twice; it takes one value`;
    given.add(name);
    let value: string | undefined;
    if (VALUE_FLAGS.has(name)) {
      value = eq > 0 && spelled !== token ? token.slice(eq + 1) : flags[++i];
      if (value === undefined) return `${spelled} needs a value`;
    }
    switch (name) {
      case '--json': json = true; break;
      case '--pins': gate.pins = value!; break;
      case '--sarif': gate.sarif = value!; break;
      case '--junit': gate.junit = value!; break;
      case '--name': gate.name = value!; break;
      case '--update-pins': updatePins = true; break;
      case '--all': all = true; break;
      case '--trust':
      case '--trust-project': trust = true; break;
      case '--timeout-ms':
      case '--startup-timeout-ms': {
        const ms = Number(value);
        if (!Number.isSafeInteger(ms) || ms < 1) return `${name} needs a positive whole number of milliseconds`;
        if (name === '--timeout-ms') out.requestMs = ms;
        else out.startupMs = ms;
        break;
      }
      case '--protocol': {
        if (!PROTOCOL_CHOICES.includes(value!)) return `--protocol needs one of ${PROTOCOL_CHOICES.join(', ')} (got ${JSON.stringify(value)})`;
        out.protocol = value!;
        break;
      }
      case '--fail-on': {
        if (!(LEVELS as readonly string[]).includes(value!)) return `--fail-on needs one of ${LEVELS.join(', ')} (got ${JSON.stringify(value)})`;
        failOn = value as Level;
        break;
      }
      case '--level': {
        const parsed = parseLevelOverride(value!);
        if (typeof parsed === 'string') return parsed;
        levels[parsed.kind] = parsed.level;
        break;
      }
      case '--task-status': {
        const problem = taskStatusProblem(value!);
        if (problem) return problem;
        out.taskStatus = value!;
        break;
      }
      case '--cwd': out.cwd = value!; break;
      case '--mcp-config': out.config = value!; break;
      case '--server': out.server = value!; break;
      case '--env': {
        const at = value!.indexOf('=');
        if (at < 0) return `--env needs NAME=VALUE (${JSON.stringify(value)} lacks a value)`;
        if (!ENV_NAME.test(value!.slice(0, at))) return `--env needs NAME=VALUE with a NAME of ${ENV_NAME_RULE} (got ${JSON.stringify(value!.slice(0, at))})`;
        env[value!.slice(0, at)] = value!.slice(at + 1);
        break;
      }
      case '--env-allow': envAllow.push(value!); break;
      case '--url': out.url = value!; break;
      case '--header-env': {
        const at = value!.indexOf('=');
        const variable = value!.slice(at + 1);
        if (at <= 0 || !ENV_NAME.test(variable)) return `--header-env needs NAME=VAR, VAR a variable name of ${ENV_NAME_RULE} whose value is sent (got ${JSON.stringify(value)})`;
        headerEnv.push({ name: value!.slice(0, at), variable });
        break;
      }
      // A header's value is never written on the command line (where ps and shell history keep it): it comes from the environment.
      case '--header':
      case '-H': return `${name} is not taken: a header's value comes from the environment (--header-env NAME=VAR), never the command line`;
      case '--call': calls.push({ name: value!, arguments: {}, hasArgs: false }); break;
      case '--args': {
        const last = calls.at(-1);
        if (!last || last.hasArgs) return '--args must follow its --call NAME (one --args per --call)';
        // Bounded as every tool call's arguments are: JSON.parse alone reads 1e400 as Infinity, which would be sent as null.
        const read = parseJsonBounded(value!, ARGUMENT_BOUNDS);
        if (!read.ok) return `--args for ${last.name}: ${read.class}/${read.kind}: ${read.message}`;
        const parsed = read.value;
        if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) return `--args for ${last.name} must be a JSON object`;
        last.arguments = parsed as Record<string, unknown>;
        last.hasArgs = true;
        break;
      }
      default: {
        const read = readFuzzFlag(name, value, fuzzing);
        if (typeof read === 'string') return read;
        if (!read) return `unknown option ${token}`;
      }
    }
  }
  const gated = gateProblem({ ...gate, updatePins, all }, out, command);
  if (gated !== undefined) return gated;
  const fuzzFlag = fuzzFlags(fuzzing, all);
  if (typeof fuzzFlag === 'string') return fuzzFlag;
  if (fuzzFlag) gate.fuzz = fuzzFlag;
  if (out.taskStatus !== undefined && (calls.length > 0 || all || gate.pins !== undefined || gate.fuzz !== undefined)) return '--task-status asks one server about one task only: not with --call, --all, --pins or fuzzing';
  if (all) return { json, trust, env, envAllow, calls: calls.map(({ name, arguments: a }) => ({ name, arguments: a })), command, headerEnv, failOn, levels, updatePins, all, ...gate, ...out };
  if (out.config !== undefined && out.server === undefined) return '--mcp-config (--config) needs --server NAME (or --all)';
  const named = [out.server !== undefined ? '--server NAME' : '', out.url !== undefined ? '--url URL' : '', command.length > 0 ? '-- CMD ARGS…' : ''].filter(Boolean);
  if (named.length > 1) return `give one of --server NAME, --url URL or -- CMD ARGS…, not ${named.join(' and ')}`;
  if (named.length === 0) return 'needs a server command after -- (or --server NAME, or --url URL)';
  if (out.url !== undefined) {
    const spawnOnly = SPAWN_FLAGS.filter((flag) => given.has(flag));
    if (spawnOnly.length > 0) return `${spawnOnly.join(', ')} shape a spawned server; an HTTP server (--url) has no environment or cwd of probe's`;
  } else if (headerEnv.length > 0) return '--header-env goes with --url (a config entry\'s headers are its own)';
  return { json, trust, env, envAllow, calls: calls.map(({ name, arguments: a }) => ({ name, arguments: a })), command, headerEnv, failOn, levels, updatePins, all, ...gate, ...out };
}

/** What is wrong with the gate's flags together (pins, names, `--all`), if anything. */
function gateProblem(gate: { pins?: string; name?: string; updatePins: boolean; all: boolean }, out: { server?: string; url?: string }, command: readonly string[]): string | undefined {
  if (gate.updatePins && gate.pins === undefined) return '--update-pins needs --pins FILE';
  if (gate.name !== undefined && gate.pins === undefined) return '--name names the server\'s entry in the pin file: it needs --pins FILE';
  if (gate.all) {
    if (out.server !== undefined || out.url !== undefined || command.length > 0) return '--all probes every entry of the config: not with --server, --url or -- CMD';
    if (gate.name !== undefined) return '--all names each entry by its key: not with --name';
    return undefined;
  }
  if (gate.pins !== undefined && gate.name === undefined && out.server === undefined) return '--pins with --url or -- CMD needs --name NAME (the server\'s entry in the pin file)';
  return undefined;
}

/** Why a `--task-status` value is no task id probe sends: empty, or over `taskIdBytes`. */
function taskStatusProblem(taskId: string): string | undefined {
  const problem = taskIdProblem(taskId);
  return problem === undefined ? undefined : `--task-status: ${problem}`;
}

/** What `--protocol` takes: `auto`, the modern revision, or one revision probe reads, offered in initialize. */
const PROTOCOL_CHOICES: readonly string[] = ['auto', PROBE_MODERN, ...PROBE_VERSIONS];

/** `--cwd` must name an existing folder: the server is started in it (a file there is a usage error, not a spawn failure). */
function checkCwd(cwd: string): Failure | undefined {
  try {
    if (statSync(cwd).isDirectory()) return undefined;
    return usageFailure('bad_path', `--cwd ${cwd} is not a folder`);
  } catch {
    return usageFailure('bad_path', `--cwd ${cwd} does not exist`);
  }
}

/**
 * The exit code of a probe: unknown outcome (4) over protocol/transport (3)
 * over a finding at or above `failOn` (1); a finding without a level counts as an error.
 */
export function probeExit(report: ProbeReport, failOn: Level = 'error'): number {
  if (report.taskStatus) return taskStatusExit(report);
  if (report.calls.some((call) => call.outcome === 'unknown')) return EXIT.unknown;
  if (report.failure) return EXIT.protocol;
  if (reachesFailOn(allFindings(report), failOn)) return EXIT.failed;
  return EXIT.ok;
}

/** `--task-status`: 0 for a terminal status, 4 for one still working or a task the server does not know (3 if the session failed). */
function taskStatusExit(report: ProbeReport): number {
  if (report.failure) return EXIT.protocol;
  return report.taskStatus?.terminal === true ? EXIT.ok : EXIT.unknown;
}

/**
 * The `.mcp.json` entry `--server` names (`--mcp-config FILE`, or the
 * project file in `cwd`): a stdio or HTTP entry, or why it cannot be probed.
 */
function configServer(flags: ProbeFlags & { readonly server: string }, io: Io): Outcome<{ readonly entry: StdioConfigEntry | HttpConfigEntry; readonly path: string }> {
  const config = loadMcpConfig({ ...(flags.config !== undefined ? { file: flags.config } : {}), trust: flags.trust, cwd: io.cwd, source: io.env });
  if (!config.ok) return config;
  const { path, entries } = config.value;
  const entry = entries.find((candidate) => candidate.name === flags.server);
  if (entry === undefined) return fail('invalid_arguments', 'unknown_server', `${path}: no server "${flags.server}" (has: ${entries.map((e) => e.name).join(', ') || 'none'})`);
  if (entry.kind === 'invalid') return entry.failure;
  if (entry.kind === 'unsupported') return fail('invalid_arguments', 'unsupported_transport', `${path}: server "${flags.server}" has type ${JSON.stringify(entry.type)}; probe reads stdio and http entries only`);
  return ok({ entry, path });
}

/**
 * What probe starts, and the command line as shown. A config entry follows
 * the one relative-path rule (`entryArgv`: the config file's folder; a bare
 * command on the server's PATH), whatever `--cwd` says. `-- CMD` resolves
 * against the caller's cwd, when the server gets a fresh one (`base`); with
 * `--cwd` it is started as written. Shown: each argument as started, one
 * holding `${VAR}` as written.
 */
function launchOf(command: readonly string[], entry: StdioConfigEntry | undefined, base: string | undefined, env: Readonly<Record<string, string>>): { command: readonly string[]; raw: readonly string[] } {
  const started = entry !== undefined ? entryArgv(entry, env) : base !== undefined ? resolvePaths(command, base) : command;
  const raw = entry?.raw ?? command;
  return { command: started, raw: entry === undefined && base === undefined ? raw : raw.map((arg, index) => (arg.includes('${') ? arg : (started[index] ?? arg))) };
}

const shown = (argv: readonly string[]): string => argv.map((a) => (/^[\w@%+=:,./${}-]+$/.test(a) ? a : JSON.stringify(a))).join(' ');

/** One server's probe, levelled and compared with its pins, with its exit code (before the files are written). */
interface Probed {
  readonly name?: string;
  readonly report: GateReport;
  readonly exit: number;
  readonly update?: PinEntry;
}

/** A report as probe prints it: the wire dropped, the pins section added. */
type GateReport = Omit<ProbeReport, 'wire'> & { readonly pins?: PinsSection; readonly fuzz?: FuzzSection; readonly replay?: readonly ReplayResult[] };

/**
 * `caplab probe`: starts one stdio MCP server (a command, or an entry of a
 * `.mcp.json`) or reaches an HTTP one (`--url`, or an http entry), checks
 * it with the general profile and reports; with `--all`, every entry of the
 * config in order. The pin file is read before anything starts, and written
 * (with the reports) once everything has been probed.
 */
export async function probeCommand(args: readonly string[], io: Io): Promise<number> {
  const own = args.includes('--') ? args.slice(0, args.indexOf('--')) : args;
  if (own.includes('--help') || own.includes('-h')) return io.stdout(`${HELP['probe']}\n`), EXIT.ok;
  const flags = parseProbeFlags(args);
  if (typeof flags === 'string') return io.stderr(`caplab probe: ${flags}\nSee \`caplab probe --help\`.\n`), EXIT.usage;
  const usage = (failure: Failure): number => (io.stderr(`caplab probe: ${failure.class}/${failure.kind}: ${failure.message}\n`), EXIT.usage);
  const plan = planPins(flags.pins, flags.updatePins, io.cwd);
  if (!plan.ok) return usage(plan);
  const badReport = reportFilesProblem(flags, io.cwd);
  if (badReport) return usage(badReport);
  const replay = flags.fuzz?.replay === undefined ? undefined : readReplay(flags.fuzz.replay, io.cwd);
  if (replay && !replay.ok) return usage(replay);
  if (flags.all) return probeAll(flags, io, plan.value);
  let entry: StdioConfigEntry | HttpConfigEntry | undefined;
  let config: string | undefined;
  if (flags.server !== undefined) {
    const loaded = configServer({ ...flags, server: flags.server }, io);
    if (!loaded.ok) return usage(loaded);
    ({ entry, path: config } = loaded.value);
  }
  const probed = await probeOne(flags, io, entry, plan.value, replay?.value);
  if (typeof probed === 'number') return probed;
  // An interruption wins over what was found (as `cli` ranks it), and the report says so too.
  const exit = signalledExit(io) ?? writeFiles([probed], flags, io, plan.value, config) ?? probed.exit;
  io.stdout(flags.json ? `${JSON.stringify({ ...probed.report, failOn: flags.failOn, exit }, null, 2)}\n` : renderGate(probed, exit, flags));
  return sayInterrupted(io), exit;
}

/** `--all`: every entry of the config, in order, each as `--server NAME` would probe it; the worst exit. */
async function probeAll(flags: ProbeFlags, io: Io, plan: PinsPlan | undefined): Promise<number> {
  const config = loadMcpConfig({ ...(flags.config !== undefined ? { file: flags.config } : {}), trust: flags.trust, cwd: io.cwd, source: io.env });
  if (!config.ok) return io.stderr(`caplab probe: ${config.class}/${config.kind}: ${config.message}\n`), EXIT.usage;
  const usable = config.value.entries.map((entry) => usableEntry(config.value.path, entry));
  const refused = usable.find((entry) => !entry.ok);
  if (refused && !refused.ok) return io.stderr(`caplab probe: ${refused.class}/${refused.kind}: ${refused.message}\n`), EXIT.usage;
  const results: Probed[] = [];
  for (const entry of usable) {
    if (!entry.ok || io.interrupt?.aborted) break;
    const probed = await probeOne({ ...flags, server: entry.value.name }, io, entry.value, plan);
    if (typeof probed === 'number') return probed;
    results.push(probed);
  }
  const exit = signalledExit(io) ?? writeFiles(results, flags, io, plan, config.value.path) ?? worstExit(results.map((r) => r.exit));
  const servers = results.map((r) => ({ name: r.name, ...r.report, exit: r.exit }));
  io.stdout(flags.json ? `${JSON.stringify({ servers, failOn: flags.failOn, exit }, null, 2)}\n` : `${results.map((r) => renderGate(r, r.exit, flags)).join('\n')}\nall       ${results.length} of ${usable.length} server(s) probed; exit ${exit}\n`);
  return sayInterrupted(io), exit;
}

/** The most severe of several exit codes, as `cli` ranks them: 4 > 3 > 1 > 0. */
export function worstExit(codes: readonly number[]): number {
  const rank: readonly number[] = [EXIT.ok, EXIT.failed, EXIT.protocol, EXIT.unknown];
  return codes.reduce((worst, code) => (rank.indexOf(code) > rank.indexOf(worst) ? code : worst), EXIT.ok as number);
}

/** A signal's exit code, once one arrived. */
const signalledExit = (io: Io): number | undefined => (io.interrupt?.aborted ? exitCodeOf(interrupted(io.interrupt)) : undefined);

function sayInterrupted(io: Io): void {
  if (io.interrupt?.aborted) io.stderr(`caplab: interrupted by ${String(io.interrupt.reason)}\n`);
}

/** The report as text, with the pins line. */
function renderGate(probed: Probed, exit: number, flags: ProbeFlags): string {
  const head = probed.name !== undefined && flags.all ? `server ${inert(probed.name)}\n` : '';
  const pins = probed.report.pins ? pinsLine(probed.report.pins) : '';
  const fuzz = (probed.report.fuzz ? fuzzText(probed.report.fuzz) : '') + (probed.report.replay ? replayText(probed.report.replay) : '');
  return `${head}${renderProbeText(probed.report as ProbeReport, exit, flags.failOn)}${pins}${fuzz}`;
}

/** One line on what `--pins` did for this server. */
function pinsLine(pins: PinsSection): string {
  const entry = pins.pinned ? `entry ${JSON.stringify(pins.name)}` : `no entry ${JSON.stringify(pins.name)}`;
  if (pins.mode === 'compare') return inert(`  pins      ${pins.file}: ${entry}, compared`) + '\n';
  const what = pins.recorded ? `recorded (${pins.accepted?.length ?? 0} change(s) accepted: ${(pins.accepted ?? []).map((f) => f.kind).join(', ') || 'none'})` : `not recorded: ${pins.why}`;
  return inert(`  pins      ${pins.file}: ${entry}, ${what}`) + '\n';
}

/** Writes what the flags ask for once every server was probed (pins, SARIF, JUnit): the worst exit if one failed (3), else undefined. */
function writeFiles(results: readonly Probed[], flags: ProbeFlags, io: Io, plan: PinsPlan | undefined, config: string | undefined): number | undefined {
  const pins = writePinFile(results, io, plan);
  const reports = writeReportFiles(results, flags, io, config);
  return pins === undefined && reports === undefined ? undefined : worstExit([pins ?? EXIT.ok, reports ?? EXIT.ok]);
}

/** The pin file, when `--update-pins` asks for it (not after an interruption). */
function writePinFile(results: readonly Probed[], io: Io, plan: PinsPlan | undefined): number | undefined {
  if (!plan?.update || io.interrupt?.aborted) return undefined;
  const updates = new Map(results.flatMap((r) => (r.update && r.name !== undefined ? [[r.name, r.update] as const] : [])));
  const failed = writePins(plan, updates);
  if (failed === undefined) return undefined;
  io.stderr(`caplab probe: --pins ${plan.path}: ${typeof failed === 'string' ? failed : `${failed.class}/${failed.kind}: ${failed.message}`}\n`);
  return worstExit([...results.map((r) => r.exit), EXIT.protocol]);
}

/** `--sarif` and `--junit` checked as report files (their folder, what they would replace) before anything starts. */
function reportFilesProblem(flags: ProbeFlags, cwd: string): Failure | undefined {
  for (const [flag, file] of [['--sarif', flags.sarif], ['--junit', flags.junit]] as const) {
    const problem = file === undefined ? undefined : checkReportFile(resolve(cwd, file), flag, undefined);
    if (problem) return problem;
  }
  return undefined;
}

/** Writes `--sarif` and `--junit` (temp + rename); an exit code (3) if one could not be written. */
function writeReportFiles(results: readonly Probed[], flags: ProbeFlags, io: Io, config: string | undefined): number | undefined {
  const runs = results.map((r) => ({ name: r.name ?? serverName(r.report), report: r.report, ...(config !== undefined && r.name !== undefined ? { config: resolve(io.cwd, config) } : {}), ...(r.report.pins ? { pinned: r.report.pins.pinned } : {}), ...(r.report.fuzz ? { fuzz: r.report.fuzz } : {}) }));
  // SARIF has a result per finding: fuzzing's beside the probe's.
  const sarifRuns = runs.map((run) => (run.fuzz ? { ...run, report: { ...run.report, findings: [...run.report.findings, ...run.fuzz.findings] } } : run));
  const files = [
    ['--sarif', flags.sarif, () => probeSarif(sarifRuns)],
    ['--junit', flags.junit, () => probeJunitXml(runs, flags.failOn)],
  ] as const;
  let exit: number | undefined;
  for (const [flag, file, text] of files) {
    if (file === undefined) continue;
    const failed = writeReport(reportTarget(resolve(io.cwd, file)), text());
    if (failed) {
      io.stderr(`caplab probe: ${flag} ${file}: ${failed.class}/${failed.kind}: ${failed.message}\n`);
      exit = EXIT.protocol;
    }
  }
  return exit === undefined ? undefined : worstExit([...results.map((r) => r.exit), exit]);
}

/** A server's name in the reports when no config key or `--name` gave one: what it said it was, else "server". */
function serverName(report: GateReport): string {
  const name = report.serverInfo?.name;
  return typeof name === 'string' ? name : 'server';
}

/** An entry `--all` can probe: stdio or http; else why not (a usage error, before anything starts). */
function usableEntry(path: string, entry: McpConfigEntry): Outcome<StdioConfigEntry | HttpConfigEntry> {
  if (entry.kind === 'invalid') return entry.failure;
  if (entry.kind === 'unsupported') return fail('invalid_arguments', 'unsupported_transport', `${path}: server "${entry.name}" has type ${JSON.stringify(entry.type)}; probe reads stdio and http entries only`);
  return ok(entry);
}

/** Probes one server (a config entry, `--url`, or `-- CMD`): its report levelled and compared, or a usage exit; then fuzzed, or replayed. */
async function probeOne(flags: ProbeFlags, io: Io, entry: StdioConfigEntry | HttpConfigEntry | undefined, plan: PinsPlan | undefined, replay?: readonly ReplayItem[]): Promise<Probed | number> {
  const name = flags.name ?? entry?.name;
  const keep = { keepWire: plan !== undefined || flags.fuzz !== undefined };
  const probed = await connect(flags, io, entry, keep);
  if (typeof probed === 'number') return probed;
  const redacted = redactDeep(probed.report, probed.redactor);
  const fuzzed = flags.fuzz === undefined ? {} : await fuzzOne(flags, flags.fuzz, io, entry, redacted, replay);
  const pinned = plan !== undefined && name !== undefined ? applyPins(redacted, name, plan) : { report: redacted };
  const { wire: _, ...report } = withLevels(pinned.report, flags.levels);
  const exit = worstExit([probeExit(report as ProbeReport, flags.failOn), ...('fuzz' in fuzzed && fuzzed.fuzz ? [fuzzExit(fuzzed.fuzz.findings, flags.failOn)] : []), ...('replay' in fuzzed && fuzzed.replay ? [replayExit(fuzzed.replay)] : [])]);
  return { ...(name !== undefined ? { name } : {}), report: { ...report, ...fuzzed }, exit, ...('update' in pinned && pinned.update ? { update: pinned.update } : {}) };
}

/** Reaches the server as the flags say (an http entry, `--url`, or a stdio command), once. */
function connect(flags: ProbeFlags, io: Io, entry: StdioConfigEntry | HttpConfigEntry | undefined, keep: Pick<ProbeOptions, 'keepWire' | 'afterCall'>): Promise<{ readonly report: ProbeReport; readonly redactor: Redactor } | number> {
  if (entry?.kind === 'http') return probeHttp(entryTarget(entry, flags), flags, io, keep);
  if (flags.url !== undefined) return probeHttp(urlTarget(flags.url, flags.headerEnv, io.env), flags, io, keep);
  return probeStdio(flags, io, entry, keep);
}

/**
 * `--fuzz` (or `--fuzz-replay`) after the probe: each later session a fresh
 * start of the server, with the sets as its calls; nothing when the probe's
 * own session ended early (no listing to fuzz from).
 */
async function fuzzOne(flags: ProbeFlags, fuzz: FuzzFlags, io: Io, entry: StdioConfigEntry | HttpConfigEntry | undefined, report: ProbeReport, replay?: readonly ReplayItem[]): Promise<{ fuzz?: FuzzSection; replay?: readonly ReplayResult[] }> {
  const wire = report.wire;
  const start: FuzzStart = async (calls, afterCall) => {
    const again = await connect({ ...flags, calls }, io, entry, { afterCall });
    // Every usage check passed for the probe a moment ago: a usage exit now is caplab's own fault.
    if (typeof again === 'number') throw new Error(`probe --fuzz: the server's start was refused on restart (exit ${again})`);
    return redactDeep(again.report, again.redactor);
  };
  const ended = report.failure !== undefined || wire === undefined;
  if (replay !== undefined) return { replay: ended || !wire ? [] : await replayFuzz(replay, { entries: wire.entries, protocolVersion: wire.protocolVersion, tools: report.tools }, start, io.interrupt) };
  const plan = { count: fuzz.count ?? 0, tools: fuzz.tools, seed: fuzz.seed };
  if (ended || !wire) {
    const tools = fuzz.tools.map((name) => ({ name, drawn: 0, sent: 0, valid: 0, invalid: 0, stopped: 'the probe\'s session ended early: not fuzzed' }));
    return { fuzz: { seed: plan.seed, count: plan.count, tools, findings: [], restarts: 0 } };
  }
  const section = await runFuzz(plan, { entries: wire.entries, protocolVersion: wire.protocolVersion, tools: report.tools }, start, io.interrupt);
  return { fuzz: leveledFuzz(section, flags.levels) };
}

/** Starts a stdio server (`-- CMD`, or a config entry) and probes it; a bad `--cwd` is a usage exit. */
async function probeStdio(flags: ProbeFlags, io: Io, entry: StdioConfigEntry | undefined, keep: Pick<ProbeOptions, 'keepWire' | 'afterCall'>): Promise<{ report: ProbeReport; redactor: Redactor } | number> {
  const cwd = flags.cwd === undefined ? undefined : resolve(io.cwd, flags.cwd);
  const badCwd = cwd === undefined ? undefined : checkCwd(cwd);
  if (badCwd) return io.stderr(`caplab probe: ${badCwd.class}/${badCwd.kind}: ${badCwd.message}\n`), EXIT.usage;
  const env = probeEnv(io.env, flags.envAllow, { ...entry?.env, ...flags.env });
  const expanded = entry?.expanded ?? {};
  const { command, raw } = launchOf(flags.command, entry, cwd === undefined ? io.cwd : undefined, env);
  const redactor = redactorFor({ ...expanded, ...env });
  io.stderr(`caplab probe: starting ${redactor.redact(shown(raw))}\n  cwd ${cwd ?? '(a fresh empty directory, removed at close)'}; env ${Object.keys(env).sort().join(', ') || '(none)'}\n`);
  const target: ProbeTarget = { kind: 'stdio', command };
  return { report: await probeTarget(target, { ...(cwd !== undefined ? { cwd } : {}), env, display: raw, ...probeOptions(flags, io, redactor), ...keep }), redactor };
}

/** What probe is given however it connects: the calls, the redactor, the interruption, the timeouts. */
function probeOptions(flags: ProbeFlags, io: Io, redactor: Redactor): ProbeOptions {
  return {
    calls: flags.calls,
    redactor,
    ...(flags.protocol !== undefined ? { protocol: flags.protocol } : {}),
    ...(flags.taskStatus !== undefined ? { taskStatus: flags.taskStatus } : {}),
    ...(io.interrupt ? { signal: io.interrupt } : {}),
    timeouts: { ...(flags.requestMs !== undefined ? { requestMs: flags.requestMs } : {}), ...(flags.startupMs !== undefined ? { startupMs: flags.startupMs } : {}) },
  };
}

/**
 * Probes an HTTP target (`probeTarget`), or refuses what `urlTarget` or
 * `entryTarget` found wrong (a usage error); every header value, and each
 * variable read for it, redacted from what probe prints.
 */
async function probeHttp(prepared: Outcome<PreparedHttp>, flags: ProbeFlags, io: Io, keep: Pick<ProbeOptions, 'keepWire' | 'afterCall'>): Promise<{ report: ProbeReport; redactor: Redactor } | number> {
  // A config entry can name an HTTP server too: the flag is refused as it is with --url.
  if (flags.protocol === 'auto' || flags.protocol === PROBE_MODERN) return io.stderr(`caplab probe: --protocol ${flags.protocol} is for stdio servers: over HTTP probe speaks the initialize era only\nSee \`caplab probe --help\`.\n`), EXIT.usage;
  if (!prepared.ok) return io.stderr(`caplab probe: ${prepared.class}/${prepared.kind}: ${prepared.message}\n`), EXIT.usage;
  const { target, redactor } = prepared.value;
  io.stderr(`caplab probe: connecting to ${redactor.redact(target.url)}\n  headers ${target.headerNames.join(', ') || '(none)'} (values not shown)\n`);
  const http: ProbeTarget = { kind: 'http', url: target.url, headers: target.headers, headerNames: target.headerNames };
  return { report: await probeTarget(http, { ...probeOptions(flags, io, redactor), ...keep }), redactor };
}
