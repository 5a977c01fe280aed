import { modelToolName, qualifiedName, TOOL_NAME_RULE } from '../binding/index.ts';
import type { Event, RecordFormat, VerifyFailure } from '../ledger/index.ts';
import { failAt, isFormatFrom, LEDGER_FORMAT_5 } from '../ledger/index.ts';
import { eventAt } from './record-checks.ts';
import type { ServerEnd, ServerStart } from './tools.ts';

type Start = Event<'run_start'>;
type Binding = Start['bindings'][number];

const bad = (event: Event, message: string): VerifyFailure => failAt('bad_event', message, eventAt(event));
const mismatch = (event: Event, message: string): VerifyFailure => failAt('binding_mismatch', message, eventAt(event));

/**
 * The configured servers of a record (format 5) must tell one story with its
 * bindings, calls and end: each key once; a started server has its identity
 * under its own key and no failure, a failed one its failure and no identity
 * nor bound tool; every tool a server lists as bound names a binding of
 * run_start under that model name and that server's key (unless the run's
 * tools never opened, so run_start records no binding), and every binding
 * of a configured server's key is one it lists; a binding's model name is
 * what the tool-name rule makes of its full name (`modelToolName`), its full
 * name `mcp__<key>__<tool>`; a call over MCP names (`protocol.server`) the
 * key of its binding's server, and a configured one only if it started;
 * run_end records every started server's end, each key once, no other.
 * Only format 5 and later record configured servers (in a record of another format,
 * a `servers` field is a task's own, which this never reads).
 */
export function checkServers(events: readonly Event[], format: RecordFormat): VerifyFailure | undefined {
  const start = events.find((e): e is Start => e.type === 'run_start');
  if (!start || !isFormatFrom(format, LEDGER_FORMAT_5)) return undefined;
  const named = start.bindings.map((binding) => checkNaming(start, binding)).find((failure) => failure !== undefined);
  if (named) return named;
  // The record's format-5 schema parsed these as the harness's shapes (event-parts' ServerStartRecord, ServerEndRecord).
  const servers = (start as Readonly<Record<string, unknown>>)['servers'] as readonly ServerStart[] | undefined;
  if (!servers) return undefined;
  return checkStarts(start, servers) ?? checkListed(start, servers) ?? checkProtocols(events, servers) ?? checkEnds(events, servers);
}

/** A binding that records its naming: the rule this verifier knows, and its model name derived again from its full name. */
function checkNaming(start: Start, binding: Binding): VerifyFailure | undefined {
  if (!('naming' in binding) || binding.naming === undefined) return undefined;
  const { full, rule } = binding.naming;
  if (rule !== TOOL_NAME_RULE) return mismatch(start, `binding ${binding.id} names its tool by rule ${JSON.stringify(rule)}; this verifier derives names by ${TOOL_NAME_RULE}`);
  const derived = modelToolName(full);
  if (derived !== binding.tool) return mismatch(start, `binding ${binding.id} shows the model ${JSON.stringify(binding.tool)}; ${TOOL_NAME_RULE} makes ${JSON.stringify(derived)} of its full name ${JSON.stringify(full)}`);
  return undefined;
}

/** Each key once; started with its identity under its key, or failed with its failure. */
function checkStarts(start: Start, servers: readonly ServerStart[]): VerifyFailure | undefined {
  const keys = new Set<string>();
  for (const server of servers) {
    const { key } = server;
    if (keys.has(key)) return bad(start, `run_start records server ${JSON.stringify(key)} twice`);
    keys.add(key);
    if (server.status === 'started' && (server.identity?.key !== key || server.failure !== undefined)) {
      return bad(start, `server ${JSON.stringify(key)} is recorded started, but ${server.failure ? 'with a failure' : `its identity is ${server.identity ? `server ${JSON.stringify(server.identity.key)}'s` : 'missing'}`}`);
    }
    if (server.status === 'failed' && (server.failure === undefined || server.identity !== undefined || server.tools.some((t) => t.status === 'bound'))) {
      return bad(start, `server ${JSON.stringify(key)} is recorded failed, but ${server.failure ? 'with an identity or a bound tool' : 'without its failure'}`);
    }
  }
  return undefined;
}

