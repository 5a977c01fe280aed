/**
 * The ledger's events, one schema each, shared by the writer (`RunDir.append`
 * takes `EventInput<K>` and checks the event against its schema before it is
 * written) and every reader (`verify` parses every line with the schema of
 * its record's format; the recheck, `check-effects` and the report read the
 * parsed types).
 *
 * Each event is described once, below, field by field. A field a later
 * format added is marked `since(FORMAT, schema)`: records of earlier formats
 * must not have it (or have `before`), so every known format's schemas are
 * derived from the one description (`EVENT_SCHEMAS`). Adding a field is one
 * line here — and, since it changes what a record may hold, a new format
 * (format.ts); `events.test.ts` fails while a known format's schemas differ
 * from the committed `events.schema.json`.
 */
import * as v from 'valibot';
import {
  ABSENT,
  ArgumentsRecord,
  BindingRecord,
  BindingRecord4,
  BindingRecord5,
  BindingRecord7,
  BindingRecord12,
  TaskTraceRecord,
  HttpEndpointRecord,
  CheckRecord,
  Count,
  FileRefs,
  HookRecord,
  HookRecord11,
  HookResultRecord,
  IntentToolRecord,
  IntentToolRecord8,
  MethodRecord,
  ModelRecord4,
  OrphanRecord,
  OutcomeRecord,
  PermissionRecord,
  PlainMethodRecord,
  ProtocolRecord,
  ProtocolRecord7,
  ServerEndRecord,
  ServerRecord,
  ServerRecord7,
  ServerStartRecord,
  ServerStartRecord7,
  Sha256,
  SkillFoundHeldRecord,
  SkillFoundRefusedRecord,
  SkillFoundSkippedRecord,
  SkillOriginRecord,
  SkillPackageRecord,
  SnapshotRecord,
  StageRecord,
  UsageRecord,
  UsageRecord4,
  WrittenFileRecord,
} from './event-parts.ts';
import { KNOWN_FORMATS, LEDGER_FORMAT_2, LEDGER_FORMAT_3, LEDGER_FORMAT_4, LEDGER_FORMAT_5, LEDGER_FORMAT_6, LEDGER_FORMAT_7, LEDGER_FORMAT_8, LEDGER_FORMAT_9, LEDGER_FORMAT_10, LEDGER_FORMAT_11, LEDGER_FORMAT_12, isFormatFrom, type RecordFormat } from './format.ts';
import type { Frozen } from './frozen.ts';
import { NAMED_FORMAT, resolveField, since, NO_ENTRY, type Field, type From, type Newest, type NoEntry } from './since.ts';

/** A subagent type as the record names it: its name, where it came from, its file (the host's own: `host`) and that file's sha256. */
const AgentTypeRecord = v.strictObject({ name: v.string(), kind: v.picklist(['dir', 'project', 'embedded', 'host']), path: v.string(), sha256: Sha256 });

/** How a run ended: it reached its verdict, it was stopped, or something failed after the run dir existed. */
export const ENDINGS = ['completed', 'interrupted', 'failed'] as const;
export type Ending = (typeof ENDINGS)[number];

