import { section, type Context } from './context.ts';
import type { Found, FoundLine } from './found.ts';
import { html, idAttr, type Html } from './html.ts';
import { arr, asObject, bool, excerpt, facts, hash, inline, jsonText, num, obj, objects, shown, str, strings } from './values.ts';

/** The model's label and its usage note, from run_start's model record (format 4) or its flag before it. */
function modelOf(start: Found): string {
  const model = obj(start, 'model');
  const name = str(model, 'name') ?? '?';
  if (bool(model, 'scripted') === true) return `${name}: scripted (usage is synthetic)`;
  if (str(model, 'origin') === 'replayed') return `${name}: replayed from ${str(obj(model, 'replay'), 'file') ?? '?'} (usage as recorded)`;
  return `${name}: ${bool(model, 'scripted') === false ? 'not scripted' : 'unlabelled'}`;
}

/** A server's launch or URL, as its record gives it. */
function reachOf(server: Found | undefined): string | undefined {
  const endpoint = obj(server, 'endpoint') ?? server;
  const url = str(endpoint, 'url');
  if (url !== undefined) return `HTTP ${url}${strings(endpoint, 'headerNames').length > 0 ? ` (headers ${strings(endpoint, 'headerNames').join(', ')})` : ''}`;
  const argv = strings(endpoint, 'argv').length > 0 ? strings(endpoint, 'argv') : strings(endpoint, 'launch');
  return argv.length > 0 ? `stdio ${argv.join(' ')}${str(endpoint, 'cwd') !== undefined ? ` (cwd ${str(endpoint, 'cwd')})` : ''}` : undefined;
}

function serverAtStart(server: Found | undefined): Html {
  const info = obj(server, 'serverInfo');
  return facts([
    ['serverInfo', info ? `${str(info, 'name') ?? '?'} ${str(info, 'version') ?? '?'}` : undefined],
    ['protocol', str(server, 'protocolVersion')],
    ['reached', reachOf(server)],
    ['session sha256', server?.['sessionSha256'] === undefined ? undefined : hash(server['sessionSha256'])],
    ['instance', str(server, 'instanceId')],
    ['gaps', strings(server, 'gaps').length > 0 ? html`<ul>${strings(server, 'gaps').map((g) => html`<li>${g}</li>`)}</ul>` : undefined],
  ]);
}

function configured(server: Found): Html {
  const identity = obj(server, 'identity');
  const failure = obj(server, 'failure');
  const tools = objects(server, 'tools');
  return html`<h3>server ${str(server, 'key') ?? '?'}${str(server, 'config_key') !== undefined ? html` <span class="muted">config key ${str(server, 'config_key')}</span>` : ''} <span class="badge ${str(server, 'status') === 'started' ? 'ok' : 'bad'}">${str(server, 'status') ?? '?'}</span></h3>
${facts([
  ['serverInfo', identity ? `${str(identity, 'name') ?? '?'} ${str(identity, 'version') ?? '?'}` : undefined],
  ['protocol', str(identity, 'protocolVersion')],
  ['reached', reachOf(identity)],
  ['session sha256', server['session_sha256'] === undefined ? undefined : hash(server['session_sha256'])],
  ['failure', failure ? `${str(failure, 'class') ?? '?'}/${str(failure, 'kind') ?? '?'}: ${str(failure, 'message') ?? ''}` : undefined],
  ['tools', tools.length > 0 ? html`<ul>${tools.map((t) => html`<li>${str(t, 'name') ?? '?'}: ${str(t, 'status') === 'bound' ? `bound as ${str(t, 'model_name') ?? '?'}` : `unbound, ${str(obj(t, 'failure'), 'kind') ?? '?'}`}</li>`)}</ul>` : 'none listed'],
  ['notices', strings(server, 'notices').length > 0 ? strings(server, 'notices').join('; ') : undefined],
])}`;
}

function bindingsOf(start: Found): Html {
  const rows = objects(start, 'bindings').map((b) => html`<tr><td>${str(b, 'tool') ?? '?'}</td><td>${str(obj(b, 'implementation'), 'kind') ?? '?'}</td><td>${str(obj(b, 'server'), 'key') ?? str(obj(b, 'server'), 'name') ?? ''}</td><td>${hash(b['id'])}</td></tr>`);
  return html`<table class="bindings"><thead><tr><th>tool</th><th>kind</th><th>server</th><th>binding id</th></tr></thead><tbody>${rows}</tbody></table>`;
}

/** run_start: the header (versions, task, scenario, model) and the servers the run started with. */
export function renderStart(start: Found, line: FoundLine, context: Context): Html {
  const method = asObject(start['method']);
  const header = facts([
    ['caplab', str(start, 'caplab')],
    ['format', context.format],
    ['task', str(start, 'task') ?? 'excerpt (named by no field before format 4)'],
    ['scenario', start['scenario'] === null ? 'none (replayed)' : str(start, 'scenario')],
    ['model', modelOf(start)],
    ['run id', str(start, 'run_id')],
    ['transport', start['transport'] === null ? 'none' : str(start, 'transport')],
    ['method', method ? inline(method['name'] ?? method) : 'none'],
    ['skill mode', str(start, 'skill_mode')],
    ['defer', strings(start, 'defer').length > 0 ? strings(start, 'defer').join(', ') : undefined],
    ['hooks', objects(start, 'hooks').length > 0 ? objects(start, 'hooks').map((h) => `${str(h, 'name') ?? '?'} (${str(h, 'event') ?? '?'} ${str(h, 'matcher') ?? ''})`).join('; ') : 'none'],
    ['started at', str(start, 'at')],
  ]);
  const single = obj(start, 'server');
  const servers = objects(start, 'servers');
  const serverBody = html`${single ? serverAtStart(single) : ''}${servers.map(configured)}${!single && servers.length === 0 ? html`<p class="note">no MCP server: every tool ran locally</p>` : ''}`;
  return html`<div ${idAttr(line.index)}>${section('Run', html`${header}<h3>Bindings</h3>${bindingsOf(start)}`, context, 'run')}${section('Servers', serverBody, context, 'servers')}</div>`;
}

