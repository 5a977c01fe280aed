import type { EventType } from '../ledger/index.ts';
import type { Context } from './context.ts';
import type { Found, FoundLine } from './found.ts';
import type { Html } from './html.ts';
import { renderCall } from './render-call.ts';
import { renderRequest, renderResponse } from './render-request.ts';
import { renderAcceptance, renderEnd, renderStart } from './render-run.ts';
import { renderSkillFound, renderSkillVisible } from './render-skills.ts';
import { renderSubagentEnd, renderSubagentStart } from './render-subagent.ts';

/** Where a type's events go on the page: its top (after the verdict), the timeline, or after the timeline. */
export type Place = 'head' | 'timeline' | 'tail';

/** How one event type is shown. */
export interface Renderer {
  readonly place: Place;
  /**
   * Renders one event as found (every field checked where it is read: a
   * record that does not verify may hold anything). `nested` is what the
   * timeline nests inside it (a request's response and calls, a subagent's
   * events inside its parent's call), rendered already.
   */
  render(event: Found, line: FoundLine, context: Context, nested: Html): Html;
}

/**
 * One renderer per event type of `src/ledger/events.ts`: the type makes a
 * missing one a compile error and renderers.test.ts a failing test. A new
 * type is one entry here: its place, and a function of the event (see
 * README "Reading a run").
 */
export const RENDERERS: { readonly [T in EventType]: Renderer } = {
  run_start: { place: 'head', render: (event, line, context) => renderStart(event, line, context) },
  request: { place: 'timeline', render: renderRequest },
  response: { place: 'timeline', render: (event, line, context) => renderResponse(event, line, context) },
  call: { place: 'timeline', render: renderCall },
  subagent_start: { place: 'timeline', render: renderSubagentStart },
  subagent_end: { place: 'timeline', render: (event, line) => renderSubagentEnd(event, line) },
  acceptance: { place: 'tail', render: (event, line, context) => renderAcceptance(event, line, context) },
  run_end: { place: 'tail', render: (event, line, context) => renderEnd(event, line, context) },
  skill_visible: { place: 'timeline', render: (event, line, context) => renderSkillVisible(event, line, context) },
  skill_found: { place: 'timeline', render: (event, line, context) => renderSkillFound(event, line, context) },
};

/** The renderer of a type, when it is one of the ledger's; undefined for any other (shown raw). */
export function rendererOf(type: unknown): Renderer | undefined {
  return typeof type === 'string' && Object.hasOwn(RENDERERS, type) ? RENDERERS[type as EventType] : undefined;
}
