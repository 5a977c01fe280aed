import { fail, ok, type Failure, type Outcome } from './failure.ts';

const KiB = 1024;
const MiB = 1024 * KiB;

/**
 * Every bound caplab puts on an input that crosses a boundary (SPEC F-LIMITS).
 * README's "Limits" table states the same values; a test keeps them equal.
 * A breach is refused as a failure value with a named class/kind (output
 * that is only kept — hook output, server stderr, server values in probe's
 * report — is cut instead), never a crash or a hang.
 */
export const LIMITS = {
  /** Nesting of arrays and objects in a JSON file caplab reads (scenario, settings, each line of a replay file). */
  fileJsonDepth: 64,
  /** Bytes of a scenario file. */
  scenarioBytes: 4 * MiB,
  /** Characters of a scenario's `name` (an expectations run keeps its copy as `scenario/<name>.json`, one run-dir path segment). */
  scenarioNameChars: 64,
  /** Requests a scenario may allow itself (`max_requests`; without it a run makes at most 8). */
  scenarioRequests: 64,
  /** Scenario files `caplab check --scenarios DIR` runs; a folder with more is refused before any runs. */
  checkScenarios: 256,
  /** Bytes of a replay file (`run --replay`: recorded model responses, one per line). */
  replayBytes: 4 * MiB,
  /** Bytes of a settings file. */
  settingsBytes: 1 * MiB,
  /** Bytes of a package's SKILL.md. */
  skillMdBytes: 256 * KiB,
  /** Bytes of each reference a package declares. */
  skillReferenceBytes: 1 * MiB,
  /** Nesting of a SKILL.md frontmatter, bounded on its text before it is parsed (aliases count as the nesting they may repeat). */
  skillFrontmatterDepth: 32,
  /**
   * Package folders one run or `caplab skills` reads, over every source (embedded,
   * each `--skills` folder, the trusted project's); more at start refuse the set
   * before any is parsed.
   */
  skillPackages: 256,
  /** Characters of one package's catalog entry (`- name: description`, plus `when_to_use`), as Claude Code cuts it; a longer one is cut there, ending in `…`. */
  skillCatalogEntryChars: 1536,
  /** Code points of a Skill call's `skill` and of its `args` (tool mode); longer is an error result, nothing loaded. */
  skillArgsChars: 4096,
  /** Nesting of arrays and objects in one tool call's arguments. */
  argumentsDepth: 32,
  /** Bytes of one tool call's arguments as canonical JSON. */
  argumentsBytes: 256 * KiB,
  /** Tool calls in one model response; beyond it none of them runs and the run fails. */
  callsPerResponse: 256,
  /** Deferred tools in one request (the Messages API's cap); beyond it nothing is sent and the run fails. */
  deferredTools: 10_000,
  /** Names one ToolSearch answer may reference (its `max_results` at most). */
  toolSearchResults: 20,
  /** Code points of a ToolSearch query (the Messages API's BM25 search's cap). */
  toolSearchQueryChars: 500,
  /** Bytes of one request payload; beyond it nothing is sent and the run fails. */
  requestPayloadBytes: 16 * MiB,
  /** Bytes kept of each of a command hook's stdout and stderr; the rest is read and dropped. */
  hookOutputBytes: 64 * KiB,
  /** Bytes of one inbound MCP stdio line (one JSON-RPC message). */
  mcpLineBytes: 1 * MiB,
  /**
   * Bytes of one HTTP body carrying one MCP message, bounded as one stdio line
   * is: a POST `serve --http` reads, a JSON answer the client reads from a server.
   */
  httpBodyBytes: 1 * MiB,
  /** Live sessions of `serve --http` (each initialize opens one, DELETE ends it); an initialize beyond them is answered 503. */
  httpSessions: 64,
  /**
   * Milliseconds a `serve --http` session may stay idle (no request let through)
   * before it expires: a later request with its id is 404 and the client
   * initializes again (spec MUST). Without it a client that never sends
   * DELETE holds a slot for good. 30 minutes, the idle timeout the Python and
   * Ruby SDKs' servers default to: long past any pause inside one agent run,
   * short enough that abandoned sessions free their slots within the hour.
   */
  httpSessionIdleMs: 30 * 60 * 1000,
  /** Bytes written to an MCP server's stdin that it has not read yet (requests, answers to its pings). */
  mcpUnsentBytes: 4 * MiB,
  /** Bytes of one event's data on an SSE stream an MCP server answers with (its lines and fields included). */
  sseEventBytes: 1 * MiB,
  /** Bytes of the `Mcp-Session-Id` a server issues (visible ASCII only, as the spec requires). */
  httpSessionIdBytes: 256,
  /** Bytes of the `listening http://HOST:PORT/mcp` line `demo --transport http` reads from the `serve --http` it started. */
  serveLineBytes: 1 * KiB,
  /** Bytes of an MCP server's stderr kept while it runs (the newest); the rest is read and dropped. */
  serverStderrTailBytes: 64 * KiB,
  /** Bytes of that tail recorded in the run's close report or added to a failure's issues (its end). */
  serverStderrBytes: 4 * KiB,
  /** Bytes `verify` reads of any one file of a run dir (ledger, payloads, responses, card, outputs). */
  recordFileBytes: 64 * MiB,
  /** Bytes `verify` reads of a run dir's seal (`ledger.head`, one short line). */
  recordSealBytes: 4 * KiB,
  /** Files and folders `verify` lists in one run dir. */
  recordEntries: 100_000,
  /** Nesting of arrays and objects in one ledger line or recorded JSON file that `verify` parses. */
  recordJsonDepth: 256,
  /** Bytes of one `caplab report` file: past it, later calls are listed by ledger seq only, and the top of the report says so. */
  reportBytes: 4 * MiB,
  /** Bytes of a call's result, an argument or a hook's output `caplab report` shows; the rest is named by its full size and sha256. */
  reportExcerptBytes: 2 * KiB,
  /** Pages of `tools/list` probe reads; past it the listing stops with a finding. */
  probePages: 20,
  /** Characters (UTF-16 code units) of a tool description before probe reports it as oversized. */
  probeDescriptionChars: 4096,
  /** Bytes of UTF-8 (a string) or JSON (any other value) of one server value kept whole in probe's report; a longer one is clipped. */
  reportValueBytes: 4 * KiB,
  /** Nesting of arrays and objects of one server value kept whole in probe's report; a deeper one is clipped. */
  reportValueDepth: 8,
  /** Characters (code points) of a probe finding's evidence, its cut marked `…`. */
  evidenceChars: 120,
  /** Tools `probe` checks from one listing; the rest are counted, not checked. */
  probeTools: 10_000,
  /** Nesting of arrays and objects in one tool's inputSchema or outputSchema that `probe` compiles. */
  probeSchemaDepth: 64,
  /** Bytes of one listed schema as canonical JSON that probe compiles; a larger one is a finding, not compiled. */
  probeSchemaBytes: 64 * KiB,
  /** Milliseconds probe spends compiling the schemas of one listing; past it the rest are not compiled (one finding). */
  probeCompileMs: 30_000,
  /** Nesting of arrays and objects in one tools/call result that `probe` judges. */
  probeResultDepth: 256,
  /** Bytes (UTF-8) of a configured server's tool description the model is shown; a longer one is cut, with a marker saying so. */
  toolDescriptionBytes: 2 * KiB,
  /** Bytes of a configured server's tool result the model is shown; the whole result is kept in `outputs/`. */
  mcpResultBytes: 64 * KiB,
  /** Blocks a cut result's note names one by one (to the model and in the record's detail); the rest are counted with their bytes. */
  cutBlocksNamed: 8,
  // W11 probe gate
  /** Bytes of a pin file `probe --pins` reads. */
  pinsBytes: 8 * MiB,
  /** Argument sets `probe`'s schema fuzzer draws for one tool at most. */
  fuzzSetsPerTool: 10_000,
  /** Bytes of one fuzzed argument set as JSON (below the line limit). */
  fuzzArgumentsBytes: 64 * KiB,
  /** Milliseconds between two `tasks/get` of one MCP task at the least, whatever `pollInterval` the server asks for (0 included). */
  taskPollFloorMs: 100,
  /** Bytes (UTF-8) of an MCP task id caplab accepts; a longer one is `protocol/task_id`, the outcome unknown. */
  taskIdBytes: 256,
  /** Milliseconds caplab waits for the answer to its one `tasks/cancel` (sent at a task's deadline or on a signal). */
  taskCancelMs: 2000,
  /** Tasks `caplab serve` keeps at once (each expires at its ttl); one more `tools/call` as a task is refused (-32603) until one expires. */
  serveTasks: 64,
  /** Requests one subagent (an `Agent` call's nested loop) makes at most; a type's `maxTurns` is capped at it. */
  subagentRequests: 8,
  /** Tool calls one subagent makes at most, over all its responses. */
  subagentCalls: 64,
  /** Subagents one run starts at most. */
  subagentsPerRun: 16,
  /** Bytes of one subagent type file (`--agents-dir`, `./.claude/agents/`, embedded). */
  agentFileBytes: 64 * KiB,
  /** Times `probe --fuzz` restarts a server a set ended the session of (a hang, an exit); then fuzzing stops. */
  fuzzRestarts: 8,
  /** Bytes of the `--json` report `probe --fuzz-replay` reads (its arguments kept whole). */
  fuzzReplayBytes: 16 * MiB,
} as const;

