/**
 * Test code only: a JUnit XML file as a reader no one here wrote sees it —
 * Python's xml.etree — with the counts each suite states checked against
 * its testcases (tests, failures), so a test reads suites, not our own XML.
 */
export interface JUnitRead {
  /** python3's exit code: 0 when the file parsed and every suite's counts match its cases. */
  readonly exitCode: number;
  readonly suites: readonly { readonly name: string; readonly cases: readonly string[]; readonly failed: readonly string[] }[];
  /** The root's `tests` and `failures` attributes, as written. */
  readonly tests: string | null;
  readonly failures: string | null;
  readonly stderr: string;
}

const READER = `
import json, sys, xml.etree.ElementTree as ET
root = ET.parse(sys.argv[1]).getroot()
suites = []
for suite in root.iter('testsuite'):
    cases = suite.findall('testcase')
    failed = [c.get('name') for c in cases if c.find('failure') is not None]
    assert int(suite.get('tests')) == len(cases) and int(suite.get('failures')) == len(failed)
    suites.append({'name': suite.get('name'), 'cases': [c.get('name') for c in cases], 'failed': failed})
print(json.dumps({'suites': suites, 'tests': root.get('tests'), 'failures': root.get('failures')}))
`;

/** Reads `path` with python3 (see the module's doc). */
export function readJUnit(path: string): JUnitRead {
  const python = Bun.spawnSync(['python3', '-c', READER, path]);
  const stderr = python.stderr.toString();
  if (python.exitCode !== 0) return { exitCode: python.exitCode, suites: [], tests: null, failures: null, stderr };
  const read = JSON.parse(python.stdout.toString()) as Omit<JUnitRead, 'exitCode' | 'stderr'>;
  return { exitCode: 0, ...read, stderr };
}
