import { scopeOf, type Context } from './context.ts';
import type { Found, FoundLine } from './found.ts';
import { html, idAttr, linkTo, type Html } from './html.ts';
import { effectiveInput, namesValue } from './render-call.ts';
import { asObject, bool, excerpt, facts, hash, num, obj, objects, sizeOf, str, strings } from './values.ts';

/** The call before `line` (same agent) whose non-error tool_result in this request's payload read the source `id`. */
function disclosingCall(id: string, line: FoundLine, context: Context): number | undefined {
  const results = context.payloads.get(line.index)?.results;
  const scope = scopeOf(line);
  const call = context.lines.slice(0, line.index).find((c) => {
    const callId = str(c.event, 'tool_call_id');
    const result = callId === undefined ? undefined : results?.get(callId);
    return str(c.event, 'type') === 'call' && scopeOf(c) === scope && bool(obj(c.event, 'outcome'), 'ok') === true && result !== undefined && !result.isError && namesValue(effectiveInput(c.event), id);
  });
  return call?.index;
}

/** A link to a call by ledger index, or a note that none was found. */
const callLink = (index: number | undefined, label: string): Html => (index === undefined ? html`<span class="muted">(no disclosing call found as recorded)</span>` : linkTo(index, `${label} (seq ${index})`));

/** The tools a request offered: loaded, deferred, and each disclosed one linked to the tool search call whose result disclosed it. */
function toolsOf(request: Found, line: FoundLine, context: Context): Html {
  const tools = objects(request, 'tools');
  const disclosed = strings(request, 'disclosed_tools');
  const references = context.payloads.get(line.index)?.references;
  const rows = tools.map((tool) => {
    const name = str(tool, 'name') ?? '?';
    const deferred = bool(tool, 'deferred') === true;
    const shownAs = !deferred ? html`loaded` : disclosed.includes(name) ? html`disclosed by ${callLink(references && callOf(references.get(name), line, context), 'tool search')}` : html`deferred`;
    return html`<tr><td>${name}</td><td>${shownAs}</td><td>${str(tool, 'target') ?? ''}</td><td>${hash(tool['binding_id'])}</td></tr>`;
  });
  return html`<table class="tools"><thead><tr><th>tool</th><th>shown</th><th>target</th><th>binding</th></tr></thead><tbody>${rows}</tbody></table>`;
}

const callOf = (toolUseId: string | undefined, line: FoundLine, context: Context): number | undefined => (toolUseId === undefined ? undefined : context.callAt(scopeOf(line), toolUseId));

function sourcesOf(request: Found, line: FoundLine, context: Context): Html {
  const sources = strings(request, 'disclosed_sources');
  if (!Array.isArray(request['disclosed_sources'])) return html``;
  if (sources.length === 0) return html`<h3>Sources disclosed</h3><p class="note">none</p>`;
  return html`<h3>Sources disclosed</h3><ul class="sources">${sources.map((id) => html`<li><b>${id}</b> — ${callLink(disclosingCall(id, line, context), 'read by call')}</li>`)}</ul>`;
}

function methodOf(request: Found): Html {
  const method = asObject(request['method']);
  const catalog = strings(request, 'skill_catalog');
  if (!method && catalog.length === 0) return html`<p class="note">no method adopted</p>`;
  const resources = objects(method, 'resources_present').map((r) => str(r, 'path') ?? '?');
  return facts([
    ['method', method ? `${str(method, 'name') ?? '?'}${str(method, 'version') !== undefined ? ` ${str(method, 'version')}` : ''}` : undefined],
    ['stage', str(method, 'stage')],
    ['adopted', bool(method, 'adopted') === undefined ? undefined : String(bool(method, 'adopted'))],
    ['references disclosed', method ? (resources.length > 0 ? resources.join(', ') : 'none') : undefined],
    ['missing', strings(method, 'resources_missing').length > 0 ? strings(method, 'resources_missing').join(', ') : undefined],
    ['skill catalog', Array.isArray(request['skill_catalog']) ? (catalog.length > 0 ? catalog.join(', ') : 'empty') : undefined],
  ]);
}

