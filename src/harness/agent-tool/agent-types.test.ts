import { expect, test } from 'bun:test';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { scratchDir } from '../../../test/scratch.ts';
import { LIMITS } from '../../contract/index.ts';
import { bind } from '../../binding/index.ts';
import { parseScenario } from '../scenario.ts';
import { checkAgent, subagentTools } from './agent-tool.ts';
import { discoverAgentTypes, parseAgentFile, type AgentTypes } from './agent-types.ts';
import { readSourceContract } from '../../excerpt/index.ts';

const file = (front: string, body = 'Do the task.') => `---\n${front}\n---\n${body}\n`;
const kind = (o: { ok: boolean; kind?: string }) => (o.ok ? 'ok' : o.kind);

test('a subagent file: name and description required, tools as a string or a list, maxTurns capped, unapplied fields recorded', () => {
  const parsed = parseAgentFile(file('name: r\ndescription: reads\ntools: read_source, create_card\nmaxTurns: 99\nmodel: haiku\ncolor: blue\nflavour: x'), 'r.md', 'dir');
  expect(parsed.ok && [parsed.value.tools, parsed.value.maxTurns, parsed.value.notApplied, parsed.value.body]).toEqual([['read_source', 'create_card'], LIMITS.subagentRequests, ['color', 'flavour', 'model'], 'Do the task.']);
  const listed = parseAgentFile(file('name: r\ndescription: reads\ntools:\n  - read_source'), 'r.md', 'dir');
  expect(listed.ok && listed.value.tools).toEqual(['read_source']);
  expect(kind(parseAgentFile(file('name: r'), 'r.md', 'dir'))).toBe('bad_agent_file');
  expect(kind(parseAgentFile(file('description: d'), 'r.md', 'dir'))).toBe('bad_agent_file');
  expect(kind(parseAgentFile(file('name: r\ndescription: d\nmaxTurns: 0'), 'r.md', 'dir'))).toBe('bad_agent_file');
  expect(kind(parseAgentFile('no frontmatter', 'r.md', 'dir'))).toBe('bad_agent_file');
  expect(kind(parseAgentFile(file('name: r\ndescription: d', 'x'.repeat(LIMITS.agentFileBytes)), 'r.md', 'dir'))).toBe('too_large');
  // A permission mode that does not widen is recorded, not applied; one that widens is honoured (and refused as wider when called).
  const plan = parseAgentFile(file('name: r\ndescription: d\npermissionMode: plan'), 'r.md', 'dir');
  expect(plan.ok && plan.value.notApplied).toEqual(['permissionMode']);
});

function folder(files: Record<string, string>): string {
  const dir = scratchDir('caplab-agents-');
  for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, name), text);
  return dir;
}

test('discovery: general-purpose always; a broken file listed refused; two files of one type refused before anything runs', () => {
  const dir = folder({ 'a.md': file('name: a\ndescription: d'), 'broken.md': '---\nname: [\n---\n' });
  const found = discoverAgentTypes({ dirs: [dir] });
  expect(found.ok && found.value.types.map((t) => t.name)).toEqual(['general-purpose', 'a']);
  expect(found.ok && found.value.refused.map((r) => r.name)).toEqual(['broken']);
  const twice = folder({ 'a.md': file('name: a\ndescription: d'), 'b.md': file('name: a\ndescription: e') });
  expect(kind(discoverAgentTypes({ dirs: [twice] }))).toBe('duplicate_agent_type');
  expect(kind(discoverAgentTypes({ dirs: [folder({ 'gp.md': file('name: general-purpose\ndescription: d') })] }))).toBe('duplicate_agent_type');
});

test("the project's ./.claude/agents/ is read only with trust; an embedded type by name", () => {
  const cwd = scratchDir('caplab-agents-project-');
  mkdirSync(join(cwd, '.claude/agents'), { recursive: true });
  writeFileSync(join(cwd, '.claude/agents/p.md'), file('name: p\ndescription: d'));
  const names = (trust: boolean) => {
    const found = discoverAgentTypes({ cwd, trust });
    return found.ok ? found.value.types.map((t) => `${t.name}:${t.source}`) : found.kind;
  };
  expect(names(false)).toEqual(['general-purpose:host']);
  expect(names(true)).toEqual(['general-purpose:host', 'p:project']);
  const embedded = discoverAgentTypes({ embedded: ['reader'] });
  expect(embedded.ok && embedded.value.types.map((t) => `${t.name}:${t.source}`)).toEqual(['general-purpose:host', 'reader:embedded']);
  expect(kind(discoverAgentTypes({ embedded: ['nope'] }))).toBe('unknown_subagent_type');
});

