import { expect, test } from 'bun:test';
import { join } from 'node:path';
import { cli } from './cli.ts';
import { testIo } from './test-io.ts';

test('probe -- bun src/main.ts serve: reports the fixture server and read_source, no findings, exit 0', async () => {
  const io = testIo(join(import.meta.dir, '../..'), { PATH: process.env['PATH'] ?? '/usr/bin:/bin' });
  const code = await cli(['probe', '--json', '--', process.execPath, 'src/main.ts', 'serve'], io);
  const report = JSON.parse(io.out());
  expect([code, report.serverInfo.name, report.protocolVersion, report.complete]).toEqual([0, 'caplab-fixture', '2025-06-18', true]);
  expect(report.tools.map((t: any) => t.name)).toEqual(['read_source']);
  expect(report.findings).toEqual([]);
  expect(report.close.survivors).toEqual([]);
});

test('probe usage errors exit 2; a command that cannot start exits 3', async () => {
  const io = testIo('/', { PATH: '/usr/bin:/bin' });
  expect(await cli(['probe'], io)).toBe(2);
  expect(await cli(['probe', '--bogus', '--', 'x'], io)).toBe(2);
  expect(await cli(['probe', '--', '/nonexistent/server'], io)).toBe(3);
});
