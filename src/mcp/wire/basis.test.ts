import { expect, test } from 'bun:test';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { refuse, STRICT_CLIENT_BASIS } from './basis.ts';

test('every strict-client refusal kind names its basis', () => {
  expect(STRICT_CLIENT_BASIS).toEqual({
    // stdio transport and JSON-RPC: the spec's MUSTs
    framing: 'spec MUST',
    encoding: 'spec MUST',
    not_jsonrpc: 'spec MUST',
    duplicate_response: 'spec MUST',
    unknown_id: 'spec MUST',
    malformed_result: 'spec MUST',
    // structuredContent must conform to the (listed = pinned) outputSchema
    output_invalid: 'spec MUST',
    // what the fixed profile narrows further
    too_large: 'caplab host rule',
    duplicate_key: 'caplab host rule',
    jsonrpc_error: 'caplab host rule',
    version_mismatch: 'caplab host rule',
    unexpected_tools: 'caplab host rule',
    pagination_unsupported: 'caplab host rule',
    tool_drift: 'caplab host rule',
    result_conflict: 'caplab host rule',
    // Streamable HTTP: what the spec requires of a server's answers, and caplab's own rules
    redirect: 'caplab host rule',
    bad_session_id: 'spec MUST',
    not_accepted: 'spec MUST',
    bad_content_type: 'spec MUST',
    no_answer: 'spec MUST',
    http_status: 'caplab host rule',
    // MCP 2026-07-28 (probe's modern era): what every result, and every cacheable one, must carry
    result_type: 'spec MUST',
    unrequested_result_type: 'spec MUST',
    cache_hints: 'spec MUST',
    // MCP 2025-11-25 tasks (src/mcp/tasks): the revision's MUSTs for a task, and caplab's poll floor
    task_malformed: 'spec MUST',
    task_id: 'spec MUST',
    task_status: 'spec MUST',
    task_first_status: 'spec MUST',
    task_transition: 'spec MUST',
    task_related_meta: 'spec MUST',
    task_poll_interval: 'caplab host rule',
  });
  expect(refuse('protocol', 'framing', 'stray byte')).toEqual({ ok: false, class: 'protocol', kind: 'framing', message: 'stray byte', basis: 'spec MUST' });
});

test('gate: src/mcp makes no protocol-class failure without a basis (all go through refuse, with a kind of the table)', () => {
  // Every layer of src/mcp: the wire, the client, the server and the prober.
  const dir = join(import.meta.dir, '..');
  // wire/kinds.ts is the table itself: its rows name the class and the basis together.
  const sources = readdirSync(dir, { recursive: true, encoding: 'utf8' }).filter((name) => name.endsWith('.ts') && !name.endsWith('.test.ts') && !name.includes('testing/') && name !== 'wire/kinds.ts');
  const bare: string[] = [];
  const unknownKinds: string[] = [];
  for (const name of sources) {
    const text = readFileSync(join(dir, name), 'utf8');
    for (const match of text.matchAll(/\bfail\(\s*['"`]protocol['"`]|class:\s*['"`]protocol['"`]/g)) bare.push(`${name}: ${match[0]}`);
    for (const match of text.matchAll(/\brefuse\(\s*['"`]\w+['"`],\s*['"`](\w+)['"`]/g)) {
      if (!(match[1]! in STRICT_CLIENT_BASIS)) unknownKinds.push(`${name}: ${match[1]}`);
    }
  }
  expect(sources).toContain('client/handshake.ts');
  expect(bare).toEqual([]);
  expect(unknownKinds).toEqual([]);
});
