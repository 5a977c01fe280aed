/**
 * Test code only: a provider that stands in for the configured-server
 * provider (`--mcp-config`) — its tools answer in-process, but they are bound
 * as a server's (implementation `mcp`, server key `a`, named by the
 * tool-name rule), every call reports an exchange with server `a`, and its
 * tool set carries `servers`: `a` started with one tool bound and one left
 * unbound, `b` failed to start. What run_end records of `a` is known only
 * after the set closed, so a run that read it before would record `close: null`.
 */
import { bind, qualifiedName, TOOL_NAME_RULE, type ServerIdentity } from '../../binding/index.ts';
import { ok } from '../../contract/index.ts';
import { attributesOf, textBlock, type ProtocolExchange, type RuntimeTool } from '../../pipeline/index.ts';
import type { ServerEnd, ServerStart, ToolProvider } from '../tools.ts';
import { ECHO } from './loop-kit.ts';

/** The listed name of the fake server's tool: a dot, so the tool-name rule rewrites its model name. */
export const FAKE_TOOL = 'echo.v1';
export const FAKE_IDENTITY: ServerIdentity = {
  key: 'a',
  name: 'same-name',
  version: '1.0.0',
  protocolVersion: '2025-06-18',
  endpoint: { kind: 'stdio', argv: ['/bin/fake-server'], cwd: '(fresh)', envNames: [] },
  instanceId: 'fake-a',
};

/** The fake's tool: echo, bound as server `a`'s `echo.v1` (`mcp__a__echo_v1_` and 8 hex to the model). */
function fakeTool(exchanges: Map<string, ProtocolExchange>): RuntimeTool {
  const binding = bind(ECHO, { implementation: { kind: 'mcp', version: 'fake/1' }, server: FAKE_IDENTITY, naming: { full: qualifiedName('a', FAKE_TOOL), rule: TOOL_NAME_RULE } });
  return {
    contract: ECHO,
    binding,
    attributes: attributesOf(ECHO),
    handler: async (input, context) => {
      exchanges.set(context.actionId, { transport: 'mcp-stdio', server: 'a', method: 'tools/call', jsonrpcId: exchanges.size + 2, requestBytes: 10, responseBytes: 20, isError: false });
      const { word } = input as { word: string };
      return ok({ data: { echoed: word }, content: [textBlock(word)], evidence: 'bytes observed now' });
    },
  };
}

/** The fake configured-server provider; `closed` counts its set's closes. */
export function serversFake(): ToolProvider & { readonly closed: { count: number } } {
  const closed = { count: 0 };
  const exchanges = new Map<string, ProtocolExchange>();
  const tool = fakeTool(exchanges);
  return {
    closed,
    offers: [{ binding: { tool: tool.binding.tool, server: { key: 'a' } }, contract: ECHO, implementation: tool.binding.implementation }],
    open: async () => {
      const start: ServerStart[] = [
        {
          key: 'a',
          status: 'started',
          identity: FAKE_IDENTITY,
          tools: [
            { name: FAKE_TOOL, status: 'bound', model_name: tool.binding.tool, binding_id: tool.binding.id },
            { name: 'odd', status: 'unbound', failure: { class: 'invalid_arguments', kind: 'bad_schema', message: 'its inputSchema does not compile' } },
          ],
          notices: [],
        },
        { key: 'b', config_key: 'b.server', status: 'failed', failure: { class: 'spawn', kind: 'spawn_failed', message: 'no such command' }, tools: [], notices: ['server b did not start: no such command'] },
      ];
      const end = (): ServerEnd[] => [
        { key: 'a', close: closed.count > 0 ? { exitCode: 0, signal: null } : null, list_changed: { seen: 1, relists: [{ outcome: 'unchanged', changed: [], removed: [], added: [] }] }, stderr: 'ready\n' },
        { key: 'b', close: null, list_changed: { seen: 0, relists: [] }, stderr: '' },
      ];
      return ok({
        transport: 'mcp',
        tools: [tool],
        protocolOf: (actionId: string) => exchanges.get(actionId),
        servers: { start, end },
        close: async () => void closed.count++,
      });
    },
  };
}
