import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { recheckAcceptance } from '../harness/index.ts';
import { renderVerifyText, verify } from '../ledger/index.ts';
import { HELP } from './help.ts';
import { EXIT, type Io } from './io.ts';

/** `caplab verify RUN_DIR [--json] [--head HASH]`: re-checks a run dir offline. */
export function verifyCommand(args: readonly string[], io: Io): number {
  let parsed;
  try {
    parsed = parseArgs({ args: [...args], options: { json: { type: 'boolean' }, head: { type: 'string' }, help: { type: 'boolean', short: 'h' } }, allowPositionals: true, strict: true });
  } catch (error) {
    io.stderr(`caplab verify: ${(error as Error).message}\n`);
    return EXIT.usage;
  }
  if (parsed.values.help) {
    io.stdout(`${HELP['verify']}\n`);
    return EXIT.ok;
  }
  if (parsed.positionals.length !== 1) {
    io.stderr('caplab verify: needs exactly one RUN_DIR\n');
    return EXIT.usage;
  }
  const dir = resolve(io.cwd, parsed.positionals[0]!);
  const head = parsed.values.head;
  const report = verify(dir, { recheck: recheckAcceptance, ...(head ? { expectedHead: head } : {}) });
  if (parsed.values.json) {
    io.stdout(`${JSON.stringify(report.ok ? { verified: true, ...report.value } : { verified: false, error: { class: report.class, kind: report.kind, message: report.message, at: report.at, ...(report.issues ? { issues: report.issues } : {}) } }, null, 2)}\n`);
  } else {
    io.stdout(renderVerifyText(report));
    if (report.ok && report.value.recheck) io.stdout(`  verdict ${report.value.recheck.accepted ? 'accepted' : 'not accepted'} (re-computed)\n`);
  }
  return report.ok ? EXIT.ok : EXIT.failed;
}
