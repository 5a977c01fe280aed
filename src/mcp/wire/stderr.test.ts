import { expect, test } from 'bun:test';
import { redactorFor } from '../../contract/index.ts';
import { openStrictClient } from '../client/client.ts';
import { StderrTail } from './stderr.ts';
import { FAST } from '../client/testing/timeouts.ts';

const SECRET = 'sk-test-0123456789abcdef';
const encode = (text: string) => new TextEncoder().encode(text);

test('the kept tail redacts a placed value; a value cut in half at the front is dropped with the edge', () => {
  const tail = new StderrTail(24, redactorFor({ TOKEN: SECRET }));
  tail.push(encode(`boot ${SECRET} ok\n`));
  expect(tail.dropped).toBeGreaterThan(0);
  // 24 bytes kept: "…89abcdef ok\n" would hold the end of the value; it is cut, nothing of it shows.
  expect(tail.text()).not.toContain('89abcdef');
  const whole = new StderrTail(4096, redactorFor({ TOKEN: SECRET }));
  whole.push(encode(`boot ${SECRET} ok\n`));
  expect(whole.text()).toBe('boot [redacted:TOKEN] ok\n');
});

test('a server that prints a value from its launch env: the failure caplab reports carries [redacted:NAME], never the value', async () => {
  const client = await openStrictClient({
    key: 'failing',
    launch: { command: ['/bin/sh', '-c', 'echo "starting with token $CAPLAB_TEST_TOKEN" >&2; exit 1'], cwd: '/', env: { CAPLAB_TEST_TOKEN: SECRET } },
    tools: [],
    timeouts: FAST,
  });
  expect(client.ok).toBe(false);
  if (client.ok) return;
  const reported = JSON.stringify(client);
  expect(reported).toContain('starting with token [redacted:CAPLAB_TEST_TOKEN]');
  expect(reported).not.toContain(SECRET);
});
