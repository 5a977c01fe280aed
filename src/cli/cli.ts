import { CAPLAB_VERSION, versionInfo } from '../version.ts';
import { HELP } from './help.ts';
import { EXIT, exitCodeOf, interrupted } from './exit.ts';
import type { Io } from './io.ts';
import { loadRechecks, loadTask, serveTask } from './tasks.ts';

// Each command's modules are imported when that command runs, so `--version` and `verify` never
// evaluate the MCP client or ajv and `serve` never evaluates the host (test/module-graph.test.ts).

/** Commands that start processes: main.ts makes them a child subreaper and turns SIGINT/SIGTERM into `io.interrupt`. */
const GUARDED = new Set(['demo', 'run', 'check', 'probe', 'scenario']);

/**
 * Whether this command line runs work that a signal must stop in order
 * (hooks, servers, a run record). Others keep the default signal action:
 * `serve` must still end on the SIGTERM its host sends.
 */
export function guardsProcesses(argv: readonly string[]): boolean {
  if (argv[0] === 'tools') return argv.some((arg) => arg === '--mcp-config' || arg.startsWith('--mcp-config='));
  return argv[0] !== undefined && GUARDED.has(argv[0]);
}

/**
 * Whether this command line serves until it is stopped and must stop
 * cleanly on SIGINT/SIGTERM (`serve --http`: listener closed, answers in
 * flight written, exit 130/143): main.ts turns them into `io.interrupt` for
 * it as for the guarded commands, without a guard or a subreaper (it starts
 * no process). Plain `serve` keeps the default action.
 */
export function stopsOnSignal(argv: readonly string[]): boolean {
  return argv[0] === 'serve' && argv.includes('--http');
}

/**
 * The command line: parses argv, runs a command, returns the exit code.
 * Never calls process.exit and never touches the real process (main.ts does).
 * An interruption (`io.interrupt`) wins over every code but a usage error,
 * and is said in one stderr line.
 */
export async function cli(argv: readonly string[], io: Io): Promise<number> {
  const code = await dispatch(argv, io);
  if (!io.interrupt?.aborted || code === EXIT.usage) return code;
  const signalled = exitCodeOf(interrupted(io.interrupt));
  // demo and run say it themselves, with the run dir.
  if (code !== signalled) io.stderr(`caplab: interrupted by ${String(io.interrupt.reason)}\n`);
  return signalled;
}

async function dispatch(argv: readonly string[], io: Io): Promise<number> {
  const [command, ...rest] = argv;
  if (command === undefined || command === '--help' || command === '-h' || command === 'help') {
    io.stdout(`${HELP['main']}\n`);
    return command === undefined ? EXIT.usage : EXIT.ok;
  }
  if (command === '--version' || command === '-v') {
    // `--json` is the one argument: the build's facts (src/version.ts), git asked only then.
    if (rest.length === 1 && rest[0] === '--json') {
      io.stdout(`${JSON.stringify(versionInfo())}\n`);
      return EXIT.ok;
    }
    if (rest.length > 0) return usage(io, undefined, `${command} takes no argument but --json, got ${JSON.stringify(rest[0])}`);
    io.stdout(`caplab ${CAPLAB_VERSION}\n`);
    return EXIT.ok;
  }
  // Help wins over every other flag, before any command validates its own.
  if (command !== 'main' && Object.hasOwn(HELP, command) && asksForHelp(rest)) {
    io.stdout(`${HELP[command]}\n`);
    return EXIT.ok;
  }
  switch (command) {
    case 'demo':
    case 'run': {
      const [{ parseRunFlags, runCommand }, task] = await Promise.all([import('./run-command.ts'), loadTask({ envSource: io.env })]);
      const flags = parseRunFlags(rest, command, task);
      if (!flags.ok) return usage(io, command, flags.message);
      return runCommand(flags.value, io, task);
    }
    case 'check': {
      const [{ checkCommand }, task] = await Promise.all([import('./check-command.ts'), loadTask({ envSource: io.env })]);
      return checkCommand(rest, io, task);
    }
    case 'tools':
      return (await import('./info-commands.ts')).toolsCommand(rest, io, await loadTask());
    case 'skills':
      return (await import('./info-commands.ts')).skillsCommand(rest, io, await loadTask());
    case 'agents':
      return (await import('./agents-command.ts')).agentsCommand(rest, io, await loadTask());
    case 'serve': {
      // Plain `serve` (stdio) loads nothing more; its flags (`--http`) load their own file.
      if (rest.length > 0) {
        const { parseServeFlags, serveHttpCommand } = await import('./serve-command.ts');
        const flags = parseServeFlags(rest, io.env);
        return flags.ok ? serveHttpCommand(flags.value, io) : usage(io, 'serve', flags.message);
      }
      if (!io.streams) return usage(io, 'serve', 'no process streams to serve on');
      return serveTask(io.streams);
    }
    case 'probe':
      return (await import('./probe-command.ts')).probeCommand(rest, io);
    case 'scenario':
      return (await import('./scenario-new.ts')).scenarioCommand(rest, io);
    case 'verify':
      return (await import('./verify-command.ts')).verifyCommand(rest, io, loadRechecks);
    case 'report':
      return (await import('./report-command.ts')).reportCommand(rest, io, loadRechecks);
    default:
      return usage(io, undefined, `unknown command ${JSON.stringify(command)}`);
  }
}

/** `--help` or `-h` among a command's own arguments; after `--` they belong to the server `probe` starts. */
function asksForHelp(args: readonly string[]): boolean {
  const end = args.indexOf('--');
  return (end === -1 ? args : args.slice(0, end)).some((arg) => arg === '--help' || arg === '-h');
}

function usage(io: Io, command: string | undefined, message: string): number {
  io.stderr(`caplab${command ? ` ${command}` : ''}: ${message}\nSee \`caplab ${command ? `${command} ` : ''}--help\`.\n`);
  return EXIT.usage;
}
