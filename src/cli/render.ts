import { inert } from '../base/index.ts';
import type { Failure } from '../contract/index.ts';
import { summaryOf, viaOf, type AcceptanceCheck, type LoopStep, type ModelResponse, type RecordedCall, type RunOutcome, type ServerStart, type Usage } from '../harness/index.ts';
import { exitCodeOf } from './exit.ts';
import type { Paint } from './io.ts';

/** Tool names a response line lists before it only counts the rest. */
const SHOWN_CALLS = 8;

const short = (hash: string) => hash.slice(0, 12);

/** A failure as printed: class/kind, its basis where it names one (a refused MCP peer), then the message. */
export function failureText(f: Pick<Failure, 'class' | 'kind' | 'message' | 'basis'>): string {
  return `${f.class}/${f.kind}${f.basis ? ` [${f.basis}]` : ''}: ${f.message}`;
}

/** How a call that sent no request was carried out, as its line says it. */
const VIA_SHOWN = { mcp: 'mcp, nothing sent', local: 'local', host: 'host', not_executed: 'not executed' } as const;

function describeCall(record: RecordedCall, paint: Paint): string {
  const { protocol } = record;
  const via = protocol ? `mcp jsonrpc#${protocol.jsonrpcId}` : VIA_SHOWN[viaOf(record)];
  const args = JSON.stringify(record.arguments.rewritten ?? record.arguments.original);
  const shown = args.length > 90 ? `${args.slice(0, 87)}...` : args;
  // Ids, names, arguments and messages come from the model, hooks and servers: shown, never acted on.
  const head = `    ${inert(record.toolCallId)} ${record.actionId} ${inert(record.name)} ${inert(shown)} ${paint.dim(`(${via})`)}`;
  if (record.outcome.ok) {
    const v = record.outcome.value;
    return `${head}\n      ${paint.ok('✓')} ${inert(v.evidence)}${v.objectVersion ? ` sha256 ${short(v.objectVersion)}` : ''}${record.fullOutput ? ` (truncated for the model; full output ${record.fullOutput.path})` : ''}`;
  }
  return `${head}\n      ${paint.bad('✗')} ${inert(failureText(record.outcome))}`;
}

/** One response's usage as its line shows it: synthetic when scripted; as recorded, cache counts too, when replayed. */
function usageText({ origin, usage }: ModelResponse): string {
  if (origin === 'scripted') return `usage ${usage.input_tokens}/${usage.output_tokens}, synthetic`;
  return `usage ${usage.input_tokens}/${usage.output_tokens}, cache created ${usage.cache_creation_input_tokens ?? 0}, cache read ${usage.cache_read_input_tokens ?? 0}, as recorded`;
}

/** The ending's model label: scripted usage is synthetic; a replay's is totalled as its file recorded it. */
function modelSummary({ model, loop }: RunOutcome): string {
  if (model.origin === 'scripted') return 'scripted (usage synthetic)';
  const sum = (count: (usage: Usage) => number | null | undefined) => loop.requests.reduce((total, r) => total + (r.response ? (count(r.response.usage) ?? 0) : 0), 0);
  const totals = `input ${sum((u) => u.input_tokens)}, output ${sum((u) => u.output_tokens)}, cache created ${sum((u) => u.cache_creation_input_tokens)}, cache read ${sum((u) => u.cache_read_input_tokens)}`;
  return `replayed (usage as recorded in the replay file: ${totals})`;
}

/** Renders one step as it happens; a subagent's own steps are indented under its Agent call. */
export function renderStep(step: LoopStep, paint: Paint): string {
  const text = stepText(step, paint);
  return step.agent === undefined || text === '' ? text : text.split('\n').map((line) => `    ${paint.dim('│')} ${line}`).join('\n');
}