/** The events as written today: each field once (`since` marks what a format added). */
const EVENTS = {
  /** The run's first event: versions, task, model, tools, hooks and method, and the files the task started from (format 4: and the task's own fields). */
  run_start: {
    caplab: v.string(),
    // Format 4 names the task, by which verify finds its recheck (before it, every record is the excerpt's).
    task: since(LEDGER_FORMAT_4, v.string(), NO_ENTRY),
    run_id: v.string(),
    // Format 4: a replayed run plays no scenario.
    scenario: since(LEDGER_FORMAT_4, v.nullable(v.string()), v.string()),
    model: since(LEDGER_FORMAT_4, ModelRecord4, v.strictObject({ name: v.string(), scripted: v.boolean() })),
    transport: v.nullable(v.picklist(['local', 'mcp'])),
    // Format 7: the server may be reached over HTTP (its URL and header names, its session id by sha256).
    server: since(LEDGER_FORMAT_7, v.nullable(ServerRecord7), v.nullable(ServerRecord)),
    // Format 5: every server a user configured, started or not, and each tool it listed (a record names 5 only with them: `FORMAT_USES`); format 7: reached over HTTP too.
    servers: since(LEDGER_FORMAT_7, v.optional(v.pipe(v.array(ServerStartRecord7), v.minLength(1))), since(LEDGER_FORMAT_5, v.optional(v.pipe(v.array(ServerStartRecord), v.minLength(1))), NO_ENTRY)),
    // The excerpt's snapshot; from format 4 a task's own field (the excerpt's recheck reads it).
    snapshot: since(LEDGER_FORMAT_4, NO_ENTRY, SnapshotRecord),
    // Format 12: a contract that completes in the background says how.
    bindings: since(LEDGER_FORMAT_12, v.array(BindingRecord12), since(LEDGER_FORMAT_7, v.array(BindingRecord7), since(LEDGER_FORMAT_5, v.array(BindingRecord5), since(LEDGER_FORMAT_4, v.array(BindingRecord4), v.array(BindingRecord))))),
    // Format 11: hooks of the subagent events too.
    hooks: since(LEDGER_FORMAT_11, v.array(HookRecord11), v.array(HookRecord)),
    // Format 3 adds the plain Agent Skills record (`PlainMethodRecord`); before it, no record says `plain`.
    method: since(LEDGER_FORMAT_3, v.nullable(MethodRecord), v.nullable(v.looseObject({ plain: ABSENT }))),
    // Format 8: the defer rules as given (a record names 8 only with them: `FORMAT_USES`).
    defer: since(LEDGER_FORMAT_8, v.optional(v.pipe(v.array(v.string()), v.minLength(1))), NO_ENTRY),
    // Format 9: a run in skill tool mode says so (a record names 9 only with it: `FORMAT_USES`).
    skill_mode: since(LEDGER_FORMAT_9, v.optional(v.literal('tool')), NO_ENTRY),
    // Format 10, in skill tool mode: every package the Skill tool may serve (identity, origin, catalog status and globs), and whether touches look for nested .claude/skills/.
    skill_packages: since(LEDGER_FORMAT_10, v.optional(v.array(SkillPackageRecord)), NO_ENTRY),
    skill_nested: since(LEDGER_FORMAT_10, v.optional(v.boolean()), NO_ENTRY),
    // Format 11: the subagent types the host's Agent offers, each by name, source and file hash (a record names 11 only with them: `FORMAT_USES`).
    agents: since(LEDGER_FORMAT_11, v.optional(v.pipe(v.array(AgentTypeRecord), v.minLength(1))), NO_ENTRY),
    files: FileRefs.any,
  },
  /** One model request: its payload, the tools and mapping it showed, the method adopted, what it disclosed (format 4: the task's own fields instead). */
  request: {
    request_id: v.string(),
    index: Count,
    payload: WrittenFileRecord,
    // Format 8: a deferred tool's entry says `deferred: true`.
    tools: since(LEDGER_FORMAT_8, v.array(IntentToolRecord8), v.array(IntentToolRecord)),
    mapping_tag: v.string(),
    method: v.unknown(),
    // From format 4 a task's own field (`Task.requestFields`; the excerpt's recheck reads it).
    disclosed_sources: since(LEDGER_FORMAT_4, NO_ENTRY, v.array(v.string())),
    // Format 8, in a run that defers: the deferred tools the payload disclosed, and the bytes of the definitions it shows (verify recomputes both from the payload).
    disclosed_tools: since(LEDGER_FORMAT_8, v.optional(v.array(v.string())), NO_ENTRY),
    visible_tool_bytes: since(LEDGER_FORMAT_8, v.optional(Count), NO_ENTRY),
    // Format 9, in skill tool mode: the names the payload's <skills> block lists (verify reads them again from the payload).
    skill_catalog: since(LEDGER_FORMAT_9, v.optional(v.array(v.string())), NO_ENTRY),
    // Format 11: the subagent whose loop made it (absent: the run's own loop).
    agent_id: since(LEDGER_FORMAT_11, v.optional(v.string()), NO_ENTRY),
    files: FileRefs.requestPayload,
  },
  /** The model's answer to a request (its file, label, usage, stop reason)… */
  response: {
    request_id: v.string(),
    files: FileRefs.modelResponse,
    scripted: v.boolean(),
    // Format 4: a replayed response says so (`scripted: false` with it); its usage is the file's.
    origin: since(LEDGER_FORMAT_4, v.optional(v.literal('replayed')), NO_ENTRY),
    usage: since(LEDGER_FORMAT_4, UsageRecord4, UsageRecord),
    // Format 4: every stop reason a replayed provider response may carry (as the Messages API names them).
    stop_reason: since(LEDGER_FORMAT_4, v.picklist(['end_turn', 'tool_use', 'max_tokens', 'stop_sequence', 'refusal', 'model_context_window_exceeded']), v.picklist(['tool_use', 'end_turn'])),
    agent_id: since(LEDGER_FORMAT_11, v.optional(v.string()), NO_ENTRY),
  },
  /** …or that there was none. */
  response_missing: {
    request_id: v.string(),
    missing: v.literal(true),
    reason: v.string(),
    agent_id: since(LEDGER_FORMAT_11, v.optional(v.string()), NO_ENTRY),
  },
  /** One tool call: ids, transport and exchange, arguments at each step, stages, hooks, permission, outcome. */
  call: {
    request_id: v.string(),
    tool_call_id: v.string(),
    action_id: v.string(),
    jsonrpc_id: v.nullable(v.union([v.string(), v.number()])),
    via: since(LEDGER_FORMAT_4, v.picklist(['mcp', 'local', 'host', 'not_executed']), v.picklist(['mcp', 'local', 'not_executed'])),
    // Format 7: an exchange over Streamable HTTP (`mcp-http`).
    protocol: since(LEDGER_FORMAT_7, v.nullable(ProtocolRecord7), v.nullable(ProtocolRecord)),
    name: v.string(),
    binding_id: v.nullable(Sha256),
    arguments: ArgumentsRecord,
    stages: v.array(StageRecord),
    hooks: v.array(HookResultRecord),
    permission: v.nullable(PermissionRecord),
    handler_entered: v.boolean(),
    outcome: OutcomeRecord,
    /** The tool's own text block of the tool_result (before format 4). */
    model_text_sha256: since(LEDGER_FORMAT_4, NO_ENTRY, Sha256),
    /** The tool's own result blocks of the tool_result (`contentSha256`), from format 4. */
    model_content_sha256: since(LEDGER_FORMAT_4, Sha256, NO_ENTRY),
    /** Hook blocks after it, one hash each. */
    hook_text_sha256: since(LEDGER_FORMAT_3, v.optional(v.pipe(v.array(Sha256), v.minLength(1)))),
    /** Its full output; from format 6 also its result data (`call_result`). */
    files: since(LEDGER_FORMAT_6, v.optional(FileRefs.callFiles), v.optional(FileRefs.fullOutput)),
    agent_id: since(LEDGER_FORMAT_11, v.optional(v.string()), NO_ENTRY),
    /** Format 12: a call made as an MCP task — its receipt, transitions, polls, cancel and tasks/result exchange. */
    task: since(LEDGER_FORMAT_12, v.optional(TaskTraceRecord), NO_ENTRY),
  },
  /** Format 11: a subagent starts, under the parent's Agent call (its action and tool_use ids): its type and source, its tools, its prompt's hash, the call's fields not applied. */
  subagent_start: {
    agent_id: v.string(),
    action_id: v.string(),
    tool_call_id: v.string(),
    request_id: v.string(),
    agent_type: v.string(),
    source: AgentTypeRecord,
    tools: v.array(v.string()),
    description: v.string(),
    prompt_sha256: Sha256,
    recorded: v.strictObject({ model: v.optional(v.string()), effort: v.optional(v.string()), name: v.optional(v.string()) }),
    not_applied: v.array(v.string()),
    /** What SubagentStart hooks returned as additionalContext (recorded, not applied). */
    additional_context: v.optional(v.array(v.string())),
  },
  /** Format 11: a subagent's end, before the parent's Agent call: how it stopped, its counts, its final text's hash. */
  subagent_end: {
    agent_id: v.string(),
    stop: v.picklist(['final_answer', 'script_exhausted', 'max_requests', 'max_calls', 'failed', 'interrupted']),
    requests: Count,
    tool_calls: Count,
    final_text_sha256: v.nullable(Sha256),
    reason: v.optional(v.string()),
  },
  /** The verdict: the checks and whether the run is accepted; a task adds its own fields (read by its own schema). */
  acceptance: {
    accepted: v.boolean(),
    checks: v.array(CheckRecord),
    files: v.optional(FileRefs.any),
  },
  /** The run's last event: how it ended, and for a run that reached the loop's end, its counts. */
  run_end: {
    accepted: v.boolean(),
    // 130/143: interrupted by SIGINT/SIGTERM (128 + the signal number), as the process exits.
    exit_code: v.picklist([0, 1, 3, 4, 130, 143]),
    ending: v.picklist(ENDINGS),
    cause: v.optional(v.pipe(v.string(), v.minLength(1))),
    summary: v.optional(v.string()),
    stop: v.optional(v.picklist(['final_answer', 'script_exhausted', 'max_requests', 'interrupted', 'failed'])),
    requests: v.optional(Count),
    tool_calls: v.optional(Count),
    /** The tool provider's own report of its close (its shape), or null. */
    transport_close: v.optional(v.unknown()),
    orphans: v.optional(OrphanRecord),
    /** Files a failed run left behind that no event vouched for (`left_by_failure`). */
    files: v.optional(FileRefs.any),
    /** A replayed run's use of its file (format 4). */
    replay: since(LEDGER_FORMAT_4, v.optional(v.strictObject({ lines_used: Count, lines_unused: Count })), NO_ENTRY),
    /** Each configured server after the tools closed (format 5): its close, `list_changed` and re-lists, stderr's tail. */
    servers: since(LEDGER_FORMAT_5, v.optional(v.array(ServerEndRecord)), NO_ENTRY),
    format: NAMED_FORMAT,
  },
  /** Format 10: a package a successful call's touch made visible to the catalog of the requests after it (a catalog line; it grants nothing). */
  skill_visible: {
    name: since(LEDGER_FORMAT_10, v.string(), v.never()),
    hash: since(LEDGER_FORMAT_10, Sha256, v.never()),
    origin: since(LEDGER_FORMAT_10, SkillOriginRecord, v.never()),
    /** The call whose touch made it visible. */
    action_id: since(LEDGER_FORMAT_10, v.string(), v.never()),
    /** The touched path, relative to the run's cwd. */
    path: since(LEDGER_FORMAT_10, v.string(), v.never()),
    /** `paths`: a held package's glob matched the path; `nested`: it is in a nested `.claude/skills/` above the path. */
    via: since(LEDGER_FORMAT_10, v.picklist(['paths', 'nested']), v.never()),
    glob: since(LEDGER_FORMAT_10, v.optional(v.string()), v.never()),
    /** Nested: the folder (relative to cwd) whose `.claude/skills/` held it. */
    folder: since(LEDGER_FORMAT_10, v.optional(v.string()), v.never()),
    /** Nested: the package itself, as run_start records one. */
    package: since(LEDGER_FORMAT_10, v.optional(SkillPackageRecord), v.never()),
  },
  /** Format 10: what a nested `.claude/skills/` found on a touch held beyond the packages it made visible. */
  skill_found: {
    action_id: since(LEDGER_FORMAT_10, v.string(), v.never()),
    path: since(LEDGER_FORMAT_10, v.string(), v.never()),
    folder: since(LEDGER_FORMAT_10, v.string(), v.never()),
    held: since(LEDGER_FORMAT_10, v.array(SkillFoundHeldRecord), v.never()),
    refused: since(LEDGER_FORMAT_10, v.array(SkillFoundRefusedRecord), v.never()),
    skipped: since(LEDGER_FORMAT_10, v.array(SkillFoundSkippedRecord), v.never()),
  },
};