/** A request: payload sha256 and size, tools offered, method and skills, sources disclosed; its response and calls nested. */
export function renderRequest(request: Found, line: FoundLine, context: Context, nested: Html): Html {
  const payload = obj(request, 'payload');
  const scope = scopeOf(line);
  return html`<details class="request" open ${idAttr(line.index)}><summary>request <b>${str(request, 'request_id') ?? '?'}</b> <span class="muted">index ${num(request, 'index') ?? '?'} · seq ${line.index} · ${sizeOf(num(payload, 'bytes') ?? 0)}${scope === '' ? '' : ` · agent ${scope}`}</span></summary>
${facts([['payload', str(payload, 'path') === undefined ? undefined : html`<code>${str(payload, 'path')}</code>`], ['sha256', hash(payload?.['sha256'])], ['size', num(payload, 'bytes') === undefined ? undefined : sizeOf(num(payload, 'bytes')!)], ['mapping', str(request, 'mapping_tag')], ['visible tool bytes', num(request, 'visible_tool_bytes')]])}
<h3>Tools offered</h3>${toolsOf(request, line, context)}
<h3>Method and skills</h3>${methodOf(request)}
${sourcesOf(request, line, context)}
<div class="children">${nested}</div></details>`;
}

/** What a response file says: its text and the tool calls it asked for. */
function contentOf(path: string | undefined, context: Context): Html {
  const bytes = path === undefined ? undefined : context.run.read(path);
  if (!bytes) return html`<p class="note">response file not readable as found</p>`;
  let parsed: Found | undefined;
  try {
    parsed = asObject(JSON.parse(new TextDecoder().decode(bytes)));
  } catch {
    parsed = undefined;
  }
  const blocks = objects(parsed, 'content');
  const uses = blocks.filter((b) => str(b, 'type') === 'tool_use').map((b) => str(b, 'name') ?? '?');
  const text = blocks.filter((b) => str(b, 'type') === 'text').map((b) => str(b, 'text') ?? '').join('\n');
  return html`${uses.length > 0 ? html`<p>asks for ${uses.length} tool call(s): ${uses.join(', ')}</p>` : html`<p>asks for no tool call</p>`}${text === '' ? '' : excerpt(text)}`;
}

/** A response (or its absence): the model's label, stop reason, usage, and what it said. */
export function renderResponse(response: Found, line: FoundLine, context: Context): Html {
  if (response['missing'] === true) return html`<div class="response missing" ${idAttr(line.index)}><h3>No response <span class="muted">seq ${line.index}</span></h3><p>${str(response, 'reason') ?? ''}</p></div>`;
  const usage = obj(response, 'usage');
  const replayed = str(response, 'origin') === 'replayed';
  const label = replayed ? 'replayed' : bool(response, 'scripted') === true ? 'scripted' : 'unlabelled';
  const file = objects(response, 'files')[0];
  const cache = ['cache_creation_input_tokens', 'cache_read_input_tokens'].filter((k) => num(usage, k) !== undefined).map((k) => `${k} ${num(usage, k)}`);
  return html`<div class="response" ${idAttr(line.index)}><h3>Response <span class="badge">${label}</span> <span class="muted">seq ${line.index}</span></h3>
${facts([['stop reason', str(response, 'stop_reason')], ['usage', `${num(usage, 'input_tokens') ?? '?'} in / ${num(usage, 'output_tokens') ?? '?'} out${cache.length ? `, ${cache.join(', ')}` : ''}${bool(usage, 'synthetic') === true ? ' (synthetic)' : replayed ? ' (as recorded)' : ''}`], ['file', str(file, 'path') === undefined ? undefined : html`<code>${str(file, 'path')}</code> ${hash(file?.['sha256'])}`]])}
${contentOf(str(file, 'path'), context)}</div>`;
}

