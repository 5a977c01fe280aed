import { expect, test } from 'bun:test';
import { Glob } from 'bun';

/**
 * Test servers are test code: no shipped file may import them, or they would
 * end up in the compiled binary.
 */
test('no shipped source imports src/mcp/testing', async () => {
  const root = new URL('../', import.meta.url).pathname;
  const offenders: string[] = [];
  let scanned = 0;
  for await (const path of new Glob('**/*.ts').scan({ cwd: root })) {
    if (path.endsWith('.test.ts') || path.startsWith('mcp/testing/')) continue;
    scanned++;
    const text = await Bun.file(`${root}${path}`).text();
    if (/from\s+['"][^'"]*mcp\/testing\/|from\s+['"]\.\/testing\//.test(text)) offenders.push(path);
  }
  expect(scanned).toBeGreaterThan(10);
  expect(offenders).toEqual([]);
});
