import { syncParent, syncTree, syncTreeConcurrently, type RunDirFs } from './fs.ts';

/**
 * When a run dir reaches the disk. Durable: every file (temp, then its
 * folder) and every ledger line is fsynced as it is written. Default: nothing
 * while the run goes on; before the seal, every file the run wrote or
 * referenced, the folders naming them and the ledger are synced — ahead of
 * time and concurrently with `syncAhead` (the caller overlaps it with other
 * waiting), then one by one in `beforeSeal` for whatever is left.
 */
export class Durability {
  readonly durable: boolean;
  readonly #fs: RunDirFs;
  readonly #root: string;
  /** Files `syncAhead` made durable, with their folders. */
  readonly #synced = new Set<string>();

  constructor(fs: RunDirFs, root: string, durable: boolean) {
    this.#fs = fs;
    this.#root = root;
    this.durable = durable;
  }

  /** The ledger file was just created at `path`. */
  ledgerCreated(path: string): void {
    if (this.durable) syncParent(this.#fs, path);
  }

  /** A ledger line was just written to `fd`. */
  lineWritten(fd: number): void {
    if (this.durable) this.#fs.fsyncSync(fd);
  }

  /** Syncs `files` (and their folders) all at once; never fails — what could not be synced is left for `beforeSeal`. */
  async syncAhead(files: readonly string[]): Promise<void> {
    const pending = files.filter((path) => !this.#synced.has(path));
    if (this.durable || pending.length === 0) return;
    try {
      await syncTreeConcurrently(this.#fs, this.#root, pending);
      for (const path of pending) this.#synced.add(path);
    } catch {
      // beforeSeal syncs these again and reports what fails.
    }
  }

  /** Before the seal: the files `syncAhead` did not take, their folders, then the ledger (`fd`). Throws the first error. */
  beforeSeal(files: readonly string[], fd: number): void {
    if (this.durable) return;
    const pending = files.filter((path) => !this.#synced.has(path));
    if (pending.length > 0) syncTree(this.#fs, this.#root, pending);
    this.#fs.fsyncSync(fd);
  }
}