/** The bounds `checkJson` applies. */
export interface JsonBounds {
  readonly maxDepth: number;
  /** Bytes of the value's canonical JSON; omit for no size bound. */
  readonly maxBytes?: number;
}

const utf8 = new TextEncoder();

/** Bytes of a string as a JSON string literal (quotes and escapes included). */
function stringBytes(text: string): number {
  return utf8.encode(JSON.stringify(text)).byteLength;
}

/** One value on the walk; the path is kept as parent links so a deep value costs linear work. */
interface Visit {
  readonly value: unknown;
  readonly depth: number;
  readonly key?: string | number;
  readonly parent?: Visit;
}

/** `$.a[2]` for a visit, built only when a breach is reported; a long path keeps its ends. */
function where(visit: Visit): string {
  const keys: (string | number)[] = [];
  for (let at: Visit | undefined = visit; at?.key !== undefined; at = at.parent) keys.push(at.key);
  const steps = keys.reverse().map((key) => (typeof key === 'number' ? `[${key}]` : `.${key}`));
  const shown = steps.length > 20 ? [...steps.slice(0, 10), `…(${steps.length - 20} more)…`, ...steps.slice(-10)] : steps;
  return `$${shown.join('')}`;
}

/**
 * Checks a parsed JSON value without recursion: nesting depth, non-finite
 * numbers (JSON.parse turns `1e400` into Infinity, which no JSON encoder can
 * write back), and the size of its canonical JSON. Stops at the first breach.
 *
 * @returns The value itself, or `invalid_arguments` / `too_deep` |
 *   `non_finite_number` | `too_large` naming where (`$.a[2]`).
 * @example
 * checkJson(JSON.parse('{"n":1e400}'), { maxDepth: 32 }); // fails: invalid_arguments/non_finite_number at $.n
 */