function stepText(step: LoopStep, paint: Paint): string {
  switch (step.type) {
    case 'request': {
      const i = step.intent;
      const m = i.method as { name?: string; stage?: string; plain?: boolean } | null;
      const method = m ? ` method ${m.name ?? '?'}${m.plain ? ' (plain)' : `@${m.stage ?? '?'}`}` : '';
      // The excerpt's one request field; another task's fields are in the record and in --json.
      const disclosed = i.fields['disclosed_sources'];
      const shown = Array.isArray(disclosed) ? `, disclosed [${disclosed.join(', ')}]` : '';
      return `${paint.bold(`→ ${i.request_id}`)} payload sha256 ${short(i.payload.sha256)} (${i.payload.bytes} bytes), ${i.tools.length} tools${shown}${method}`;
    }
    case 'response': {
      const r = step.response;
      const uses = r.content.filter((b) => b.type === 'tool_use').map((b) => (b.type === 'tool_use' ? b.name : ''));
      // A hostile response may ask for thousands of calls: name the first few, count the rest.
      const named = uses.length > SHOWN_CALLS ? [...uses.slice(0, SHOWN_CALLS), `… ${uses.length - SHOWN_CALLS} more`] : uses;
      const what = uses.length > 0 ? `${uses.length} tool call(s): ${inert(named.join(', '))}` : 'final answer';
      return `  ← ${inert(r.id)} ${paint.dim(`[${r.origin}]`)} ${what} ${paint.dim(`(${usageText(r)})`)}`;
    }
    case 'call':
      return describeCall(step.record, paint);
    case 'acceptance':
      return '';
    case 'subagent_start':
      return `  ${paint.bold(`⤷ ${step.agentId}`)} subagent ${inert(step.agentType)}, tools [${inert(step.tools.join(', '))}]`;
    case 'subagent_end':
      return `  ${paint.bold(`⤶ ${step.agentId}`)} ${step.stop}: ${step.requests} request(s), ${step.toolCalls} tool call(s)`;
  }
}

/** The acceptance table: ✓ pass, ✗ fail, – not automatically verifiable. */
function renderChecks(checks: readonly AcceptanceCheck[], paint: Paint): string {
  const width = Math.max(...checks.map((c) => c.id.length));
  const mark = (c: AcceptanceCheck) => (c.verdict === 'pass' ? paint.ok('✓') : c.verdict === 'fail' ? paint.bad('✗') : paint.dim('–'));
  const rows = checks.map((c) => {
    const note = c.verdict === 'not_verifiable' ? paint.dim(' (not automatically verifiable)') : '';
    return `  ${mark(c)} ${c.id.padEnd(width)}  ${c.condition}${note}\n      ${paint.dim(inert(`${c.object} — ${c.evidence}`))}`;
  });
  return ['Acceptance:', ...rows].join('\n');
}

/**
 * The end of a run: the acceptance table (none when the run ended before
 * acceptance, at a bound or a failure), verdict, the task's artifact (under its name), ledger head.
 */
export function renderEnding(outcome: RunOutcome, paint: Paint, artifactName: string): string {
  const checks = outcome.loop.checks;
  const lines = checks.length > 0 ? [renderChecks(checks, paint), ''] : [];
  const verdict = outcome.loop.accepted ? paint.ok('ACCEPTED') : paint.bad('NOT ACCEPTED');
  lines.push(`${verdict} — ${summaryOf(outcome.ending)} (exit ${exitCodeOf(outcome.ending)})`);
  lines.push(`requests ${outcome.loop.requests.length}, tool calls ${outcome.loop.calls.length}; model: ${modelSummary(outcome)}`);
  if (outcome.server) {
    const s = outcome.server;
    lines.push(`server: ${s.serverInfo.name} ${s.serverInfo.version}, MCP ${s.protocolVersion}, instance ${s.instanceId} (${s.gaps.join('; ')})`);
  }
  for (const server of outcome.servers ?? []) lines.push(configuredLine(server));
  const made = outcome.loop.artifact;
  // Labels align with `ledger:` below.
  if (made) lines.push(`${`${artifactName}:`.padEnd(7)} ${outcome.runDir}/${made.path} sha256 ${made.sha256}`);
  lines.push(`ledger: ${outcome.runDir}/ledger.jsonl head ${outcome.head} (${outcome.events} events)`);
  lines.push(`report: caplab report ${shellWord(outcome.runDir)}`);
  return lines.join('\n');
}

/** One configured server as the run's ending shows it: started (what it listed, how much of it bound) or why not. */
function configuredLine(server: ServerStart): string {
  const key = server.config_key !== undefined ? `${server.key} (config "${inert(server.config_key)}")` : server.key;
  if (server.status === 'failed') return `server ${key}: did not start: ${server.failure!.class}/${server.failure!.kind}`;
  const bound = server.tools.filter((tool) => tool.status === 'bound').length;
  const id = server.identity!;
  return `server ${key}: ${inert(id.name)} ${inert(id.version)}, MCP ${inert(id.protocolVersion)}, ${bound} of ${server.tools.length} tools bound, instance ${id.instanceId}`;
}

/** A path as one shell word: as it is when it needs no quoting, else in single quotes. */
function shellWord(path: string): string {
  return /^[\w@%+=:,./-]+$/.test(path) ? path : `'${path.replaceAll("'", "'\\''")}'`;
}
