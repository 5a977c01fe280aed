/**
 * The standing mutation list run by `npm run mutate` (scripts/mutate.ts). Each
 * entry breaks one claim of README's first section with a small edit that
 * still type-checks; the suite must turn red for every one. An entry whose
 * `find` text no longer occurs exactly once fails the run, so a refactor that
 * moves a site makes someone look at the entry again.
 */

/** README's first section, one key per bullet; `readme` is a phrase the bullet must still contain. */
export const CLAIMS = {
  contracts: { readme: 'hashed (sha256 of canonical JSON)', text: 'contracts exported as JSON Schema 2020-12 and hashed' },
  bindings: { readme: 'or refused (`binding_changed`)', text: 'a call runs under the binding it was shown or is refused (binding_changed)' },
  pipeline: { readme: 'resolve → convert → validate → PreToolUse hooks → permission', text: 'one pipeline of stages for local and MCP tools, concurrency-safe batching' },
  'mcp-client': { readme: '**strict stdio MCP client** (protocol 2025-06-18)', text: 'the strict stdio client refuses other protocol versions and stray stdout' },
  'mcp-launch': { readme: 'self-spawned with a cleaned environment and only fds 0–2', text: 'the server is spawned with a cleaned environment and only fds 0–2' },
  skills: { readme: 'they grant nothing', text: 'method packages grant nothing' },
  scripted: { readme: 'always labelled scripted; usage is synthetic', text: 'the model is always labelled scripted' },
  acceptance: { readme: 'accepts** the card only from evidence', text: 'the card is accepted only from evidence (payload bytes, file bytes, hashes)' },
  ledger: { readme: 'hash-chained ledger that `caplab verify` re-checks offline', text: 'a hash-chained ledger that verify re-checks offline' },
  // Signals and survivors (README "The run record"): what ends with caplab when no teardown runs.
  guard: { readme: 'caplab even when caplab itself is SIGKILLed', text: 'hooks, servers and probe temp cwd die with caplab even when it is SIGKILLed (its guard)' },
} as const;

export type Claim = keyof typeof CLAIMS;

export interface Mutation {
  /** Short unique name (`--only` matches it, the claim and the file). */
  readonly id: string;
  readonly claim: Claim;
  /** Path from the repo root. */
  readonly file: string;
  /** Exact text; must occur exactly once in the file. */
  readonly find: string;
  readonly replace: string;
  /** Test files to run (from the repo root); the whole suite when absent. */
  readonly tests?: readonly string[];
}

const ACCEPTANCE_TESTS = ['src/excerpt/acceptance.test.ts', 'src/harness/recheck.test.ts'];
const GUARD_TESTS = ['src/platform/guard.test.ts', 'src/cli/sigkill.test.ts'];

