/**
 * The records ledger events are made of, as valibot schemas (`events.ts`
 * assembles the events from them). Each mirrors the type of the layer that
 * produces it — a binding, a hook's result, a permission decision, a protocol
 * exchange — and the writers' types must be assignable to it, so `tsc` ties
 * the two together; the ledger imports no layer above `contract`.
 * Records whose shape belongs to another layer and that the ledger only
 * carries (a method package's record, a provider's close report) are open.
 */
import * as v from 'valibot';
import { ERROR_CLASSES, type Basis } from '../contract/index.ts';

/** A lowercase hex sha256. */
export const Sha256 = v.pipe(v.string(), v.regex(/^[0-9a-f]{64}$/));

/** A size or a count: a non-negative integer. */
export const Count = v.pipe(v.number(), v.safeInteger(), v.minValue(0));

/** A field a format does not have: absent, whatever the value (see `since` in events.ts). */
export const ABSENT = v.optional(v.never());

/** A JSON object carried whole (a JSON Schema, a contract's fills): its members are the producer's. */
export const JsonObject = v.record(v.string(), v.unknown());

const fileRef = <R extends v.GenericSchema<string>>(role: R) => v.strictObject({ role, path: v.string(), sha256: Sha256, bytes: Count });

/**
 * Files an event vouches for, as `fileRefsOf` (format.ts) reads them: any
 * role of the reference rule's form, or the one role the host gives a kind of file.
 */
export const FileRefs = {
  any: v.array(fileRef(v.pipe(v.string(), v.regex(/^[a-z][a-z0-9_]{0,63}$/)))),
  requestPayload: v.array(fileRef(v.literal('request_payload'))),
  modelResponse: v.array(fileRef(v.literal('model_response'))),
  fullOutput: v.array(fileRef(v.literal('full_output'))),
  /** A call's files from format 6: its full output, its result data. */
  callFiles: v.array(fileRef(v.picklist(['full_output', 'call_result']))),
};

/** A file written by the run dir itself (`WrittenFile`): path, sha256, size. */
export const WrittenFileRecord = v.strictObject({ path: v.string(), sha256: Sha256, bytes: Count });

const BASES = ['spec MUST', 'spec SHOULD', 'caplab host rule'] as const satisfies readonly Basis[];

/** What a server says it is and how it was launched (binding's `ServerIdentity` before format 4). */
export const ServerIdentityRecord = v.strictObject({
  name: v.string(),
  version: v.string(),
  protocolVersion: v.string(),
  launch: v.array(v.string()),
  cwd: v.string(),
  envNames: v.array(v.string()),
  instanceId: v.string(),
});

/** A server reached over stdio (binding's `StdioEndpoint`): its launch argv, cwd and environment names. */
const StdioEndpointRecord = v.strictObject({ kind: v.literal('stdio'), argv: v.array(v.string()), cwd: v.string(), envNames: v.array(v.string()) });

/**
 * A binding's server from format 4 (binding's `ServerIdentity`): the host's
 * key for it, what it says it is, and the endpoint it was reached at.
 */
export const KeyedServerRecord = v.strictObject({
  key: v.string(),
  name: v.string(),
  version: v.string(),
  protocolVersion: v.string(),
  endpoint: StdioEndpointRecord,
  instanceId: v.string(),
});

/**
 * A server reached over Streamable HTTP (binding's `HttpEndpoint`, format 7):
 * the URL connected to and the names of the headers sent; no header value.
 */
export const HttpEndpointRecord = v.strictObject({ kind: v.literal('http'), url: v.string(), headerNames: v.array(v.string()) });

/** A binding's server from format 7: as in format 4, reached over stdio or over HTTP. */
export const KeyedServerRecord7 = v.strictObject({ ...KeyedServerRecord.entries, endpoint: v.variant('kind', [StdioEndpointRecord, HttpEndpointRecord]) });

/** The server a run's tools came from, as run_start records it (harness's `StdioServerReport`). */
export const ServerRecord = v.strictObject({
  serverInfo: v.strictObject({ name: v.string(), version: v.string() }),
  protocolVersion: v.string(),
  launch: v.array(v.string()),
  cwd: v.string(),
  envNames: v.array(v.string()),
  instanceId: v.string(),
  gaps: v.array(v.string()),
});