/** acceptance: every check (object, condition, evidence, verdict), the verdict, the task's own fields. */
export function renderAcceptance(acceptance: Found, line: FoundLine, context: Context): Html {
  const rows = objects(acceptance, 'checks').map((c) => {
    const verdict = str(c, 'verdict') ?? '?';
    return html`<tr><td>${str(c, 'id') ?? '?'}</td><td>${str(c, 'object') ?? ''}</td><td>${str(c, 'condition') ?? ''}</td><td>${str(c, 'evidence') ?? ''}</td><td><span class="badge ${verdict === 'pass' ? 'ok' : verdict === 'fail' ? 'bad' : ''}">${verdict}</span></td></tr>`;
  });
  const own = Object.keys(acceptance).filter((k) => !['seq', 'type', 'at', 'prev', 'accepted', 'checks', 'files'].includes(k)).sort();
  const body = html`<p ${idAttr(line.index)}>recorded verdict: <span class="badge ${acceptance['accepted'] === true ? 'ok' : 'bad'}">${acceptance['accepted'] === true ? 'accepted' : 'not accepted'}</span> <span class="muted">seq ${line.index}</span></p>
<table class="checks"><thead><tr><th>check</th><th>object</th><th>condition</th><th>evidence</th><th>verdict</th></tr></thead><tbody>${rows}</tbody></table>
${own.length > 0 ? html`<h3>The task's own fields</h3>${facts(own.map((k) => [k, shown(acceptance[k])] as const))}` : ''}`;
  return section('Expectations and acceptance', body, context, 'acceptance');
}

function orphansOf(orphans: Found | undefined): string | undefined {
  if (!orphans) return undefined;
  const named = (key: string) => objects(orphans, key).map((o) => `${str(o, 'name') ?? '?'} ×${num(o, 'count') ?? '?'}`).join(', ') || 'none';
  return `subreaper ${String(bool(orphans, 'subreaper') ?? '?')}; killed ${named('killed')}; survivors ${named('survivors')}${str(orphans, 'gap') !== undefined ? `; ${str(orphans, 'gap')}` : ''}`;
}

function closeOf(close: unknown): Html {
  const report = asObject(close);
  if (!report) return html`<p class="note">${close === null ? 'no close report' : inline(close)}</p>`;
  const stderr = str(report, 'server_stderr') ?? str(report, 'stderr');
  return facts([
    ['exit code', report['exitCode'] === undefined ? undefined : inline(report['exitCode'])],
    ['steps', strings(report, 'steps').join(', ') || undefined],
    ['survivors', Array.isArray(report['survivors']) ? inline(report['survivors']) : undefined],
    ['orphans', orphansOf(obj(report, 'orphans'))],
    ['exchanges', arr(report, 'exchanges').length > 0 ? `${arr(report, 'exchanges').length}` : undefined],
    ['http', report['http'] === undefined ? undefined : inline(report['http'])],
    ['stderr tail', stderr === undefined ? undefined : excerpt(stderr)],
  ]);
}

/** run_end: how the run ended (ending, cause, exit, orphans) and each server's close. */
export function renderEnd(end: Found, line: FoundLine, context: Context): Html {
  const servers = objects(end, 'servers');
  const body = html`<div ${idAttr(line.index)}>${facts([
    ['ending', str(end, 'ending')],
    ['cause', str(end, 'cause')],
    ['exit code', num(end, 'exit_code')],
    ['accepted', end['accepted'] === undefined ? undefined : String(end['accepted'])],
    ['stop', str(end, 'stop')],
    ['summary', str(end, 'summary')],
    ['requests', num(end, 'requests')],
    ['tool calls', num(end, 'tool_calls')],
    ['orphans', orphansOf(obj(end, 'orphans'))],
    ['replay', obj(end, 'replay') ? `${num(obj(end, 'replay'), 'lines_used') ?? '?'} lines used, ${num(obj(end, 'replay'), 'lines_unused') ?? '?'} unused` : undefined],
    ['left by failure', objects(end, 'files').length > 0 ? objects(end, 'files').map((f) => str(f, 'path') ?? '?').join(', ') : undefined],
    ['format', str(end, 'format')],
    ['ended at', str(end, 'at')],
  ])}
${end['transport_close'] !== undefined ? html`<h3>Tool server close</h3>${closeOf(end['transport_close'])}` : ''}
${servers.map((s) => html`<h3>server ${str(s, 'key') ?? '?'} at close</h3>${closeOf(s['close'])}${facts([['list_changed', `${num(obj(s, 'list_changed'), 'seen') ?? 0} seen, ${arr(obj(s, 'list_changed'), 'relists').length} re-list(s)`], ['stderr tail', str(s, 'stderr') ? excerpt(str(s, 'stderr')!) : 'empty']])}`)}</div>`;
  return section('Run end', body, context, 'end');
}

/** An event of a type this report has no renderer for, or a line that is no JSON object: shown raw, as text. */
export function renderRaw(line: FoundLine): Html {
  const type = str(line.event, 'type');
  const title = line.event ? `event of unknown type ${type ?? '(none)'}` : 'a line that is no JSON object';
  return html`<details class="raw" open ${idAttr(line.index)}><summary><span class="badge bad">raw</span> ${title} <span class="muted">line ${line.index + 1}</span></summary>${excerpt(line.event ? jsonText(line.event) : (line.text ?? ''), true)}</details>`;
}
