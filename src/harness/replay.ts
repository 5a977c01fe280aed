import { resolve } from 'node:path';
import * as v from 'valibot';
import { deepFreeze } from '../base/index.ts';
import { fail, FILE_JSON_BOUNDS, LIMITS, ok, parseJsonBounded, readBounded, sha256Hex, type Outcome } from '../contract/index.ts';
import { originLabel, STOP_REASONS, type Exhausted, type Model, type ModelResponse, type StopReason, type TextBlock, type ToolUseBlock, type Usage } from './model.ts';

const Count = v.pipe(v.number(), v.safeInteger(), v.minValue(0));
const Text = v.looseObject({ type: v.literal('text'), text: v.string() });
const isObject = (x: unknown): x is Record<string, unknown> => typeof x === 'object' && x !== null && !Array.isArray(x);
const ToolUse = v.looseObject({
  type: v.literal('tool_use'),
  id: v.pipe(v.string(), v.minLength(1)),
  name: v.string(),
  input: v.custom<Record<string, unknown>>(isObject, 'a tool_use input is a JSON object'),
});
/**
 * One line: an Anthropic Messages API response. Loose, as the API adds fields
 * (`container`, `usage.service_tier` …) that are kept as read; the fields the
 * host reads are checked here, the block types and stop reasons below.
 */
const Line = v.looseObject({
  id: v.pipe(v.string(), v.minLength(1)),
  type: v.literal('message'),
  role: v.literal('assistant'),
  model: v.pipe(v.string(), v.minLength(1)),
  content: v.array(v.looseObject({ type: v.string() })),
  stop_reason: v.string(),
  stop_sequence: v.optional(v.nullable(v.string())),
  usage: v.looseObject({
    input_tokens: Count,
    output_tokens: Count,
    cache_creation_input_tokens: v.optional(v.nullable(Count)),
    cache_read_input_tokens: v.optional(v.nullable(Count)),
  }),
});
type Line = v.InferOutput<typeof Line>;

/** The usage counts a replay totals; their sums must stay exact (at most 2^53 − 1). */
const COUNTS = ['input_tokens', 'output_tokens', 'cache_creation_input_tokens', 'cache_read_input_tokens'] as const;

/** A replay file, read and checked whole: its bytes' identity and one response per line. */
export interface Replay {
  /** The file as it was named (messages and run_start say it). */
  readonly file: string;
  readonly sha256: string;
  readonly bytes: number;
  /** Line N answers request N. */
  readonly responses: readonly ModelResponse[];
}

/** `content[1].type` for a valibot issue's path, under `prefix` (the path of the value it checked). */
function fieldOf(issue: v.BaseIssue<unknown>, prefix: string): string {
  const path = issue.path?.map((item) => (typeof item.key === 'number' ? `[${item.key}]` : `.${String(item.key)}`)).join('') ?? '';
  return `${prefix}${path}`.replace(/^\./, '');
}

/** One issue as `field: what is wrong`. */
function describeIssue(issue: v.BaseIssue<unknown>, prefix = ''): string {
  const field = fieldOf(issue, prefix) || '(line)';
  return issue.kind === 'schema' && issue.input === undefined ? `${field}: is required` : `${field}: ${issue.message}`;
}

/**
 * What the host cannot replay faithfully in a checked line: a block other than
 * text or tool_use (thinking, server tools …), a stop reason it does not know
 * or `pause_turn` (a server-tool turn to be continued, which this loop never
 * sends back), stop reason and tool_use blocks that disagree, and labels a
 * replay must not carry (it is never scripted, its usage never synthetic).
 */
function lineProblem(line: Line): string | undefined {
  for (const [i, block] of line.content.entries()) {
    if (block.type !== 'text' && block.type !== 'tool_use') return `content[${i}].type: block type ${JSON.stringify(block.type)} is not replayed (only text and tool_use)`;
    const parsed = v.safeParse(block.type === 'text' ? Text : ToolUse, block);
    if (!parsed.success) return describeIssue(parsed.issues[0], `content[${i}]`);
  }
  if (line.stop_reason === 'pause_turn') return 'stop_reason: "pause_turn" is not replayed (a paused server-tool turn is continued by sending it back, which this host does not do)';
  if (!(STOP_REASONS as readonly string[]).includes(line.stop_reason)) return `stop_reason: ${JSON.stringify(line.stop_reason)} is none of ${STOP_REASONS.join(', ')}`;
  const firstUse = line.content.findIndex((block) => block.type === 'tool_use');
  if (line.stop_reason === 'tool_use' && firstUse < 0) return 'stop_reason: "tool_use" with no tool_use block in content';
  if (line.stop_reason !== 'tool_use' && firstUse >= 0) return `content[${firstUse}]: a tool_use block under stop_reason ${JSON.stringify(line.stop_reason)}`;
  if ('scripted' in line) return 'scripted: not a field of a provider message (a replayed response is never labelled scripted)';
  if ('synthetic' in line.usage) return 'usage.synthetic: recorded usage is never marked synthetic';
  return undefined;
}

/**
 * A checked line as the loop's response. Its message and usage are the line
 * as JSON.parse gave it (valibot's output puts known keys first), so the
 * response file and the usage recorded keep the file's fields in its order.
 */
