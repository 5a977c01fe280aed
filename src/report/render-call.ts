import { STAGES } from '../ledger/index.ts';
import { scopeOf, type Context } from './context.ts';
import type { Found, FoundLine } from './found.ts';
import { html, idAttr, type Html } from './html.ts';
import { resultText } from './payloads.ts';
import { arr, asObject, bool, excerpt, facts, hash, inline, num, obj, objects, shown, sizeOf, str } from './values.ts';

/** How a call ended, in one badge: ok, or failed with class/kind. */
export function outcomeBadge(call: Found | undefined): Html {
  const outcome = obj(call, 'outcome');
  if (bool(outcome, 'ok') === true) return html`<span class="badge ok">ok</span>`;
  return html`<span class="badge bad">failed ${str(outcome, 'class') ?? '?'}/${str(outcome, 'kind') ?? '?'}</span>`;
}

/**
 * The call's `STAGES` as one strip, as recorded: each stage ok, failed (the
 * call's failure class/kind on it), or not reached (no record of it).
 */
function strip(call: Found): Html {
  const recorded = objects(call, 'stages');
  const outcome = obj(call, 'outcome');
  const cells = STAGES.map((stage) => {
    const record = recorded.find((r) => str(r, 'stage') === stage);
    const status = str(record, 'status');
    const state = status === 'ok' ? 'ok' : status === 'failed' ? 'failed' : 'not-reached';
    const why = state === 'failed' ? `${str(outcome, 'class') ?? '?'}/${str(outcome, 'kind') ?? '?'}` : state === 'ok' ? 'ok' : 'not reached';
    const detail = str(record, 'detail');
    return html`<li class="stage ${state}" data-stage="${stage}" data-status="${state}"><span class="stage-name">${stage}</span> <span class="stage-why">${why}</span>${detail === undefined ? '' : html`<span class="stage-detail">${inline(detail)}</span>`}</li>`;
  });
  return html`<ol class="strip" aria-label="stages">${cells}</ol>`;
}

/** Original, converted and rewritten arguments side by side (and the defaults filled). */
function argumentsOf(call: Found): Html {
  const args = obj(call, 'arguments');
  const columns = (['original', 'converted', 'rewritten'] as const).filter((k) => k === 'original' || args?.[k] !== undefined);
  const filled = arr(args, 'filled');
  return html`<div class="args">${columns.map((k) => html`<div class="arg"><h4>${k}</h4>${shown(args?.[k])}</div>`)}</div>${filled.length > 0 ? html`<p class="note">defaults filled: ${filled.map(inline).join(', ')}</p>` : ''}`;
}

function hooksOf(call: Found): Html {
  const hooks = objects(call, 'hooks');
  if (hooks.length === 0) return html`<p class="note">no hook ran</p>`;
  return html`<ul class="hooks">${hooks.map((h) => html`<li><b>${str(h, 'hook') ?? '?'}</b>${facts([
    ['block', str(h, 'block')],
    ['decision', str(h, 'permissionDecision')],
    ['reason', str(h, 'reason')],
    ['exit code', num(h, 'exitCode')],
    ['timed out', bool(h, 'timedOut') === undefined ? undefined : String(bool(h, 'timedOut'))],
    ['note', str(h, 'note')],
    ['updated input', h['updatedInput'] === undefined ? undefined : shown(h['updatedInput'])],
    ['stdout', str(h, 'stdout') === undefined ? undefined : excerpt(str(h, 'stdout')!)],
    ['stderr', str(h, 'stderr') === undefined ? undefined : excerpt(str(h, 'stderr')!)],
  ])}</li>`)}</ul>`;
}

function permissionOf(call: Found): Html {
  const p = obj(call, 'permission');
  if (!p) return html`<p class="note">no permission decision (not reached)</p>`;
  const asked = obj(p, 'asked');
  return facts([
    ['decision', str(p, 'decision')],
    ['by', str(p, 'rule') !== undefined ? `${str(p, 'by') ?? '?'} (rule ${str(p, 'rule')})` : str(p, 'by')],
    ['reason', str(p, 'reason')],
    ['asked', asked ? `by ${str(asked, 'by') ?? '?'}${str(asked, 'rule') !== undefined ? ` (rule ${str(asked, 'rule')})` : ''}` : undefined],
  ]);
}

function outcomeOf(call: Found): Html {
  const o = obj(call, 'outcome');
  if (bool(o, 'ok') === true) return facts([['evidence', str(o, 'evidence')], ['object version', o?.['object_version'] === null ? 'none' : str(o, 'object_version')], ['data sha256', hash(o?.['data_sha256'])]]);
  return facts([
    ['failure', `${str(o, 'class') ?? '?'}/${str(o, 'kind') ?? '?'}`],
    ['message', str(o, 'message')],
    ['basis', str(o, 'basis')],
    ['raw result sha256', o?.['raw_result_sha256'] === undefined ? undefined : hash(o['raw_result_sha256'])],
  ]);
}

