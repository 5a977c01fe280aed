import type { ErrorClass, JsonSchema } from '../contract/index.ts';
import type { Binding, Implementation, ServerEndpoint, ServerIdentity } from './binding.ts';
import type { ToolTable } from './table.ts';
import type { ModelTarget } from './targets.ts';

/** One tool as `caplab tools` reports it: bound with everything its id covers, or refused with why. */
export type ToolDescription =
  | {
      readonly tool: string;
      readonly status: 'bound';
      readonly bindingId: string;
      readonly contract: Binding['contract'];
      readonly model: Binding['model'];
      readonly conversion: Binding['conversion'];
      readonly implementation: Implementation;
      readonly server?: ServerIdentity;
      readonly gaps: readonly string[];
      /** Sent with `defer_loading` (a host's `--defer-tool`): callable once a ToolSearch answer disclosed it. */
      readonly deferred?: true;
    }
  | {
      readonly tool: string;
      readonly status: 'refused';
      readonly class: ErrorClass;
      readonly kind: string;
      readonly message: string;
      readonly issues: readonly string[];
    };

/** The document `caplab tools [--model T] --json` prints. */
export interface ToolsDescription {
  readonly target: ModelTarget;
  readonly tableId: string;
  readonly tools: readonly ToolDescription[];
}

/**
 * Describes a frozen tool table as plain JSON-ready data, in the host's order.
 *
 * @example
 * console.log(JSON.stringify(describeTools(bindTable(entries, 'strict')), null, 2));
 */
export function describeTools(table: ToolTable): ToolsDescription {
  const tools = table.tools.map((tool): ToolDescription => {
    const binding = table.bindings[tool];
    if (binding) {
      return {
        tool,
        status: 'bound',
        bindingId: binding.id,
        contract: binding.contract,
        model: binding.model,
        conversion: binding.conversion,
        implementation: binding.implementation,
        ...(binding.server ? { server: binding.server } : {}),
        gaps: binding.gaps,
      };
    }
    const failure = table.refused[tool];
    if (!failure) throw new TypeError(`describeTools: ${tool} is listed but neither bound nor refused`);
    return { tool, status: 'refused', class: failure.class, kind: failure.kind, message: failure.message, issues: failure.issues ?? [] };
  });
  return { target: table.target, tableId: table.id, tools };
}

function short(hash: string): string {
  return hash.slice(0, 16);
}

/** The contract's attributes as words: what a caller may assume about the effect. */
function attributeWords(attributes: Binding['contract']['attributes']): string {
  return [
    attributes.readOnly ? 'read-only' : 'writes',
    ...(attributes.destructive ? ['destructive'] : []),
    attributes.idempotent ? 'idempotent' : 'not idempotent',
    attributes.concurrencySafe ? 'concurrency-safe' : 'serial',
    attributes.openWorld ? 'open world' : 'closed world',
  ].join(', ');
}

function fieldCount(schema: JsonSchema): number {
  const properties = schema['properties'];
  return properties !== null && typeof properties === 'object' ? Object.keys(properties).length : 0;
}

/**
 * Renders a tools description for people: one block per tool with hashes,
 * versions and the binding id; refusals say which field and why. Full schemas
 * are in the JSON form.
 */
export function renderToolsText(description: ToolsDescription): string {
  const lines = [`Tools for model target "${description.target}" (table ${short(description.tableId)})`];
  for (const tool of description.tools) {
    lines.push('');
    if (tool.status === 'refused') {
      lines.push(`✗ ${tool.tool}  not exposed to ${description.target} (${tool.class}/${tool.kind})`);
      lines.push(`    ${tool.message}`);
      continue;
    }
    const server = tool.server ? `  server ${tool.server.name}@${tool.server.version} (${tool.server.protocolVersion})` : '';
    const fills = Object.keys(tool.contract.fills);
    lines.push(`✓ ${tool.tool}  binding ${short(tool.bindingId)}${tool.deferred ? '  deferred' : ''}`);
    if (tool.deferred) lines.push('    deferred    sent with defer_loading; callable once a ToolSearch answer references it');
    lines.push(`    contract    ${tool.contract.name}@${tool.contract.version}  schema ${short(tool.contract.schemaHash)}  ${fieldCount(tool.contract.schema)} fields`);
    lines.push(`    effect      ${tool.contract.effect} (${attributeWords(tool.contract.attributes)})  as ${tool.contract.identity}`);
    lines.push(`    limits      ${tool.contract.limits.timeoutMs} ms, ${tool.contract.limits.maxResultBytes} result bytes  result schema ${short(tool.contract.resultSchemaHash)}`);
    lines.push(`    model       ${tool.model.target}  schema ${short(tool.model.schemaHash)}`);
    lines.push(`    conversion  arguments ${tool.conversion.arguments}  results ${tool.conversion.result}`);
    lines.push(`    implements  ${tool.implementation.kind} ${tool.implementation.version}${server}`);
    if (tool.server) lines.push(endpointLine(tool.server.endpoint));
    if (fills.length > 0) lines.push(`    fills       ${fills.join(', ')} (filled only when missing; recorded)`);
    for (const gap of tool.gaps) lines.push(`    gap         ${gap}`);
  }
  lines.push('', 'Full schemas: --json.');
  return `${lines.join('\n')}\n`;
}

/** How a server is reached, as one line: its launch, or its URL and the names of the headers sent (never their values). */
function endpointLine(endpoint: ServerEndpoint): string {
  if (endpoint.kind === 'http') return `    url         ${endpoint.url}  header names ${endpoint.headerNames.length > 0 ? endpoint.headerNames.join(', ') : 'none'}`;
  const { argv, cwd, envNames } = endpoint;
  return `    launch      ${argv.join(' ')}  cwd ${cwd}  env names ${envNames.length > 0 ? envNames.join(', ') : 'none'}`;
}