type Described = typeof EVENTS;
type Variant = keyof Described;

/**
 * Variants whose records keep fields the ledger does not name — a task's own
 * fields — and the format from which they do: acceptance always, run_start and
 * request from format 4 (`Task.start`, `Task.requestFields`).
 */
const OPEN: { readonly [V in Variant]?: RecordFormat } = { acceptance: LEDGER_FORMAT_2, run_start: LEDGER_FORMAT_4, request: LEDGER_FORMAT_4 };
type Open<V extends Variant, F extends RecordFormat> = V extends 'acceptance' ? true : V extends 'run_start' | 'request' ? (F extends From<typeof LEDGER_FORMAT_4> ? true : false) : false;
const isOpen = (variant: Variant, format: RecordFormat): boolean => {
  const from = OPEN[variant];
  return from !== undefined && KNOWN_FORMATS.indexOf(format) >= KNOWN_FORMATS.indexOf(from);
};
/** A ledger event type, and the variants (field sets) an event of it may have. */
const VARIANTS = { run_start: ['run_start'], request: ['request'], response: ['response', 'response_missing'], call: ['call'], subagent_start: ['subagent_start'], subagent_end: ['subagent_end'], acceptance: ['acceptance'], run_end: ['run_end'], skill_visible: ['skill_visible'], skill_found: ['skill_found'] } as const;
export type EventType = keyof typeof VARIANTS;
/** Every event type, in the order a run writes them. */
export const EVENT_TYPES: readonly EventType[] = Object.keys(VARIANTS) as EventType[];
/** Event types a later format added: no line of them is an event of a format before it (each field is `v.never()` there). */
const TYPE_SINCE: { readonly [T in EventType]?: RecordFormat } = { skill_visible: LEDGER_FORMAT_10, skill_found: LEDGER_FORMAT_10, subagent_start: LEDGER_FORMAT_11, subagent_end: LEDGER_FORMAT_11 };
/** The event types a record of `format` may hold (the committed JSON Schema of a format lists these only). */
export function eventTypesOf(format: RecordFormat): readonly EventType[] {
  return EVENT_TYPES.filter((type) => TYPE_SINCE[type] === undefined || isFormatFrom(format, TYPE_SINCE[type]));
}