export function checkJson(value: unknown, bounds: JsonBounds): Outcome<unknown> {
  const stack: Visit[] = [{ value, depth: 0 }];
  let bytes = 0;
  const tooLarge = (): Failure =>
    fail('invalid_arguments', 'too_large', `more than ${bounds.maxBytes} bytes as canonical JSON (limit ${bounds.maxBytes})`);
  while (stack.length > 0) {
    const visit = stack.pop()!;
    const item = visit.value;
    if (typeof item === 'number') {
      if (!Number.isFinite(item)) return fail('invalid_arguments', 'non_finite_number', `non-finite number at ${where(visit)} (JSON cannot carry ${item})`);
      bytes += String(item).length;
    } else if (typeof item === 'string') {
      bytes += stringBytes(item);
    } else if (item === null || typeof item === 'boolean') {
      bytes += item === false ? 5 : 4;
    } else if (typeof item === 'object') {
      if (visit.depth + 1 > bounds.maxDepth) {
        return fail('invalid_arguments', 'too_deep', `nesting deeper than ${bounds.maxDepth} at ${where(visit)} (limit ${bounds.maxDepth})`);
      }
      const entries = Array.isArray(item)
        ? item.map((child, index) => [index, child] as const)
        : Object.entries(item as Record<string, unknown>).filter(([, child]) => child !== undefined);
      // Brackets plus separators; object keys add `"key":`.
      bytes += 2 + Math.max(0, entries.length - 1);
      for (const [key, child] of entries) {
        if (typeof key === 'string') bytes += stringBytes(key) + 1;
        stack.push({ value: child, depth: visit.depth + 1, key, parent: visit });
      }
    } else {
      return fail('invalid_arguments', 'not_json', `a ${typeof item} at ${where(visit)} is not a JSON value`);
    }
    if (bounds.maxBytes !== undefined && bytes > bounds.maxBytes) return tooLarge();
  }
  return ok(value);
}