const readSource = bind(readSourceContract, { implementation: { kind: 'local', version: '1' } });
const request = { request: { id: 'req-01', payload: new Uint8Array(), payloadSha256: '', bindings: { read_source: readSource } } };

function typesOf(files: Record<string, string>): AgentTypes {
  const found = discoverAgentTypes({ dirs: [folder(files)] });
  if (!found.ok) throw new Error(found.message);
  return found.value;
}

test('checkAgent: unknown and refused types, isolation, background, and types wider than the caller are refused before anything starts', () => {
  const types = typesOf({
    'ok.md': file('name: ok\ndescription: d\ntools: read_source'),
    'bash.md': file('name: bash\ndescription: d\ntools: read_source, Bash'),
    'bypass.md': file('name: bypass\ndescription: d\npermissionMode: bypassPermissions'),
    'inline.md': file('name: inline\ndescription: d\nmcpServers:\n  - { command: x }'),
    'server.md': file('name: server\ndescription: d\nmcpServers: [other]'),
    'bg.md': file('name: bg\ndescription: d\nbackground: true'),
    'bad.md': '---\n: [\n---\n',
  });
  const check = (input: Record<string, unknown>) => checkAgent(types, { description: 'd', prompt: 'p', ...input }, request)?.kind ?? 'ok';
  expect(check({ subagent_type: 'ok' })).toBe('ok');
  expect(check({})).toBe('ok');
  expect(check({ subagent_type: 'nope' })).toBe('unknown_subagent_type');
  expect(check({ subagent_type: 'bad' })).toBe('subagent_type_refused');
  expect(check({ subagent_type: 'ok', isolation: 'worktree' })).toBe('isolation_unsupported');
  expect(check({ subagent_type: 'ok', run_in_background: true })).toBe('background_unsupported');
  expect(check({ subagent_type: 'bg' })).toBe('background_unsupported');
  for (const wide of ['bash', 'bypass', 'inline', 'server']) expect(check({ subagent_type: wide })).toBe('subagent_tools_wider');
  expect(checkAgent(types, { description: 'd', prompt: 'p', subagent_type: 'bash' }, request)?.message).toContain('Bash');
});

test("a subagent's tools: its type's (or every pinned tool) minus disallowedTools and Agent", () => {
  const types = typesOf({ 'no.md': file('name: no\ndescription: d\ndisallowedTools: create_card') });
  const gp = types.types.find((t) => t.name === 'general-purpose')!;
  expect(subagentTools(gp, ['read_source', 'create_card', 'Agent'])).toEqual(['read_source', 'create_card']);
  expect(subagentTools(types.types.find((t) => t.name === 'no')!, ['read_source', 'create_card', 'Agent'])).toEqual(['read_source']);
});

const step = (calls: { id: string; name: string }[]) => ({ tool_calls: calls.map((c) => ({ ...c, arguments: {} })), usage: { input_tokens: 1, output_tokens: 1 } });
const final = { text: 'done', usage: { input_tokens: 1, output_tokens: 1 } };
const scenario = (responses: unknown[], subagents?: unknown) => JSON.stringify({ name: 's', description: 'd', expect: { accepted: false }, responses, ...(subagents ? { subagents } : {}) });
const loaded = (text: string) => {
  const parsed = parseScenario(text, 's.json');
  return parsed.ok ? 'ok' : `${parsed.kind}: ${parsed.message}`;
};

test('a scenario: each Agent tool_use has a script, each script its tool_use, and no id serves two levels', () => {
  expect(loaded(scenario([step([{ id: 'a', name: 'Agent' }]), final], { a: { responses: [final] } }))).toBe('ok');
  expect(loaded(scenario([step([{ id: 'a', name: 'Agent' }]), final]))).toStartWith('bad_scenario: s.json: responses: the Agent tool_use "a" has no script');
  expect(loaded(scenario([step([{ id: 'a', name: 'Task' }]), final]))).toStartWith('bad_scenario');
  expect(loaded(scenario([final], { a: { responses: [final] } }))).toStartWith('bad_scenario: s.json: subagents.a: no Agent tool_use');
  expect(loaded(scenario([step([{ id: 'a', name: 'Agent' }, { id: 'x', name: 'read_source' }]), final], { a: { responses: [step([{ id: 'x', name: 'read_source' }]), final] } }))).toStartWith('duplicate_call_id');
  // Within one level a repeated id is the run's to refuse (a hostile scenario scripts it).
  expect(loaded(scenario([step([{ id: 'a', name: 'Agent' }]), final], { a: { responses: [step([{ id: 'y', name: 'read_source' }, { id: 'y', name: 'read_source' }]), final] } }))).toBe('ok');
});
