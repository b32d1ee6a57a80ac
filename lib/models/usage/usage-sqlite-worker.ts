// SQLite usage writes off the event loop. better-sqlite3 is synchronous: a
// batch INSERT on the server's thread stalls every request in flight for as
// long as it runs (the p99 of the model gateway). So on SQLite each batch the
// usage BatchWriter hands over (`writeUsageRows`) goes to one worker thread with
// its own better-sqlite3 connection to the same file (WAL: the server's reads
// do not wait for it): the rows inserted one by one and the month totals
// raised (usage_month_totals), each with a prepared statement, in one
// transaction. The BatchWriter stays the one owner of the rows: a write
// resolves once its transaction committed and rejects when it failed or the
// worker died, and the BatchWriter retries it. The worker holds the process
// open only while a write is under way.
import { createRequire } from "node:module";
import path from "node:path";
import { Worker } from "node:worker_threads";

/**
 * A plain script (eval'd, no bundler, no TypeScript loader): Next bundles lib/, which would break a worker file path.
 */
const WORKER_SOURCE = `
const { parentPort, workerData } = require("node:worker_threads");
const Database = require(workerData.driver);
const db = new Database(workerData.file, { timeout: workerData.busyTimeoutMs });
db.pragma("journal_mode = WAL");
db.pragma("synchronous = NORMAL");
const statements = new Map();
const prepared = (sql) => {
  let statement = statements.get(sql);
  if (!statement) statements.set(sql, (statement = db.prepare(sql)));
  return statement;
};
parentPort.on("message", ({ id, steps }) => {
  try {
    db.transaction(() => {
      for (const { sql, rows } of steps) {
        const statement = prepared(sql);
        for (const row of rows) statement.run(row);
      }
    })();
    parentPort.postMessage({ id });
  } catch (err) {
    parentPort.postMessage({ id, error: String(err && err.message || err) });
  }
});
`;

type Cell = string | number | null;

/** One statement of a write, run once per row of cells (its `?` parameters in order). */
export interface WriteStep {
  sql: string;
  rows: Cell[][];
}

/** The INSERT of `columns` into `table`, one `?` per column. */
export const insertSql = (table: string, columns: string[]) =>
  `INSERT INTO "${table}" (${columns.map((c) => `"${c}"`).join(",")}) VALUES (${columns.map(() => "?").join(",")})`;

interface Pending {
  resolve(): void;
  reject(err: Error): void;
}

interface Thread {
  worker: Worker;
  /** Writes sent to this worker, by message id, not answered yet. */
  pending: Map<number, Pending>;
}

export class SqliteWriterThread {
  private thread: Thread | null = null;
  private nextId = 1;

  constructor(
    private readonly file: string,
    private readonly busyTimeoutMs = 5000,
  ) {}

  private start(): Thread {
    // Resolved from the app's directory: inside Next's bundle `require.resolve` is the bundler's.
    const driver = createRequire(path.join(process.cwd(), "package.json")).resolve("better-sqlite3");
    const worker = new Worker(WORKER_SOURCE, {
      eval: true,
      workerData: { driver, file: this.file, busyTimeoutMs: this.busyTimeoutMs },
      // No TypeScript loader or preloads in the worker: it runs plain JavaScript.
      execArgv: [],
    });
    const thread: Thread = { worker, pending: new Map() };
    worker.on("message", ({ id, error }: { id: number; error?: string }) => {
      const waiting = thread.pending.get(id);
      thread.pending.delete(id);
      if (thread.pending.size === 0) worker.unref();
      if (error) waiting?.reject(new Error(`usage write failed: ${error}`));
      else waiting?.resolve();
    });
    // A dead worker fails what it held (the BatchWriter retries it) and is replaced at the next write.
    const fail = (err: Error) => {
      if (this.thread === thread) this.thread = null;
      for (const waiting of thread.pending.values()) waiting.reject(err);
      thread.pending.clear();
    };
    worker.on("error", fail);
    worker.on("exit", (code) => fail(new Error(`usage writer thread exited (${code})`)));
    return thread;
  }

  /** Runs the steps in order in one transaction; resolves when committed, rejects (nothing written) when one failed. */
  write(steps: WriteStep[]): Promise<void> {
    const thread = (this.thread ??= this.start());
    const id = this.nextId++;
    thread.worker.ref();
    return new Promise<void>((resolve, reject) => {
      thread.pending.set(id, { resolve, reject });
      thread.worker.postMessage({ id, steps });
    });
  }

  /** Ends the thread; call after the last write settled (the BatchWriter's flush). */
  async close(): Promise<void> {
    const thread = this.thread;
    this.thread = null;
    if (thread) await thread.worker.terminate();
  }
}