/**
 * The server a run's tools came from from format 7 (harness's
 * `ServerReport`): launched over stdio as before, or reached over HTTP — its
 * URL, header names, and the session id it issued by sha256 only.
 */
export const ServerRecord7 = v.union([
  ServerRecord,
  v.strictObject({
    serverInfo: v.strictObject({ name: v.string(), version: v.string() }),
    protocolVersion: v.string(),
    url: v.string(),
    headerNames: v.array(v.string()),
    sessionSha256: v.optional(Sha256),
    instanceId: v.string(),
    gaps: v.array(v.string()),
  }),
]);

/** What a binding records of its contract (binding's `BoundContract`). */
const CONTRACT_ENTRIES = {
  name: v.string(),
  version: v.string(),
  description: v.string(),
  discovery: v.string(),
  effect: v.picklist(['read', 'create', 'update', 'external']),
  identity: v.string(),
  attributes: v.strictObject({ readOnly: v.boolean(), destructive: v.boolean(), idempotent: v.boolean(), concurrencySafe: v.boolean(), openWorld: v.boolean() }),
  limits: v.strictObject({ timeoutMs: Count, maxResultBytes: Count }),
  preconditions: v.array(v.string()),
  completionEvidence: v.string(),
  errorClasses: v.array(v.picklist(ERROR_CLASSES)),
  schema: JsonObject,
  schemaHash: Sha256,
  resultSchema: JsonObject,
  resultSchemaHash: Sha256,
  fills: JsonObject,
};

/** A binding of a record (binding's `Binding`): everything but `id` is what the id hashes; its implementation kinds, server shape and contract are the format's. */
const bindingRecord = <K extends v.GenericSchema, S extends v.GenericSchema, C extends v.GenericSchema, E extends v.ObjectEntries>(kind: K, server: S, contract: C, extra: E) => v.strictObject({
  id: Sha256,
  tool: v.string(),
  contract,
  model: v.strictObject({ target: v.picklist(['plain', 'strict', 'anthropic']), schema: JsonObject, schemaHash: Sha256 }),
  conversion: v.strictObject({ arguments: v.string(), result: v.string() }),
  implementation: v.strictObject({ kind, version: v.string() }),
  server: v.optional(server),
  gaps: v.array(v.string()),
  ...extra,
});
/** A binding before format 4: local or MCP, its server by launch. */
export const BindingRecord = bindingRecord(v.picklist(['local', 'mcp']), ServerIdentityRecord, v.strictObject(CONTRACT_ENTRIES), {});
/** A binding from format 4: a host built-in too, its server by key and endpoint. */
export const BindingRecord4 = bindingRecord(v.picklist(['local', 'mcp', 'host']), KeyedServerRecord, v.strictObject(CONTRACT_ENTRIES), {});
/**
 * A binding from format 5: a configured server's tool may record its full
 * name and the model name the tool-name rule made of it (`naming`: the full
 * name and the rule's version), and the annotations its server listed,
 * kept as hints only (`contract.hints`).
 */
export const BindingRecord5 = bindingRecord(
  v.picklist(['local', 'mcp', 'host']),
  KeyedServerRecord,
  v.strictObject({ ...CONTRACT_ENTRIES, hints: v.optional(JsonObject) }),
  { naming: v.optional(v.strictObject({ full: v.string(), rule: v.string() })) },
);
/** A binding from format 7: format 5's, its server reached over stdio or over HTTP (`KeyedServerRecord7`). */
export const BindingRecord7 = bindingRecord(
  v.picklist(['local', 'mcp', 'host']),
  KeyedServerRecord7,
  v.strictObject({ ...CONTRACT_ENTRIES, hints: v.optional(JsonObject) }),
  { naming: v.optional(v.strictObject({ full: v.string(), rule: v.string() })) },
);