// A field the format has no entry for (`NO_ENTRY`) is no key of its schema.
type DataEntries<V extends Variant, F extends RecordFormat> = Extract<{ -readonly [K in keyof Described[V] as Field<Described[V][K], F> extends NoEntry ? never : K]: Field<Described[V][K], F> }, v.ObjectEntries>;
type DataSchema<V extends Variant, F extends RecordFormat> = Open<V, F> extends true
  ? v.ObjectWithRestSchema<DataEntries<V, F>, v.UnknownSchema, undefined>
  : v.StrictObjectSchema<DataEntries<V, F>, undefined>;
type Envelope<T extends EventType> = { seq: typeof Count; type: v.LiteralSchema<T, undefined>; at: v.StringSchema<undefined>; prev: typeof Sha256 };
type LineEntries<T extends EventType, V extends Variant, F extends RecordFormat> = Extract<Envelope<T> & DataEntries<V, F>, v.ObjectEntries>;
type LineSchema<T extends EventType, V extends Variant, F extends RecordFormat> = Open<V, F> extends true
  ? v.ObjectWithRestSchema<LineEntries<T, V, F>, v.UnknownSchema, undefined>
  : v.StrictObjectSchema<LineEntries<T, V, F>, undefined>;
type Variants<T extends EventType> = (typeof VARIANTS)[T][number];

