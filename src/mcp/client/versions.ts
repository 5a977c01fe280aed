/**
 * The protocol revisions the general clients read — probe and the host
 * session for servers users configure — and what each changes for their
 * checks. Probe offers 2025-06-18 unless asked for another, the host session
 * 2025-11-25; both accept any of these answers; for an older
 * or newer revision probe says which checks do not apply and which of that
 * revision's features it does not check — neither is a finding. (The strict
 * fixed profile speaks 2025-06-18 only: `PROTOCOL_VERSION`.)
 */

import type { Basis } from '../../contract/index.ts';

/** The revision probe offers in `initialize` by default (`--protocol` picks another). */
export const OFFERED_VERSION = '2025-06-18';

/**
 * The revision the host session offers servers a user configured: 2025-11-25,
 * so a tool whose server declares tasks is called as one (the fixed profile,
 * and so `demo`, stays 2025-06-18). A server may answer any revision it reads.
 */
export const HOST_OFFERED_VERSION = '2025-11-25';

export interface VersionProfile {
  readonly version: string;
  /** outputSchema and structuredContent exist in this revision. */
  readonly structured: boolean;
  /** Content block types a tool result may carry in this revision. */
  readonly contentTypes: readonly string[];
  /** The tool-name rule (1–128 of A-Za-z0-9_.-) is the spec's SHOULD from 2025-11-25; before, caplab's own. */
  readonly nameRule: Basis;
  /** How a schema without `$schema` is read: as 2020-12 (2025-11-25 says so), or leniently (2020-12, else draft-07). */
  readonly defaultDialect: '2020-12' | 'lenient';
  readonly notApplicable: readonly string[];
  readonly notChecked: readonly string[];
}

const CONTENT_2025_06 = ['text', 'image', 'audio', 'resource_link', 'resource'];

export const VERSION_PROFILES: readonly VersionProfile[] = [
  {
    version: '2025-11-25',
    structured: true,
    contentTypes: CONTENT_2025_06,
    nameRule: 'spec SHOULD',
    defaultDialect: '2020-12',
    notApplicable: [],
    // Tasks (probe runs a taskSupport tool's --call as one) and icons (their origin) are read; input flows are not.
    notChecked: ['input_required answers (elicitation, sampling): probe declares neither, and waits an input_required task out'],
  },
  {
    version: '2025-06-18',
    structured: true,
    contentTypes: CONTENT_2025_06,
    nameRule: 'caplab host rule',
    defaultDialect: 'lenient',
    notApplicable: [],
    notChecked: [],
  },
  {
    version: '2025-03-26',
    structured: false,
    contentTypes: ['text', 'image', 'audio', 'resource'],
    nameRule: 'caplab host rule',
    defaultDialect: 'lenient',
    notApplicable: ['outputSchema and structuredContent (introduced in 2025-06-18)', 'resource_link content (introduced in 2025-06-18)'],
    notChecked: [],
  },
  {
    version: '2024-11-05',
    structured: false,
    contentTypes: ['text', 'image', 'resource'],
    nameRule: 'caplab host rule',
    defaultDialect: 'lenient',
    notApplicable: [
      'outputSchema and structuredContent (introduced in 2025-06-18)',
      'tool annotations (introduced in 2025-03-26; any shown are extra fields)',
      'audio and resource_link content (introduced in 2025-03-26 and 2025-06-18)',
    ],
    notChecked: [],
  },
];

/** Every revision probe and the host session read, newest first. */
export const READ_VERSIONS: readonly string[] = VERSION_PROFILES.map((profile) => profile.version);

/** The profile of an answered revision, or undefined when neither probe nor the host session can read it. */
export function versionProfile(version: string): VersionProfile | undefined {
  return VERSION_PROFILES.find((profile) => profile.version === version);
}