/** A background contract's completion as its binding records it (contract's `BackgroundCompletion`). */
export const CompletionRecord = v.strictObject({
  mode: v.literal('background'),
  support: v.picklist(['required', 'optional']),
  receipt: v.strictObject({ handle: v.string(), recordedWith: v.array(v.string()) }),
  query: v.strictObject({ request: v.string(), statuses: v.strictObject({ all: v.array(v.string()), final: v.array(v.string()) }), version: v.string(), unknown: v.string() }),
  result: v.strictObject({ request: v.string() }),
  cancel: v.strictObject({ request: v.string(), proves: v.string() }),
});

/** A binding from format 12: format 7's, and a contract that completes in the background says how (`contract.completion`). */
export const BindingRecord12 = bindingRecord(
  v.picklist(['local', 'mcp', 'host']),
  KeyedServerRecord7,
  v.strictObject({ ...CONTRACT_ENTRIES, hints: v.optional(JsonObject), completion: v.optional(CompletionRecord) }),
  { naming: v.optional(v.strictObject({ full: v.string(), rule: v.string() })) },
);

/** A failure as a server's record names it (harness's `FailureRecord`). */
export const FailureRecord = v.strictObject({ class: v.string(), kind: v.string(), message: v.string() });

/** One tool a configured server listed (harness's `ListedToolRecord`): bound under its model name and binding, or unbound and why. */
export const ListedToolRecord = v.variant('status', [
  v.strictObject({ name: v.string(), status: v.literal('bound'), model_name: v.string(), binding_id: Sha256 }),
  v.strictObject({ name: v.string(), status: v.literal('unbound'), failure: FailureRecord }),
]);

/** One configured server as run_start records it (harness's `ServerStart`), started or not. */
export const ServerStartRecord = v.strictObject({
  key: v.string(),
  config_key: v.optional(v.string()),
  status: v.picklist(['started', 'failed']),
  identity: v.optional(KeyedServerRecord),
  failure: v.optional(FailureRecord),
  tools: v.array(ListedToolRecord),
  notices: v.array(v.string()),
});

/**
 * One configured server as run_start records it from format 7: its identity
 * may be reached over HTTP, and such a server's session id (`Mcp-Session-Id`
 * issued at initialize) is recorded only as the sha256 of its bytes
 * (`session_sha256`); absent over stdio, or when the server issued none.
 */
export const ServerStartRecord7 = v.strictObject({ ...ServerStartRecord.entries, identity: v.optional(KeyedServerRecord7), session_sha256: v.optional(Sha256) });

/** A re-list after `notifications/tools/list_changed` (harness's `RelistRecord`). */
export const RelistRecord = v.strictObject({
  outcome: v.picklist(['unchanged', 'changed', 'failed']),
  changed: v.array(v.string()),
  removed: v.array(v.string()),
  added: v.array(v.string()),
  failure: v.optional(FailureRecord),
});

/** One configured server as run_end records it after it closed (harness's `ServerEnd`): its close report (open: the transport's shape) or null. */
export const ServerEndRecord = v.strictObject({
  key: v.string(),
  close: v.unknown(),
  list_changed: v.strictObject({ seen: Count, relists: v.array(RelistRecord) }),
  stderr: v.string(),
});

/** A hook the run was configured with. */
export const HookRecord = v.strictObject({ name: v.string(), event: v.picklist(['PreToolUse', 'PostToolUse']), matcher: v.string() });
/** Format 11: a settings hook of a subagent event too (its matcher names agent types). */
export const HookRecord11 = v.strictObject({ name: v.string(), event: v.picklist(['PreToolUse', 'PostToolUse', 'SubagentStart', 'SubagentStop']), matcher: v.string() });

/** The startup snapshot: its id and each source by id, sha256 and size. */
export const SnapshotRecord = v.strictObject({ id: v.string(), sources: v.array(v.strictObject({ id: v.string(), sha256: Sha256, bytes: Count })) });

/** A method package's record (run_start): the skill layer's own shape, named by `name`. */
export const MethodRecord = v.looseObject({});
/** A plain Agent Skills package's record (format 3): `plain: true`, its name, its body by sha256 and size. */
export const PlainMethodRecord = v.looseObject({ plain: v.literal(true), name: v.string(), body: v.looseObject({ sha256: v.string(), bytes: Count }) });