type LineOf<T extends EventType, F extends RecordFormat> = { [V in Variants<T>]: v.InferOutput<LineSchema<T, V, F>> }[Variants<T>];

/** One format's schemas: per event type, what a writer passes (`data`) and what a line is (`line`), per variant. */
export type FormatSchemas<F extends RecordFormat> = {
  readonly [T in EventType]: {
    readonly data: { readonly [V in Variants<T>]: DataSchema<V, F> };
    /** What a line of it is: the envelope and the data, of one of its variants. */
    readonly line: v.GenericSchema<unknown, LineOf<T, F>>;
  };
};

function objectOf(variant: Variant, format: RecordFormat, entries: v.ObjectEntries): v.GenericSchema {
  return isOpen(variant, format) ? v.objectWithRest(entries, v.unknown()) : v.strictObject(entries);
}

/** A variant's entries in `format`: each described field resolved, those it has no entry for left out. */
function entriesOf(variant: Variant, format: RecordFormat): v.ObjectEntries {
  const resolved = Object.entries(EVENTS[variant]).map(([key, field]) => [key, resolveField(field, format)] as const);
  return Object.fromEntries(resolved.filter((entry): entry is readonly [string, v.GenericSchema] => entry[1] !== NO_ENTRY));
}

/** Builds one format's schemas from the description. */
function schemasOf<F extends RecordFormat>(format: F): FormatSchemas<F> {
  const out: Record<string, { data: Record<string, v.GenericSchema>; line: v.GenericSchema }> = {};
  for (const type of EVENT_TYPES) {
    if (!eventTypesOf(format).includes(type)) {
      out[type] = { data: {}, line: v.never() };
      continue;
    }
    const data: Record<string, v.GenericSchema> = {};
    const lines: v.GenericSchema[] = [];
    for (const variant of VARIANTS[type]) {
      const entries = entriesOf(variant, format);
      data[variant] = objectOf(variant, format, entries);
      lines.push(objectOf(variant, format, { seq: Count, type: v.literal(type), at: v.string(), prev: Sha256, ...entries }));
    }
    out[type] = { data, line: lines.length === 1 ? lines[0]! : v.union(lines) };
  }
  return out as unknown as FormatSchemas<F>;
}