/** Listed bound tools and the bindings of configured servers name each other: binding id, model name, server key, full name. */
function checkListed(start: Start, servers: readonly ServerStart[]): VerifyFailure | undefined {
  const byId = new Map(start.bindings.map((binding) => [binding.id, binding]));
  const listed = new Set<string>();
  for (const server of servers) {
    for (const tool of server.tools) {
      if (tool.status !== 'bound') continue;
      const binding = byId.get(tool.binding_id);
      // Tools that never opened (transport null) record no binding: the servers' listings are what is known of them.
      if (!binding && start.transport === null) continue;
      const where = `server ${JSON.stringify(server.key)} lists ${JSON.stringify(tool.name)} bound as ${JSON.stringify(tool.model_name)}`;
      if (!binding) return mismatch(start, `${where} under binding ${tool.binding_id}, which run_start does not record`);
      if (binding.tool !== tool.model_name || serverKeyOf(binding) !== server.key) {
        return mismatch(start, `${where}, but binding ${binding.id} is ${JSON.stringify(binding.tool)} of ${JSON.stringify(serverKeyOf(binding) ?? null)}`);
      }
      const full = 'naming' in binding ? binding.naming?.full : undefined;
      if (full !== undefined && full !== qualifiedName(server.key, tool.name)) return mismatch(start, `${where}, but its binding's full name is ${JSON.stringify(full)}`);
      listed.add(binding.id);
    }
  }
  const keys = new Set(servers.map((server) => server.key));
  const unlisted = start.bindings.find((binding) => keys.has(serverKeyOf(binding) ?? '') && !listed.has(binding.id));
  return unlisted ? mismatch(start, `binding ${unlisted.id} (${unlisted.tool}) is of server ${JSON.stringify(serverKeyOf(unlisted))}, which lists no tool bound to it`) : undefined;
}

/** A call over MCP names its binding's server by key; a configured server only once started. */
function checkProtocols(events: readonly Event[], servers: readonly ServerStart[]): VerifyFailure | undefined {
  const start = events.find((e): e is Start => e.type === 'run_start')!;
  const byId = new Map(start.bindings.map((binding) => [binding.id, binding]));
  const started = new Set(servers.filter((server) => server.status === 'started').map((server) => server.key));
  const configured = new Set(servers.map((server) => server.key));
  for (const call of events) {
    if (call.type !== 'call' || call.protocol === null) continue;
    const named = call.protocol.server;
    const binding = call.binding_id === null ? undefined : byId.get(call.binding_id);
    const key = binding ? serverKeyOf(binding) : undefined;
    const wrong =
      configured.has(named) && !started.has(named) ? `names server ${JSON.stringify(named)}, which did not start`
      : key !== undefined && key !== named ? `names server ${JSON.stringify(named)}, but its binding is server ${JSON.stringify(key)}'s`
      : key === undefined && !started.has(named) ? `names server ${JSON.stringify(named)}, no server of this run`
      : undefined;
    if (wrong) return failAt('call_inconsistent', `call ${call.tool_call_id} over MCP ${wrong}`, eventAt(call));
  }
  return undefined;
}

/** run_end records how every started server ended: each key once, and only servers run_start records. */
function checkEnds(events: readonly Event[], servers: readonly ServerStart[]): VerifyFailure | undefined {
  const end = events.find((e): e is Event<'run_end'> => e.type === 'run_end');
  if (!end) return undefined;
  const ends = (end as Readonly<Record<string, unknown>>)['servers'] as readonly ServerEnd[] | undefined;
  if (!ends) return bad(end, 'run_end records no servers, but run_start records configured servers');
  const keys = new Set(servers.map((server) => server.key));
  const seen = new Set<string>();
  for (const { key } of ends) {
    if (!keys.has(key) || seen.has(key)) return bad(end, `run_end records server ${JSON.stringify(key)} ${seen.has(key) ? 'twice' : 'that run_start does not record'}`);
    seen.add(key);
  }
  const missing = servers.find((server) => server.status === 'started' && !seen.has(server.key));
  return missing ? bad(end, `run_end records no end of server ${JSON.stringify(missing.key)}, which started`) : undefined;
}

/** The key of a binding's server, in a format that records one (4 on). */
function serverKeyOf(binding: Binding): string | undefined {
  return binding.server && 'key' in binding.server ? binding.server.key : undefined;
}