function responseOf(line: Line, asRead: Line): ModelResponse {
  const content = line.content.map((block): TextBlock | ToolUseBlock => {
    const b = block as Record<string, unknown>;
    return b['type'] === 'text' ? { type: 'text', text: b['text'] as string } : { type: 'tool_use', id: b['id'] as string, name: b['name'] as string, input: b['input'] };
  });
  return { id: line.id, origin: 'replayed', content, stop_reason: line.stop_reason as StopReason, usage: asRead.usage as Usage, message: asRead };
}

/**
 * Parses replay text: one Anthropic Messages API response per line (JSONL),
 * the whole file checked before any of it is used. A bad line is
 * `invalid_arguments/bad_replay` naming the line and the field: not JSON,
 * nested past `LIMITS.fileJsonDepth`, a number JSON cannot carry, a missing or
 * ill-typed field, what `lineProblem` refuses, a usage total past 2^53 − 1; so
 * is a file with no line or a blank line (line N answers request N).
 */
export function parseReplay(text: string, file: string): Outcome<readonly ModelResponse[]> {
  const bad = (where: string, message: string, issues?: readonly string[]) => fail('invalid_arguments', 'bad_replay', `${file}: ${where}${message}`, issues);
  if (text === '' || text === '\n') return bad('', 'no lines (a replay file holds one model response per line)');
  const lines = (text.endsWith('\n') ? text.slice(0, -1) : text).split('\n');
  const responses: ModelResponse[] = [];
  const totals = new Map<string, number>();
  for (const [i, raw] of lines.entries()) {
    const at = `line ${i + 1}: `;
    if (raw.trim() === '') return bad(at, 'is blank (line N answers request N, so no line may be empty)');
    const json = parseJsonBounded(raw, FILE_JSON_BOUNDS);
    if (!json.ok) return bad(at, json.message);
    // valibot's object schemas take an array too: a line is one object, said as such.
    if (!isObject(json.value)) return bad(at, 'is not one JSON object (a Messages API response)');
    const parsed = v.safeParse(Line, json.value);
    if (!parsed.success) {
      const issues = parsed.issues.map((issue) => describeIssue(issue));
      return bad(at, issues[0]!, issues);
    }
    const problem = lineProblem(parsed.output);
    if (problem) return bad(at, problem);
    for (const key of COUNTS) {
      const sum = (totals.get(key) ?? 0) + (parsed.output.usage[key] ?? 0);
      if (!Number.isSafeInteger(sum)) return bad(at, `usage.${key}: the file's total passes ${Number.MAX_SAFE_INTEGER} here, so no total would be exact`);
      totals.set(key, sum);
    }
    responses.push(responseOf(parsed.output, json.value as Line));
  }
  return ok(deepFreeze(responses));
}

const strictUtf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

/**
 * Loads and checks a whole replay file before any run starts. It is read with
 * a stat first and at most `LIMITS.replayBytes` (a FIFO, a device or a
 * directory is refused by kind, never read; larger is `precondition/too_large`);
 * bytes that are not UTF-8 are `invalid_arguments/not_utf8`; then `parseReplay`.
 * @param file The path as the user named it (the record keeps it), relative to `cwd`.
 */
export function loadReplay(file: string, cwd: string): Outcome<Replay> {
  const bytes = readBounded(resolve(cwd, file), LIMITS.replayBytes);
  if (!bytes.ok) return fail(bytes.class, bytes.kind, `--replay ${bytes.message}`);
  let text: string;
  try {
    text = strictUtf8.decode(bytes.value);
  } catch {
    return fail('invalid_arguments', 'not_utf8', `--replay ${file}: not valid UTF-8`);
  }
  const responses = parseReplay(text, file);
  if (!responses.ok) return responses;
  return ok({ file, sha256: sha256Hex(bytes.value), bytes: bytes.value.byteLength, responses: responses.value });
}

/**
 * A model that replays recorded responses: request N gets line N, as the
 * provider sent it (usage and cache counts as recorded, labelled `replayed`,
 * never synthetic). run_start records the file's name, sha256, size and line
 * count; run_end how many lines the run used and how many it left unused. A
 * request past the last line is answered `exhausted`, and the run stops as a
 * scripted one that ran out. It keeps no state: one replay may answer many runs.
 */
export function replayModel(replay: Replay): Model {
  const first = replay.responses[0]?.message['model'];
  const name = `replayed:${typeof first === 'string' ? first : 'unknown'}`;
  const lines = replay.responses.length;
  const model: Model = {
    name,
    origin: 'replayed',
    record: { scenario: null, model: { name, ...originLabel('replayed'), replay: { file: replay.file, sha256: replay.sha256, bytes: replay.bytes, lines } } },
    // In a run with subagents, line N answers the run's Nth request over every level (`sequence`).
    respond: async ({ index, sequence }): Promise<ModelResponse | Exhausted> =>
      replay.responses[sequence ?? index] ?? { exhausted: `the replay file has no line ${(sequence ?? index) + 1}: all ${lines} were used` },
    // A subagent's responses are the file's next lines too.
    subagent: () => model,
    ended: (answered) => ({ replay: { lines_used: answered, lines_unused: Math.max(0, lines - answered) } }),
  };
  return model;
}
