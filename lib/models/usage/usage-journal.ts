// The usage rows' write-ahead (docs/models.md "Usage"): each row is appended to a journal file
// under DATA_DIR/usage-journal before the answer that carries its cost is sent, then written to
// the database in batches off the request path (BatchWriter). A process killed in between (kill -9,
// an OOM kill) leaves the row in the journal, and the next start replays what the database lacks.
// The append is one write(2) to a file already open: it survives the process (the page cache is
// the kernel's), not a power loss. Files are segments: a sealed segment whose rows are all in the
// database is deleted, so the journal stays as small as the rows not yet written.
import fs from "node:fs";
import path from "node:path";

/** Rows per segment before a new one is started (a segment is deleted once all its rows are written). */
const SEGMENT_ROWS = 2_000;
const SEGMENT_PATTERN = /^usage-(\d+)-(\d+)\.jsonl$/;

export interface JournalEntry<Row> {
  /** The row as the database will hold it. */
  row: Row;
  /** Milliseconds since the epoch: the row's createdAt when it is replayed. */
  at: number;
}

interface Segment {
  index: number;
  fd: number;
  file: string;
  /** Rows appended and not yet written to the database. */
  open: number;
  sealed: boolean;
}

export class UsageJournal<Row> {
  private readonly segments = new Map<number, Segment>();
  private current: Segment | null = null;
  private rowsInCurrent = 0;
  private nextIndex = 1;
  /** This process's segments carry its start time, so a replay never reads a live writer's files. */
  private readonly incarnation = Date.now();

  constructor(private readonly dir: string) {}

  /** Appends the row; the number returned is handed back to `written` once the row is in the database. */
  append(row: Row, at = Date.now()): number {
    const segment = this.segment();
    fs.writeSync(segment.fd, `${JSON.stringify({ row, at } satisfies JournalEntry<Row>)}\n`);
    segment.open++;
    if (++this.rowsInCurrent >= SEGMENT_ROWS) this.seal(segment);
    return segment.index;
  }

  /** The rows of `segment` now in the database: a sealed segment with none left is deleted. */
  written(segment: number, rows = 1): void {
    const held = this.segments.get(segment);
    if (!held) return;
    held.open -= rows;
    if (held.sealed && held.open <= 0) this.remove(held);
  }

  /** Seals the current segment (shutdown after the last write): deleted once its rows are written. */
  close(): void {
    if (this.current) this.seal(this.current);
  }

  /**
   * The entries earlier processes left (their rows may or may not be in the database), and the files to delete after.
   */
  leftBehind(): { entries: JournalEntry<Row>[]; files: string[] } {
    let names: string[];
    try {
      names = fs.readdirSync(this.dir);
    } catch {
      return { entries: [], files: [] };
    }
    const files = names
      .filter((name) => SEGMENT_PATTERN.exec(name) && Number(SEGMENT_PATTERN.exec(name)![1]) !== this.incarnation)
      .map((name) => path.join(this.dir, name));
    const entries: JournalEntry<Row>[] = [];
    for (const file of files) {
      for (const line of fs.readFileSync(file, "utf8").split("\n")) {
        // A line cut short by the kill is not a row that was answered: its append had not returned.
        if (!line) continue;
        try {
          entries.push(JSON.parse(line) as JournalEntry<Row>);
        } catch {}
      }
    }
    return { entries, files };
  }

  private segment(): Segment {
    if (this.current) return this.current;
    fs.mkdirSync(this.dir, { recursive: true, mode: 0o700 });
    const index = this.nextIndex++;
    const file = path.join(this.dir, `usage-${this.incarnation}-${index}.jsonl`);
    // Owner only: the rows name organizations and keys.
    const segment = { index, fd: fs.openSync(file, "a", 0o600), file, open: 0, sealed: false };
    this.segments.set(index, segment);
    this.current = segment;
    this.rowsInCurrent = 0;
    return segment;
  }

  private seal(segment: Segment): void {
    segment.sealed = true;
    if (this.current === segment) this.current = null;
    if (segment.open <= 0) this.remove(segment);
  }

  private remove(segment: Segment): void {
    this.segments.delete(segment.index);
    fs.closeSync(segment.fd);
    fs.rmSync(segment.file, { force: true });
  }
}
