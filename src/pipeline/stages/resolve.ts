import { resolvePinned, type Binding } from '../../binding/index.ts';
import { fail, type Failure, type Outcome } from '../../contract/index.ts';
import type { ProducingRequest, RuntimeTool, ToolCall } from '../tool.ts';
import { next, stop, type Pipeline, type CallStage } from './stage.ts';

/**
 * Resolves a call under the binding recorded in the request that produced it.
 * Never looks the name up "fresh": the tool object that runs is the one
 * registered under the pinned binding id, and a name now bound to another id
 * is refused (`precondition/binding_changed`). Names come from each tool's
 * own binding, not from the table's keys.
 */
export function resolveCall(call: ToolCall, request: ProducingRequest, tools: Pipeline['tools']): Outcome<{ tool: RuntimeTool; binding: Binding }> {
  const registered = Object.values(tools);
  const current = Object.fromEntries(registered.map((tool) => [tool.binding.tool, tool.binding]));
  const pinned = resolvePinned(request.bindings, current, call.name);
  if (!pinned.ok) return pinned;
  // resolvePinned found the pinned id registered under this name, so the search always succeeds.
  const tool = registered.find((candidate) => candidate.binding.id === pinned.value.id)!;
  const hidden = undisclosed(tool, call.name, request);
  return hidden ?? { ok: true, value: { tool, binding: pinned.value } };
}

/**
 * A deferred tool may be called only under a request whose payload disclosed
 * it (a ToolSearch answer in it referenced it): the model has not been shown
 * its definition otherwise. Refused before convert, validation, hooks and
 * handler; a reference answered now reaches the model in the next request.
 */
function undisclosed(tool: RuntimeTool, name: string, request: ProducingRequest): Failure | undefined {
  if (!tool.attributes.deferred || (request.disclosedTools ?? []).includes(name)) return undefined;
  return fail('precondition', 'tool_not_disclosed', `${name} is deferred and request ${request.id} did not disclose it (a caplab host rule): call ToolSearch first; its reference reaches the model in the next request`);
}

/** resolve: the tool and binding the call runs under; the record's detail is the binding id. */
export const resolve: CallStage<never> = {
  name: 'resolve',
  needs: [],
  run(state) {
    const resolved = resolveCall(state.call, state.context.request, state.pipeline.tools);
    if (!resolved.ok) return stop(resolved);
    const { tool, binding } = resolved.value;
    return next({ tool, binding }, binding.id);
  },
};