/** Event types whose records may carry a task's own fields (see `OPEN`). */
export type TaskFieldsEvent = 'run_start' | 'request' | 'acceptance';

/**
 * The keys the ledger itself names for an event of `type` in `format`
 * (envelope included), when that event is open to a task's own fields there;
 * undefined when it is not, since its strict schema already refused any other key.
 */
export function ledgerKeys(type: TaskFieldsEvent, format: RecordFormat): readonly string[] | undefined {
  if (!isOpen(type, format)) return undefined;
  return ['seq', 'type', 'at', 'prev', ...Object.keys(entriesOf(type, format))];
}

/** Every known format's schemas, derived from the one description above. */
export const EVENT_SCHEMAS: { readonly [F in RecordFormat]: FormatSchemas<F> } = {
  [LEDGER_FORMAT_2]: schemasOf(LEDGER_FORMAT_2),
  [LEDGER_FORMAT_3]: schemasOf(LEDGER_FORMAT_3),
  [LEDGER_FORMAT_4]: schemasOf(LEDGER_FORMAT_4),
  [LEDGER_FORMAT_5]: schemasOf(LEDGER_FORMAT_5),
  [LEDGER_FORMAT_6]: schemasOf(LEDGER_FORMAT_6),
  [LEDGER_FORMAT_7]: schemasOf(LEDGER_FORMAT_7),
  [LEDGER_FORMAT_8]: schemasOf(LEDGER_FORMAT_8),
  [LEDGER_FORMAT_9]: schemasOf(LEDGER_FORMAT_9),
  [LEDGER_FORMAT_10]: schemasOf(LEDGER_FORMAT_10),
  [LEDGER_FORMAT_11]: schemasOf(LEDGER_FORMAT_11),
  [LEDGER_FORMAT_12]: schemasOf(LEDGER_FORMAT_12),
};

type DataOf<T extends EventType, F extends RecordFormat> = { [V in Variants<T>]: v.InferInput<DataSchema<V, F>> }[Variants<T>];

/**
 * What a writer passes for an event of type `K` (without the envelope the
 * ledger sets: seq, type, at, prev; nor `run_end.format`, which the run dir names).
 */
export type EventInput<K extends EventType> = Frozen<K extends 'run_end' ? Omit<DataOf<K, Newest>, 'format'> : DataOf<K, Newest>>;

/** An event of type `K` as `verify` parsed it, from a record of any known format. */
export type Event<K extends EventType = EventType> = { [T in K]: { [F in RecordFormat]: Frozen<LineOf<T, F>> }[RecordFormat] }[K];

/**
 * What a record must use to name each format above the base one: the shapes
 * that format added, as a test on the parsed events.
 */