/** The bounds of one tool call's arguments. */
export const ARGUMENT_BOUNDS: JsonBounds = { maxDepth: LIMITS.argumentsDepth, maxBytes: LIMITS.argumentsBytes };

/** The bounds of a JSON file caplab reads (size is bounded by the read itself). */
export const FILE_JSON_BOUNDS: JsonBounds = { maxDepth: LIMITS.fileJsonDepth };

/**
 * A value as the run record may hold it: the value itself when JSON can carry
 * it, otherwise a stand-in object that says why it is not there (a call whose
 * arguments hold `1e400` is refused, and the record must still be writable).
 *
 * @example
 * recordable({ n: Infinity }); // { unrecordable: 'invalid_arguments/non_finite_number: non-finite number at $.n …' }
 */
export function recordable(value: unknown): unknown {
  const checked = checkJson(value, { maxDepth: Number.POSITIVE_INFINITY });
  return checked.ok ? value : { unrecordable: `${checked.class}/${checked.kind}: ${checked.message}` };
}

/**
 * Whether JSON text nests arrays/objects deeper than `max`, found by scanning
 * the characters (no recursion, no parse), so a line of 100,000 `[` is
 * refused before anything recursive touches it.
 */
export function jsonTooDeep(text: string, max: number): boolean {
  return textDepth(text, max) > max;
}

/** Deepest nesting of `[`/`{` in JSON text, strings skipped; stops counting past `stopAt`. */
function textDepth(text: string, stopAt: number): number {
  let depth = 0;
  let deepest = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c) i++; // backslash: skip the escaped character
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) inString = true;
    else if (c === 0x5b || c === 0x7b) {
      deepest = Math.max(deepest, ++depth);
      if (deepest > stopAt) return deepest;
    } else if (c === 0x5d || c === 0x7d) depth--;
  }
  return deepest;
}

/**
 * Parses JSON text within bounds: depth is checked on the text before
 * parsing (so the parser never recurses past it), then the value is checked
 * for non-finite numbers and size. A syntax error is `invalid_arguments`/`not_json`.
 */
export function parseJsonBounded(text: string, bounds: JsonBounds): Outcome<unknown> {
  if (jsonTooDeep(text, bounds.maxDepth)) {
    return fail('invalid_arguments', 'too_deep', `nesting deeper than ${bounds.maxDepth} (limit ${bounds.maxDepth})`);
  }
  let value: unknown;
  try {
    value = JSON.parse(text) as unknown;
  } catch (error) {
    return fail('invalid_arguments', 'not_json', `not valid JSON: ${error instanceof Error ? error.message : String(error)}`);
  }
  return checkJson(value, bounds);
}