/** One exposed tool of a request (harness's `IntentTool`). */
export const IntentToolRecord = v.strictObject({
  name: v.string(),
  binding_id: Sha256,
  schema_hash: Sha256,
  model_schema_hash: Sha256,
  target: v.picklist(['plain', 'strict', 'anthropic']),
});
/** Format 8: a deferred tool's entry says so (sent with `defer_loading: true`); no other says `deferred`. */
export const IntentToolRecord8 = v.strictObject({ ...IntentToolRecord.entries, deferred: v.optional(v.literal(true)) });

/** Usage numbers of a response; `synthetic` whenever they were not measured. */
export const UsageRecord = v.strictObject({ input_tokens: Count, output_tokens: Count, synthetic: v.boolean() });
/**
 * Usage from format 4: a scripted response's is synthetic; a replayed one's
 * is the file's `usage` object as read (cache counts and any other field the
 * provider added), never marked synthetic.
 */
export const UsageRecord4 = v.union([
  v.strictObject({ input_tokens: Count, output_tokens: Count, synthetic: v.literal(true) }),
  v.looseObject({ input_tokens: Count, output_tokens: Count, cache_creation_input_tokens: v.optional(v.nullable(Count)), cache_read_input_tokens: v.optional(v.nullable(Count)), synthetic: ABSENT }),
]);

/** The model of a run from format 4: scripted, or replayed from a file named by its path, sha256, size and lines. */
export const ModelRecord4 = v.variant('scripted', [
  v.strictObject({ name: v.string(), scripted: v.literal(true) }),
  v.strictObject({ name: v.string(), scripted: v.literal(false), origin: v.literal('replayed'), replay: v.strictObject({ file: v.string(), sha256: Sha256, bytes: Count, lines: Count }) }),
]);

/** The MCP exchange behind a call (pipeline's `ProtocolExchange`). */
export const ProtocolRecord = v.strictObject({
  transport: v.literal('mcp-stdio'),
  server: v.string(),
  method: v.string(),
  jsonrpcId: v.union([v.string(), v.number()]),
  requestBytes: Count,
  responseBytes: Count,
  isError: v.boolean(),
});

/** The MCP exchange behind a call from format 7: over stdio or over Streamable HTTP (`mcp-http`). */
export const ProtocolRecord7 = v.strictObject({ ...ProtocolRecord.entries, transport: v.picklist(['mcp-stdio', 'mcp-http']) });

/**
 * A call made as an MCP task, from format 12 (pipeline's `TaskTrace`): the
 * receipt, each status as first seen, the `tasks/get` count, the one cancel
 * and the `tasks/result` exchange. The server's strings in it (times,
 * versions, messages) are cut at `evidenceChars` by the writer.
 */
export const TaskTraceRecord = v.strictObject({
  taskId: v.nullable(v.string()),
  receipt: v.nullable(v.strictObject({ status: v.string(), createdAt: v.string(), ttl: v.nullable(v.number()), pollInterval: v.optional(v.number()), acceptedAt: v.string(), ms: Count })),
  transitions: v.array(v.strictObject({ status: v.string(), lastUpdatedAt: v.string(), statusMessage: v.optional(v.string()), at: v.string(), ms: Count })),
  polls: Count,
  cancel: v.nullable(
    v.strictObject({
      at: v.string(),
      ms: Count,
      answer: v.union([v.strictObject({ status: v.string() }), v.strictObject({ error: v.strictObject({ code: v.number(), message: v.string() }) }), v.strictObject({ failure: v.string() })]),
    }),
  ),
  result: v.nullable(v.strictObject({ jsonrpcId: v.union([v.string(), v.number()]), responseBytes: Count, related: v.boolean() })),
});

/** A call's arguments on the way to its handler (pipeline's `CallArguments`; values JSON cannot carry as stand-ins). */
export const ArgumentsRecord = v.strictObject({ original: v.unknown(), converted: v.optional(v.unknown()), filled: v.optional(v.array(v.string())), rewritten: v.optional(v.unknown()) });

