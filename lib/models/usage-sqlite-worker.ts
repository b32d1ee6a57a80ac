// SQLite usage writes off the event loop. better-sqlite3 is synchronous: a
// batch INSERT on the server's thread stalls every request in flight for as
// long as it runs (the p99 of the model gateway). So on SQLite each batch the
// usage BatchWriter hands over (`writeUsageRows`) goes to one worker thread with
// its own better-sqlite3 connection to the same file (WAL: the server's reads
// do not wait for it), inserted row by row with one prepared statement inside
// a transaction. The BatchWriter stays the one owner of the rows: a write
// resolves once its transaction committed and rejects when it failed or the
// worker died, and the BatchWriter retries it. The worker holds the process
// open only while a write is under way.
import { createRequire } from "node:module";
import path from "node:path";
import { Worker } from "node:worker_threads";

/** A plain script (eval'd, no bundler, no TypeScript loader): Next bundles lib/, which would break a worker file path. */
const WORKER_SOURCE = `
const { parentPort, workerData } = require("node:worker_threads");
const Database = require(workerData.driver);
const db = new Database(workerData.file, { timeout: workerData.busyTimeoutMs });
db.pragma("journal_mode = WAL");
db.pragma("synchronous = NORMAL");
const statements = new Map();
parentPort.on("message", ({ id, table, columns, rows }) => {
  try {
    const sql = 'INSERT INTO "' + table + '" (' + columns.map((c) => '"' + c + '"').join(",") + ") VALUES (" + columns.map(() => "?").join(",") + ")";
    let insert = statements.get(sql);
    if (!insert) statements.set(sql, (insert = db.prepare(sql)));
    db.transaction(() => { for (const row of rows) insert.run(row); })();
    parentPort.postMessage({ id });
  } catch (err) {
    parentPort.postMessage({ id, error: String(err && err.message || err) });
  }
});
`;

type Cell = string | number | null;

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

  /** Inserts the rows (cells in `columns` order) in one transaction; resolves when committed. */
  write(table: string, columns: string[], rows: Cell[][]): Promise<void> {
    const thread = (this.thread ??= this.start());
    const id = this.nextId++;
    thread.worker.ref();
    return new Promise<void>((resolve, reject) => {
      thread.pending.set(id, { resolve, reject });
      thread.worker.postMessage({ id, table, columns, rows });
    });
  }

  /** Ends the thread; call after the last write settled (the BatchWriter's flush). */
  async close(): Promise<void> {
    const thread = this.thread;
    this.thread = null;
    if (thread) await thread.worker.terminate();
  }
}