/** The result: a kept file of it when the call has one, else the tool_result a later request carried; cut at `reportExcerptBytes`. */
function resultOf(call: Found, line: FoundLine, context: Context): Html {
  const file = objects(call, 'files').find((f) => str(f, 'role') === 'full_output' || str(f, 'role') === 'call_result');
  const path = str(file, 'path');
  const bytes = path === undefined ? undefined : context.run.read(path);
  if (path !== undefined) return html`<p class="note">${str(file, 'role')} <code>${path}</code>${bytes ? '' : ' (not readable as found)'}</p>${bytes ? excerpt(bytes, true) : ''}`;
  const result = context.results.get(line.index);
  if (!result) return html`<p class="note">no later request carries its tool_result</p>`;
  return html`<p class="note">tool_result${result.isError ? ' (is_error)' : ''} as the next request carried it</p>${excerpt(resultText(result.content), true)}`;
}

function mcpOf(call: Found): Html | undefined {
  const p = obj(call, 'protocol');
  const task = obj(call, 'task');
  if (!p && !task) return undefined;
  return facts([
    ['server', str(p, 'server')],
    ['transport', str(p, 'transport')],
    ['method', str(p, 'method')],
    ['JSON-RPC id', p?.['jsonrpcId'] === undefined ? undefined : inline(p['jsonrpcId'])],
    ['bytes', p ? `${sizeOf(num(p, 'requestBytes') ?? 0)} sent, ${sizeOf(num(p, 'responseBytes') ?? 0)} received` : undefined],
    ['isError', bool(p, 'isError') === undefined ? undefined : String(bool(p, 'isError'))],
    ['task', task ? taskOf(task) : undefined],
  ]);
}

/**
 * A call made as an MCP task (record format 12): its taskId, each status
 * with its time after the tools/call, the polls, the one cancel and its
 * answer, and whether tasks/result answered (naming its task or not).
 */
function taskOf(task: Found): string {
  const id = task['taskId'] === null ? 'no receipt' : inline(task['taskId'] ?? '?');
  const statuses = objects(task, 'transitions').map((t) => `${inline(t['status'] ?? '?')} at ${num(t, 'ms') ?? '?'} ms`);
  const cancel = obj(task, 'cancel');
  const result = obj(task, 'result');
  const parts = [
    id,
    statuses.length > 0 ? statuses.join(' → ') : 'no status',
    `${num(task, 'polls') ?? '?'} polls`,
    ...(cancel ? [`cancel sent at ${num(cancel, 'ms') ?? '?'} ms, answered ${inline(cancel['answer'])}`] : []),
    result ? `tasks/result ${sizeOf(num(result, 'responseBytes') ?? 0)}${bool(result, 'related') === false ? ', not naming its task' : ''}` : 'no tasks/result',
  ];
  return parts.join(' · ');
}

/** A call: its summary line, then its stage strip, arguments, hooks, permission, outcome, result and MCP exchange; what nests in it last. */
export function renderCall(call: Found, line: FoundLine, context: Context, nested: Html): Html {
  const mcp = mcpOf(call);
  const scope = scopeOf(line);
  return html`<details class="call" ${idAttr(line.index)}><summary>${outcomeBadge(call)} call <b>${str(call, 'name') ?? '?'}</b> <span class="muted">${str(call, 'tool_call_id') ?? ''} · ${str(call, 'via') ?? ''} · seq ${line.index}${scope === '' ? '' : ` · agent ${scope}`}</span></summary>
${strip(call)}
${facts([['action', str(call, 'action_id')], ['binding', call['binding_id'] === null ? 'none' : hash(call['binding_id'])], ['handler entered', bool(call, 'handler_entered') === undefined ? undefined : String(bool(call, 'handler_entered'))]])}
<h3>Arguments</h3>${argumentsOf(call)}
<h3>Hooks</h3>${hooksOf(call)}
<h3>Permission</h3>${permissionOf(call)}
<h3>Outcome</h3>${outcomeOf(call)}
<h3>Result</h3>${resultOf(call, line, context)}
${mcp ? html`<h3>MCP</h3>${mcp}` : ''}${nested}</details>`;
}

/** The effective input of a call: rewritten, else converted, else original. */
export function effectiveInput(call: Found | undefined): unknown {
  const args = obj(call, 'arguments');
  return args?.['rewritten'] ?? args?.['converted'] ?? args?.['original'];
}

/** Whether a value is a JSON object one of whose string members equals `text`. */
export const namesValue = (value: unknown, text: string): boolean => Object.values(asObject(value) ?? {}).some((member) => member === text);
