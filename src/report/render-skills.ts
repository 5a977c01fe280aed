import type { Context } from './context.ts';
import type { Found, FoundLine } from './found.ts';
import { html, idAttr, linkTo, type Html } from './html.ts';
import { facts, hash, obj, objects, str } from './values.ts';

/** The call a discovery names by its action id, linked when the record holds it (a forged id shows as text). */
function trigger(actionId: string | undefined, context: Context, scope: string): Html | string | undefined {
  if (actionId === undefined) return undefined;
  const at = context.lines.find((l) => str(l.event, 'type') === 'call' && str(l.event, 'action_id') === actionId && (str(l.event, 'agent_id') ?? '') === scope);
  return at ? linkTo(at.index, actionId) : `${actionId} (no such call)`;
}

function originText(origin: Found | undefined): string | undefined {
  const kind = str(origin, 'kind');
  return kind === undefined ? undefined : str(origin, 'path') !== undefined ? `${kind} ${str(origin, 'path')}` : kind;
}

/** `skill_visible` (format 10): a package that joined the catalog, and the touch that made it. */
export function renderSkillVisible(event: Found, line: FoundLine, context: Context): Html {
  const scope = str(event, 'agent_id') ?? '';
  return html`<div class="event skill" ${idAttr(line.index)}><h3>skill visible: ${str(event, 'name') ?? '?'} <span class="muted">seq ${line.index}</span></h3>${facts([
    ['via', str(event, 'via')],
    ['touched path', str(event, 'path')],
    ['glob', str(event, 'glob')],
    ['nested folder', str(event, 'folder')],
    ['by call', trigger(str(event, 'action_id'), context, scope)],
    ['package sha256', event['hash'] === undefined ? undefined : hash(event['hash'])],
    ['origin', originText(obj(event, 'origin'))],
  ])}<p class="muted">Visible is not granted: a skill names a method, never a permission.</p></div>`;
}

/** `skill_found` (format 10): what a nested `.claude/skills/` held that did not join the catalog, and why. */
export function renderSkillFound(event: Found, line: FoundLine, context: Context): Html {
  const scope = str(event, 'agent_id') ?? '';
  const rows = [
    ...objects(event, 'held').map((p) => html`<li>${str(p, 'name') ?? '?'}: held by paths</li>`),
    ...objects(event, 'refused').map((p) => html`<li>${str(p, 'name') ?? '?'}: refused ${str(p, 'class') ?? '?'}/${str(p, 'kind') ?? '?'}: ${str(p, 'message') ?? ''}</li>`),
    ...objects(event, 'skipped').map((p) => html`<li>${str(p, 'name') ?? '?'}: skipped (${str(p, 'reason') ?? '?'}): ${str(p, 'message') ?? ''}</li>`),
  ];
  return html`<div class="event skill" ${idAttr(line.index)}><h3>skills found, not listed <span class="muted">seq ${line.index}</span></h3>${facts([
    ['folder', str(event, 'folder')],
    ['touched path', str(event, 'path')],
    ['by call', trigger(str(event, 'action_id'), context, scope)],
  ])}<ul>${rows}</ul></div>`;
}
