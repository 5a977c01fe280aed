/** caplab's version, printed by `--version` and recorded in every run. Keep in step with package.json (a test checks). */
export const CAPLAB_VERSION = '0.1.0';