export const FORMAT_USES: { readonly [F in Exclude<RecordFormat, typeof LEDGER_FORMAT_2>]: { readonly shapes: string; used(events: readonly Event[]): boolean } } = {
  [LEDGER_FORMAT_3]: {
    shapes: 'hook blocks, a plain method',
    used: (events) => events.some((e) => (e.type === 'call' && e.hook_text_sha256 !== undefined) || (e.type === 'run_start' && v.is(PlainMethodRecord, e.method))),
  },
  // Every run names format 4, and its run_start names the task (its schema requires it).
  [LEDGER_FORMAT_4]: {
    shapes: 'the task in run_start',
    used: (events) => events.some((e) => e.type === 'run_start' && 'task' in e),
  },
  // Only a run with configured servers names format 5: its run_start lists them (at least one).
  [LEDGER_FORMAT_5]: {
    shapes: 'configured servers in run_start',
    used: (events) => events.some((e) => e.type === 'run_start' && 'servers' in e),
  },
  // Only a run whose task keeps results names format 6: its run_start references the scenario it ran, and its calls their results.
  [LEDGER_FORMAT_6]: {
    shapes: 'a scenario copy in run_start, call result files',
    used: (events) => events.some((e) => (e.type === 'run_start' && e.files.some((f) => f.role === 'scenario')) || (e.type === 'call' && (e.files ?? []).some((f) => f.role === 'call_result'))),
  },
  // Only a run whose tools carry a server reached over HTTP names format 7: a binding's, a configured server's or run_start.server's endpoint.
  [LEDGER_FORMAT_7]: {
    shapes: 'a server reached over HTTP',
    used: (events) => events.some((e) => e.type === 'run_start' && startUsesHttp(e)),
  },
  // Only a run that defers tools names format 8: its run_start lists the defer rules (at least one).
  [LEDGER_FORMAT_8]: {
    shapes: 'deferred tools',
    used: (events) => events.some((e) => e.type === 'run_start' && 'defer' in e && e.defer !== undefined),
  },
  // Only a run in skill tool mode names format 9: its run_start says so.
  [LEDGER_FORMAT_9]: {
    shapes: 'skill tool mode',
    used: (events) => events.some((e) => e.type === 'run_start' && 'skill_mode' in e && e.skill_mode === 'tool'),
  },
  // Only a run in skill tool mode names format 10 (from dynamic discovery on): its run_start records the packages Skill may serve.
  [LEDGER_FORMAT_10]: {
    shapes: 'skill tool mode with package identity and dynamic discovery',
    used: (events) => events.some((e) => e.type === 'run_start' && 'skill_packages' in e && e.skill_packages !== undefined),
  },
  // Only a run that offers the host's Agent names format 11: its run_start lists the subagent types (at least one).
  [LEDGER_FORMAT_11]: {
    shapes: 'subagents',
    used: (events) => events.some((e) => e.type === 'run_start' && 'agents' in e && e.agents !== undefined),
  },
  // Only a run with a tool that completes in the background names format 12: a binding of its run_start says how.
  [LEDGER_FORMAT_12]: {
    shapes: 'background completion (MCP tasks)',
    used: (events) => events.some((e) => e.type === 'run_start' && e.bindings.some((b) => 'completion' in b.contract && b.contract.completion !== undefined)),
  },
};

/** Whether a run_start records a server reached over HTTP: in a binding, a configured server's identity, or run_start.server. */
function startUsesHttp(start: Event<'run_start'>): boolean {
  const http = (endpoint: unknown): boolean => v.is(HttpEndpointRecord, endpoint);
  // Read as format 7 reads them: before it, no endpoint is HTTP, and `servers` may be a task's own field.
  const servers: readonly unknown[] = 'servers' in start && Array.isArray(start.servers) ? start.servers : [];
  return (
    (start.server !== null && 'url' in start.server) ||
    start.bindings.some((binding) => binding.server !== undefined && 'endpoint' in binding.server && http(binding.server.endpoint)) ||
    servers.some((server) => v.is(v.looseObject({ identity: v.looseObject({ endpoint: HttpEndpointRecord }) }), server))
  );
}

/** The call event, as parsed (the one description of a call in the record). */
export type CallEvent = Event<'call'>;