/** The pipeline stages a call passes, in order (pipeline's `STAGES`); a call records those it reached. */
export const STAGES = ['resolve', 'convert', 'validate', 'pre_hooks', 'permission', 'handler', 'result_validate', 'output_limit', 'post_hooks'] as const;
/** One pipeline stage a call passed (pipeline's `StageRecord`). */
export const StageRecord = v.strictObject({ stage: v.picklist(STAGES), status: v.picklist(['ok', 'failed']), detail: v.optional(v.string()) });

/** What one hook said (pipeline's `HookResult`). */
export const HookResultRecord = v.strictObject({
  hook: v.string(),
  block: v.optional(v.string()),
  permissionDecision: v.optional(v.picklist(['allow', 'deny', 'ask'])),
  reason: v.optional(v.string()),
  updatedInput: v.optional(v.unknown()),
  exitCode: v.optional(v.number()),
  note: v.optional(v.string()),
  stdout: v.optional(v.string()),
  stderr: v.optional(v.string()),
  timedOut: v.optional(v.boolean()),
});

/** A permission decision and who made it (pipeline's `PermissionDecision`). */
export const PermissionRecord = v.strictObject({
  decision: v.picklist(['allow', 'deny']),
  by: v.picklist(['rule', 'flag', 'hook', 'default', 'policy']),
  rule: v.optional(v.string()),
  reason: v.string(),
  asked: v.optional(v.strictObject({ by: v.picklist(['rule', 'hook', 'default']), rule: v.optional(v.string()) })),
});

/** How a call ended: its evidence and data hash, or its failure (and the hash of data result_validate refused). */
export const OutcomeRecord = v.variant('ok', [
  v.strictObject({ ok: v.literal(true), evidence: v.string(), object_version: v.nullable(v.string()), data_sha256: Sha256 }),
  v.strictObject({ ok: v.literal(false), class: v.picklist(ERROR_CLASSES), kind: v.string(), message: v.string(), basis: v.optional(v.picklist(BASES)), raw_result_sha256: v.optional(Sha256) }),
]);

/** One acceptance check (harness's `AcceptanceCheck`). */
export const CheckRecord = v.strictObject({ id: v.string(), object: v.string(), condition: v.string(), evidence: v.string(), verdict: v.picklist(['pass', 'fail', 'not_verifiable']) });

const NAMED_COUNT = v.strictObject({ name: v.string(), count: Count });
/** What the end-of-run sweep for escaped processes did (platform's `OrphanReport`). */
export const OrphanRecord = v.strictObject({ subreaper: v.boolean(), killed: v.array(NAMED_COUNT), survivors: v.array(NAMED_COUNT), gap: v.optional(v.string()) });

/** Where a skill package came from (skill's `PackageOrigin`): embedded, or a folder by path. */
export const SkillOriginRecord = v.union([v.strictObject({ kind: v.literal('embedded') }), v.strictObject({ kind: v.picklist(['dir', 'project']), path: v.string() })]);
/**
 * Format 10: a package tool mode's Skill may serve, as run_start records it:
 * its identity (a staged package's hash, version and stages, a plain one's hash and
 * body sha256), origin, catalog status at start, and a held one's `paths`.
 */
export const SkillPackageRecord = v.strictObject({
  name: v.string(),
  kind: v.picklist(['staged', 'plain']),
  hash: Sha256,
  version: v.optional(v.string()),
  /** A staged package: the stages it was parsed against (the task's, in order). */
  stages: v.optional(v.array(v.string())),
  body_sha256: v.optional(Sha256),
  origin: SkillOriginRecord,
  catalog: v.picklist(['listed', 'held_by_paths']),
  paths: v.optional(v.pipe(v.array(v.string()), v.minLength(1))),
});
/** Format 10: a nested package that did not become visible at once: held by its `paths`, refused (with why), or skipped (with why). */
export const SkillFoundHeldRecord = v.strictObject({ ...SkillPackageRecord.entries, catalog: v.literal('held_by_paths'), paths: v.pipe(v.array(v.string()), v.minLength(1)) });
export const SkillFoundRefusedRecord = v.strictObject({ name: v.string(), class: v.picklist(ERROR_CLASSES), kind: v.string(), message: v.string() });
export const SkillFoundSkippedRecord = v.strictObject({ name: v.string(), reason: v.picklist(['over_limit', 'duplicate_package']), message: v.string() });