export const MUTATIONS: readonly Mutation[] = [
  // The seven of issue 10: each acceptance check made always-pass, and disclosure loosened.
  {
    id: 'card_hash-always-pass',
    claim: 'acceptance',
    file: 'src/excerpt/acceptance.ts',
    find: "'sha256 and size of the card bytes equal the receipt', hashed,",
    replace: "'sha256 and size of the card bytes equal the receipt', hashed || true,",
    tests: ACCEPTANCE_TESTS,
  },
  {
    id: 'quotes_verbatim-always-pass',
    claim: 'acceptance',
    file: 'src/excerpt/acceptance.ts',
    find: "'every quote is a verbatim substring of its source in the bound snapshot', verbatim,",
    replace: "'every quote is a verbatim substring of its source in the bound snapshot', verbatim || true,",
    tests: ACCEPTANCE_TESTS,
  },
  {
    id: 'snapshot_bound-always-pass',
    claim: 'acceptance',
    file: 'src/excerpt/acceptance.ts',
    find: "'the card names the host snapshot and each quoted source hash equals its snapshot hash', bound,",
    replace: "'the card names the host snapshot and each quoted source hash equals its snapshot hash', bound || true,",
    tests: ACCEPTANCE_TESTS,
  },
  {
    id: 'source_order-always-pass',
    claim: 'acceptance',
    file: 'src/excerpt/acceptance.ts',
    find: "order.join(',') === SOURCE_IDS.join(','),",
    replace: "order.join(',') === SOURCE_IDS.join(',') || true,",
    tests: ACCEPTANCE_TESTS,
  },
  {
    id: 'sources_disclosed-always-pass',
    claim: 'acceptance',
    file: 'src/excerpt/acceptance.ts',
    find: "'every quoted source was in the request that produced the create', allDisclosed,",
    replace: "'every quoted source was in the request that produced the create', allDisclosed || true,",
    tests: ACCEPTANCE_TESTS,
  },
  {
    id: 'target_fresh-always-pass',
    claim: 'acceptance',
    file: 'src/excerpt/acceptance.ts',
    find: "'the card was created new by this action (exclusive create, exactly one create)', fresh,",
    replace: "'the card was created new by this action (exclusive create, exactly one create)', fresh || true,",
    tests: ACCEPTANCE_TESTS,
  },
  {
    id: 'disclosure-anywhere-in-payload',
    claim: 'acceptance',
    file: 'src/harness/disclosure.ts',
    find: 'const texts = toolResultTexts(parsed);',
    // Every string anywhere in the payload counts (system text, error results, user text, tool_use input).
    replace: 'const texts = toolResultTexts(parsed); JSON.stringify(parsed, (_key, value: unknown) => (typeof value === \'string\' && texts.push(value), value));',
    tests: ACCEPTANCE_TESTS,
  },

  // Defects issue 10's table found beyond the seven (fixed with it).
  {
    id: 'receipt-size-ignored',
    claim: 'acceptance',
    file: 'src/excerpt/acceptance.ts',
    find: ' && card.byteLength === receipt.bytes;',
    replace: ';',
    tests: ACCEPTANCE_TESTS,
  },
  {
    id: 'card-snapshot-id-ignored',
    claim: 'acceptance',
    file: 'src/excerpt/acceptance.ts',
    find: 'const bound = parsed?.snapshotId === snapshot.id && ',
    replace: 'const bound = ',
    tests: ACCEPTANCE_TESTS,
  },
  {
    id: 'disclosure-any-role',
    claim: 'acceptance',
    file: 'src/harness/disclosure.ts',
    find: "if (role !== 'user' || !Array.isArray(content)) continue;",
    replace: "if ((role !== 'user' && false) || !Array.isArray(content)) continue;",
    tests: ACCEPTANCE_TESTS,
  },
  {
    id: 'disclosure-is_error-only-true',
    claim: 'acceptance',
    file: 'src/harness/disclosure.ts',
    find: '(b.is_error !== undefined && b.is_error !== false)',
    replace: 'b.is_error === true',
    tests: ACCEPTANCE_TESTS,
  },
  {
    id: 'verify-names-first-differing-check',
    claim: 'acceptance',
    file: 'src/harness/recheck.ts',
    find: 'differing.find((check) => JSON.stringify(check.verdict) !== recordedVerdict(check)) ?? differing[0]!',
    replace: 'differing[0]!',
    tests: ACCEPTANCE_TESTS,
  },
  {
    id: 'receipt-not-tied-to-create',
    claim: 'acceptance',
    file: 'src/excerpt/evidence.ts',
    find: 'const returned = creates.flatMap(',
    replace: 'const returned = receipt ? [canonicalHash(receipt)] : creates.flatMap(',
    tests: ACCEPTANCE_TESTS,
  },
  // contracts: JSON Schema 2020-12, hashed over canonical JSON.
  {
    id: 'canonical-json-unsorted-keys',
    claim: 'contracts',
    file: 'src/contract/canonical.ts',
    find: '.filter((key) => record[key] !== undefined)\n            .sort();',
    replace: '.filter((key) => record[key] !== undefined);',
    tests: ['src/contract/contract.test.ts'],
  },
  {
    id: 'schema-draft-07',
    claim: 'contracts',
    file: 'src/contract/schema.ts',
    find: "target: 'draft-2020-12',",
    replace: "target: 'draft-07',",
    tests: ['src/contract/contract.test.ts'],
  },
  // bindings: a call whose binding changed since the request is refused.
  {
    id: 'binding-change-ignored',
    claim: 'bindings',
    file: 'src/binding/resolve.ts',
    find: 'if (now.id !== shown.id) {',
    replace: 'if (now.id !== shown.id && now.tool !== shown.tool) {',
    tests: ['src/binding/resolve.test.ts', 'src/harness/run.test.ts'],
  },
  // pipeline: concurrency-safe batching, output limit, permission stage.
  {
    id: 'unsafe-call-joins-batch',
    claim: 'pipeline',
    file: 'src/pipeline/batch.ts',
    find: 'if (isConcurrencySafe(call) && last && isConcurrencySafe(last[0]!)) last.push(call);',
    replace: 'if (last && isConcurrencySafe(last[0]!)) last.push(call);',
    tests: ['src/pipeline/batch.test.ts'],
  },
  {
    id: 'output-limit-doubled',
    claim: 'pipeline',
    file: 'src/pipeline/output-limit.ts',
    find: 'if (bytes.byteLength <= maxBytes) return',
    replace: 'if (bytes.byteLength <= maxBytes * 2) return',
    tests: ['src/pipeline/run.test.ts'],
  },
  {
    id: 'deny-flag-ignored',
    claim: 'pipeline',
    file: 'src/pipeline/permissions/policy.ts',
    find: 'if (denyFlag) return',
    replace: 'if (denyFlag && hook) return',
    tests: ['src/pipeline/permissions/policy.test.ts'],
  },
  {
    id: 'hooks-after-permission',
    claim: 'pipeline',
    file: 'src/pipeline/stages/index.ts',
    find: 'validate, preHooks, permission, handler',
    replace: 'validate, permission, preHooks, handler',
    tests: ['src/pipeline/stages/index.test.ts', 'src/pipeline/run.test.ts'],
  },
  // mcp-client: strict 2025-06-18, nothing but JSON-RPC on stdout.
  {
    id: 'other-protocol-version-accepted',
    claim: 'mcp-client',
    file: 'src/mcp/handshake.ts',
    find: 'if (answered !== PROTOCOL_VERSION) {',
    replace: "if (answered !== PROTOCOL_VERSION && !answered.startsWith('20')) {",
    tests: ['src/mcp/handshake.test.ts'],
  },
  {
    id: 'stray-stdout-ignored',
    claim: 'mcp-client',
    file: 'src/mcp/messages.ts',
    find: "return refuse('protocol', 'framing', `non-protocol bytes on stdout: ${JSON.stringify(text.slice(0, 80))}`);",
    replace: "return ok({ type: 'notification', message: { jsonrpc: '2.0', method: 'notifications/message' } });",
    tests: ['src/mcp/messages.test.ts', 'src/mcp/client.test.ts'],
  },
  {
    id: 'padded-lines-accepted',
    claim: 'mcp-client',
    file: 'src/mcp/messages.ts',
    find: 'if (text.length === 0 || text !== text.trim()) {',
    replace: 'if (text.length === 0) {',
    tests: ['src/mcp/messages.test.ts'],
  },
  {
    id: 'unbounded-line-buffer',
    claim: 'mcp-client',
    file: 'src/mcp/framing.ts',
    find: 'if (this.#partBytes + rest.byteLength > this.#maxLineBytes) return this.#tooLarge();',
    replace: 'if (this.#partBytes + rest.byteLength > this.#maxLineBytes * 1024) return this.#tooLarge();',
    tests: ['src/mcp/framing.test.ts'],
  },
  // mcp-launch: cleaned environment, only fds 0–2.
  {
    id: 'whole-env-passed',
    claim: 'mcp-launch',
    file: 'src/base/env.ts',
    find: 'for (const name of allow) {',
    replace: 'for (const name of [...allow, ...Object.keys(source)]) {',
    tests: ['src/base/env.test.ts', 'src/mcp/launch.test.ts', 'src/pipeline/hooks/env.test.ts'],
  },
  {
    id: 'credential-names-allowed',
    claim: 'mcp-launch',
    file: 'src/base/env.ts',
    find: 'return !FORBIDDEN_ENV.test(name);',
    replace: 'return !FORBIDDEN_ENV.test(name) || name.length > 0;',
    tests: ['src/base/env.test.ts', 'src/mcp/launch.test.ts', 'src/pipeline/hooks/env.test.ts'],
  },
  {
    id: 'extra-fd-to-server',
    claim: 'mcp-launch',
    file: 'src/mcp/child.ts',
    find: "      stderr: 'pipe',\n      detached: true,",
    replace: "      stderr: 'pipe',\n      detached: true,\n      stdio: ['pipe', 'pipe', 'pipe', 'pipe'] as never,",
    tests: ['src/mcp/launch.test.ts', 'src/mcp/server.test.ts'],
  },
  // skills: a package's allowed-tools grants nothing.
  {
    id: 'allowed-tools-grant',
    claim: 'skills',
    file: 'src/skill/grant.ts',
    find: 'const callable = [...new Set(bound)].filter((tool) => permits(tool));',
    replace: 'const callable = [...new Set(bound)].filter((tool) => permits(tool) || (pkg?.allowedTools ?? []).includes(tool));',
    tests: ['src/skill/grant.test.ts'],
  },
  {
    id: 'allowed-tools-grant-in-run',
    claim: 'skills',
    file: 'src/cli/setup.ts',
    find: 'permission: (tool, hook) => policy(tool, hook),',
    replace:
      "permission: (tool, hook) => (JSON.stringify(method.value?.record ?? null).includes(`\"${tool.contract.name}\"`) ? { decision: 'allow', by: 'default', reason: 'allowed-tools' } : policy(tool, hook)),",
    tests: ['src/cli/policy.test.ts'],
  },
  // scripted: the model is labelled scripted wherever a run is reported.
  {
    id: 'report-not-labelled-scripted',
    claim: 'scripted',
    file: 'src/harness/report.ts',
    find: '    scripted: true,\n    model: `scripted:${scenario}`,',
    replace: '    scripted: false,\n    model: `scripted:${scenario}`,',
    tests: ['src/cli/run-command.test.ts'],
  },
  {
    id: 'responses-not-labelled-scripted',
    claim: 'scripted',
    file: 'src/harness/scenario.ts',
    find: "return { id, scripted: true, content, stop_reason: 'tool_use', usage };",
    replace: "return { id, scripted: false, content, stop_reason: 'tool_use', usage };",
    tests: ['src/harness/scenario.test.ts'],
  },
  {
    id: 'usage-not-labelled-synthetic',
    claim: 'scripted',
    file: 'src/harness/scenario.ts',
    find: 'const usage = { ...step.usage, synthetic: true };',
    replace: 'const usage = { ...step.usage, synthetic: false };',
    tests: ['src/harness/scenario.test.ts', 'src/cli/run-command.test.ts'],
  },
  // ledger: hash chain, seal and file hashes, re-checked by verify.
  {
    id: 'chain-not-checked',
    claim: 'ledger',
    file: 'src/ledger/read-ledger.ts',
    find: "if (event['prev'] !== prev) {",
    replace: "if (event['prev'] !== prev && events.length === 0) {",
    tests: ['src/ledger/verify.test.ts', 'src/ledger/tamper.test.ts'],
  },
  {
    id: 'seal-head-not-checked',
    claim: 'ledger',
    file: 'src/ledger/verify.ts',
    find: 'if (seal.value.count !== recorded.length || seal.value.head !== head) {',
    replace: 'if (seal.value.count !== recorded.length) {',
    tests: ['src/ledger/verify.test.ts', 'src/ledger/tamper.test.ts'],
  },
  {
    id: 'file-sha256-not-checked',
    claim: 'ledger',
    file: 'src/ledger/verify.ts',
    find: 'if (bytes.byteLength !== ref.bytes || sha256 !== ref.sha256) {',
    replace: 'if (bytes.byteLength !== ref.bytes) {',
    tests: ['src/ledger/verify.test.ts', 'src/ledger/tamper.test.ts'],
  },
  {
    id: 'recheck-skipped',
    claim: 'ledger',
    file: 'src/ledger/verify.ts',
    find: 'if (!options.recheck) return ok({ ...base, rechecked: false });',
    replace: 'if (!options.recheck || base.events > 0) return ok({ ...base, rechecked: false });',
    tests: ['src/harness/recheck.test.ts'],
  },
  {
    id: 'snapshot-text-claims-unchecked',
    claim: 'acceptance',
    file: 'src/excerpt/mcp-read-source.ts',
    find: 'if (data.sha256 !== observed || data.bytes !== received.byteLength) {',
    replace: 'if (!same && (data.sha256 !== observed || data.bytes !== received.byteLength)) {',
    tests: ['src/excerpt/mcp-read-source.test.ts'],
  },
  {
    id: 'text-agreement-overflow-as-null',
    claim: 'mcp-client',
    file: 'src/mcp/call.ts',
    find: 'if (text === serialized(structured) && !holdsNonFinite(structured)) return true;',
    replace: 'if (text === serialized(structured) && (holdsNonFinite(structured) || true)) return true;',
    tests: ['src/mcp/call.test.ts'],
  },
  {
    id: 'serialized-answer-keeps-first-id',
    claim: 'mcp-client',
    file: 'src/mcp/serve-rpc.ts',
    find: "const head = encoder.encode(resultHead(answered.answer['id']));",
    replace: 'const head = encoder.encode(resultHead(1));',
    tests: ['src/mcp/serve-rpc.test.ts', 'src/mcp/serve-lines.test.ts'],
  },
  {
    id: 'cached-read-source-skips-validation',
    claim: 'mcp-client',
    file: 'src/excerpt/server/server.ts',
    find: '  return function callReadSource(args) {\n',
    replace: "  return function callReadSource(args) {\n    const early = answers.get(String(args?.['source_id']));\n    if (early) return { serialized: early };\n",
    tests: ['src/mcp/serve-lines.test.ts'],
  },
  {
    id: 'durable-line-not-synced',
    claim: 'ledger',
    file: 'src/ledger/durability.ts',
    find: 'if (this.durable) this.#fs.fsyncSync(fd);',
    replace: 'if (this.durable && fd < 0) this.#fs.fsyncSync(fd);',
    tests: ['src/ledger/run-dir.sync.test.ts'],
  },
  {
    id: 'default-ledger-unsynced-before-seal',
    claim: 'ledger',
    file: 'src/ledger/durability.ts',
    find: 'if (pending.length > 0) syncTree(this.#fs, this.#root, pending);\n    this.#fs.fsyncSync(fd);',
    replace: 'if (pending.length > 0) syncTree(this.#fs, this.#root, pending);\n    if (fd < 0) this.#fs.fsyncSync(fd);',
    tests: ['src/ledger/run-dir.sync.test.ts'],
  },
  {
    id: 'text-agreement-deep-throws',
    claim: 'mcp-client',
    file: 'src/mcp/call.ts',
    find: '  } catch {\n    return undefined;\n  }',
    replace: '  } catch (error) {\n    throw error;\n  }',
    tests: ['src/mcp/call.test.ts'],
  },
  // The guard (issue 19): caplab SIGKILLed still takes its hooks, servers and probe's temp cwd with it.
  {
    id: 'guard-kills-no-group',
    claim: 'guard',
    file: 'src/platform/guard-process.ts',
    find: "for (const pgid of groups) signalGroup(pgid, 'SIGKILL');",
    replace: "for (const pgid of groups.filter(() => false)) signalGroup(pgid, 'SIGKILL');",
    tests: GUARD_TESTS,
  },
  {
    id: 'guard-keeps-folders',
    claim: 'guard',
    file: 'src/platform/guard-process.ts',
    find: 'for (const path of state.folders) {',
    replace: 'for (const path of [...state.folders].filter(() => false)) {',
    tests: GUARD_TESTS,
  },
  {
    id: 'guard-never-enabled',
    claim: 'guard',
    file: 'src/main.ts',
    find: 'platform.enableGuard(import.meta.path);',
    replace: 'void platform.enableGuard;',
    tests: ['src/cli/sigkill.test.ts'],
  },
  {
    id: 'guard-started-eagerly',
    claim: 'guard',
    file: 'src/main.ts',
    find: 'platform.enableGuard(import.meta.path);',
    replace: 'platform.enableGuard(import.meta.path);\n    platform.processGuard().start();',
    tests: ['src/cli/sigkill.test.ts'],
  },
  {
    id: 'hook-group-unregistered',
    claim: 'guard',
    file: 'src/pipeline/hooks/command-hook.ts',
    find: 'const unguard = guard.group(child.pid);',
    replace: 'const unguard = guard.group(0);',
    tests: ['src/cli/sigkill.test.ts'],
  },
  {
    id: 'server-group-unregistered',
    claim: 'guard',
    file: 'src/mcp/child.ts',
    find: 'const unguard = guard.group(proc.pid);',
    replace: 'const unguard = guard.group(0);',
    tests: ['src/cli/sigkill.test.ts'],
  },
  {
    id: 'probe-folder-unregistered',
    claim: 'guard',
    file: 'src/mcp/probe.ts',
    find: 'const unguard = cwdIsTemp ? processGuard().folder(cwd) : () => undefined;',
    replace: "const unguard = cwdIsTemp ? processGuard().folder('/nowhere') : () => undefined;",
    tests: ['src/cli/sigkill.test.ts'],
  },
  {
    id: 'guard-in-callers-session',
    claim: 'guard',
    file: 'src/platform/guard.ts',
    find: "stderr: 'ignore', detached: true, cwd: '/', env: {} });",
    replace: "stderr: 'ignore', detached: false, cwd: '/', env: {} });",
    tests: ['src/platform/guard.test.ts'],
  },
  {
    id: 'guard-holds-caplab-stderr',
    claim: 'guard',
    file: 'src/platform/guard.ts',
    find: "stderr: 'ignore', detached: true, cwd: '/', env: {} });",
    replace: "stderr: 'ignore', detached: true, cwd: '/', env: {}, ...({ stderr: 'inherit' } as {}) });",
    tests: ['src/platform/guard.test.ts'],
  },
  {
    id: 'guard-dies-on-sigterm',
    claim: 'guard',
    file: 'src/main.ts',
    find: "for (const name of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) process.on(name, () => undefined);",
    replace: "for (const name of ['SIGINT', 'SIGHUP'] as const) process.on(name, () => undefined);",
    tests: ['src/platform/guard.test.ts'],
  },
];
