/**
 * The inspector's log on disk: JSON lines appended to two files in the data directory, used in
 * turn (`inspector-1.jsonl`, `inspector-2.jsonl`). Entries arrive in batches (message-log.ts) and
 * each batch is one `write` on the thread that answers: no SQLite, no thread of its own. Once the
 * file being written holds the log's retention (or its payload budget), the other one is emptied
 * and written from then on, so the two always hold at least what the log shows, and never more
 * than twice that.
 *
 * Until 2026-11-26 a worker thread wrote the log to a SQLite file of its own (messages.sqlite) and
 * checkpointed the orders' WAL: every entry was structured-cloned to it, JSON-stringified there
 * and committed as a row. Without it the agent spends no more CPU in all threads per message,
 * holds 10,000 orders in ~20 MiB less (a V8 isolate and its heap), and the WAL is checkpointed
 * by SQLite itself, as the durable floor's is (docs/performance.md, "Store worker round"). The
 * first start of this version moves that file's entries here and removes it.
 *
 * Best effort, as before: a batch not yet written when the process is killed is lost (the orders
 * never are: they are committed before each reply); a line cut short by a kill is skipped when
 * read; a file that cannot be written costs the log on disk, never an answer.
 */
import { closeSync, existsSync, openSync, readFileSync, rmSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { RAW_IS_JSON, type MessageEntry } from '#core/message-entry';
import type { Logger } from '../log.ts';
import { Database } from './sqlite.ts';

export const MESSAGE_FILES = ['inspector-1.jsonl', 'inspector-2.jsonl'] as const;
/** Where versions before this one kept the log: read once, moved here, removed. */
export const LEGACY_MESSAGES_FILE = 'messages.sqlite';

/** The batch's lines are encoded here and written in pieces of at most this many bytes. */
const BUFFER_BYTES = 64 * 1024;
const NEWLINE = 0x0a;
const CLOSE = 0x7d;

const RAW_JSON_KEY = ',"rawJson":';

type Marked = MessageEntry & { [RAW_IS_JSON]?: boolean };

/** `raw` can be written as it came: a JSON text, on one line (JSON allows line breaks between tokens). */
function embeddable(e: Marked): boolean {
	const { raw } = e;
	return (
		e[RAW_IS_JSON] === true &&
		raw.indexOf('\n') < 0 &&
		raw.indexOf('\r') < 0 &&
		// A byte order mark: the body parser skips it, JSON.parse of the line would not.
		raw.charCodeAt(0) !== 0xfeff
	);
}

/** The entry's line but its closing brace, without `raw` (left out of JSON while undefined). */
function headOf(e: MessageEntry): string {
	const { raw } = e;
	try {
		(e as { raw?: string }).raw = undefined;
		return JSON.stringify(e);
	} finally {
		e.raw = raw;
	}
}

/** `writeSync` may write fewer bytes than asked (a full disk, a signal): the rest, until done. */
function writeAll(fd: number, buf: Buffer, length: number): void {
	let done = 0;
	while (done < length) done += writeSync(fd, buf, done, length - done);
}

interface Segment {
	file: string;
	entries: MessageEntry[];
	/** Characters of payload written to it. */
	chars: number;
	/** The file ends without a newline (a line cut short): the next write starts a new one. */
	cut: boolean;
}

export class MessageFile {
	private readonly segments: [Segment, Segment];
	/** The segment being written: 0 or 1. */
	private current = 0;
	private fd: number | null = null;
	private count = 0;
	private chars = 0;
	private failed = false;
	private readonly buffer = Buffer.allocUnsafe(BUFFER_BYTES);

	constructor(
		private readonly dataDir: string,
		private readonly logger: Logger,
		private readonly limits: { retention: number; payloadBudget: number }
	) {
		this.segments = MESSAGE_FILES.map((name) => read(join(dataDir, name), logger)) as [
			Segment,
			Segment
		];
		// The segment with the newest entry is the one being written.
		const newest = (s: Segment) => s.entries.at(-1)?.id ?? 0;
		this.current = newest(this.segments[1]) > newest(this.segments[0]) ? 1 : 0;
		this.count = this.segments[this.current].entries.length;
		this.chars = this.segments[this.current].chars;
	}

	/**
	 * What earlier runs wrote, oldest first (the log keeps the newest it may show). The first start
	 * after an upgrade also reads the old messages.sqlite, writes its entries here and removes it.
	 */
	load(): MessageEntry[] {
		const [a, b] = this.segments;
		const older = this.current === 0 ? b : a;
		const newer = this.current === 0 ? a : b;
		let out = [...older.entries, ...newer.entries];
		// The first start after an upgrade: nothing written here yet, the old file still there.
		const legacy = out.length === 0 ? this.readLegacy() : [];
		if (legacy.length > 0) {
			this.appendMessages(legacy, 0);
			out = legacy;
			if (!this.failed) {
				const file = join(this.dataDir, LEGACY_MESSAGES_FILE);
				for (const suffix of ['', '-wal', '-shm']) rmSync(file + suffix, { force: true });
				this.logger.info(
					{ file, entries: legacy.length },
					"moved the inspector's log of an earlier version"
				);
			}
		}
		for (const s of this.segments) s.entries = [];
		return out;
	}

	/** Write the entries (oldest first); older ones age out as the files turn over. */
	appendMessages(entries: MessageEntry[], _keepFrom: number): void {
		if (this.failed || entries.length === 0) return;
		try {
			let chars = 0;
			for (const e of entries) chars += e.raw.length;
			if (
				this.count > 0 &&
				(this.count + entries.length > this.limits.retention ||
					this.chars + chars > this.limits.payloadBudget)
			)
				this.turnOver();
			const fd = (this.fd ??= openSync(this.segments[this.current].file, 'a'));
			// Each line is encoded into one reused buffer, written when full: no batch-long string nor
			// its UTF-8 copy per batch (they were 4 KB of every HTTP create's 51 KB of allocations).
			const buf = this.buffer;
			let at = 0;
			if (this.segments[this.current].cut) buf[at++] = NEWLINE;
			this.segments[this.current].cut = false;
			for (const e of entries) {
				if (embeddable(e)) {
					const head = headOf(e);
					const length = head.length + RAW_JSON_KEY.length + e.raw.length + 1;
					if (length * 3 + 1 <= buf.length) {
						if (at + length * 3 + 1 > buf.length) {
							writeAll(fd, buf, at);
							at = 0;
						}
						// The head without its closing brace, the key, the payload, the brace.
						at += buf.write(head, at) - 1;
						at += buf.write(RAW_JSON_KEY, at);
						at += buf.write(e.raw, at);
						buf[at++] = CLOSE;
						buf[at++] = NEWLINE;
						continue;
					}
				}
				const line = JSON.stringify(e);
				// At most 3 bytes of UTF-8 per UTF-16 unit, and the newline.
				if (at + line.length * 3 + 1 > buf.length) {
					if (at > 0) writeAll(fd, buf, at);
					at = 0;
					if (line.length * 3 + 1 > buf.length) {
						writeSync(fd, `${line}\n`);
						continue;
					}
				}
				at += buf.write(line, at);
				buf[at++] = NEWLINE;
			}
			if (at > 0) writeAll(fd, buf, at);
			this.count += entries.length;
			this.chars += chars;
		} catch (err) {
			this.fail(err, "cannot write the inspector's log to disk");
		}
	}

	clearMessages(): void {
		if (this.failed) return;
		try {
			this.closeFile();
			for (const s of this.segments) {
				closeSync(openSync(s.file, 'w'));
				s.cut = false;
			}
			this.current = 0;
			this.count = 0;
			this.chars = 0;
		} catch (err) {
			this.fail(err, "cannot clear the inspector's log on disk");
		}
	}

	close(): void {
		this.closeFile();
	}

	/** Write the other file from now on, emptied first. */
	private turnOver(): void {
		this.closeFile();
		this.current = 1 - this.current;
		const next = this.segments[this.current];
		next.cut = false;
		this.fd = openSync(next.file, 'w');
		this.count = 0;
		this.chars = 0;
	}

	private closeFile(): void {
		if (this.fd === null) return;
		const fd = this.fd;
		this.fd = null;
		closeSync(fd);
	}

	private fail(err: unknown, what: string): void {
		this.failed = true;
		try {
			this.closeFile();
		} catch {
			// Closing what could not be written: nothing more to lose.
		}
		this.logger.warn({ err }, `${what}; it is kept in memory only from now on`);
	}

	/** The entries of messages.sqlite (versions before 2026-11-26), oldest first. */
	private readLegacy(): MessageEntry[] {
		const file = join(this.dataDir, LEGACY_MESSAGES_FILE);
		if (!existsSync(file)) return [];
		try {
			const db = new Database(file, { readOnly: true });
			try {
				const rows = db
					.prepare('SELECT entry FROM messages ORDER BY id DESC LIMIT ?')
					.all(this.limits.retention) as unknown as Array<{ entry: string }>;
				return rows.map((r) => JSON.parse(r.entry) as MessageEntry).reverse();
			} finally {
				db.close();
			}
		} catch (err) {
			// Not a database, no table, unreadable: left where it is, as it is.
			this.logger.warn({ err, file }, "cannot read the inspector's log of an earlier version");
			return [];
		}
	}
}

/** One file's entries, oldest first; lines that do not parse (cut short by a kill) are skipped. */
function read(file: string, logger: Logger): Segment {
	const segment: Segment = { file, entries: [], chars: 0, cut: false };
	let text: string;
	try {
		text = readFileSync(file, 'utf8');
	} catch (err) {
		if ((err as NodeJS.ErrnoException).code !== 'ENOENT')
			logger.warn({ err, file }, "cannot read the inspector's log of earlier runs");
		return segment;
	}
	segment.cut = text.length > 0 && !text.endsWith('\n');
	let lastId = 0;
	for (const line of text.split('\n')) {
		if (!line) continue;
		let entry: MessageEntry & { rawJson?: unknown };
		try {
			entry = JSON.parse(line) as MessageEntry;
		} catch {
			continue;
		}
		if (entry !== null && typeof entry === 'object' && 'rawJson' in entry) {
			// The payload as it came (RAW_IS_JSON): no `"` outside a string before it, so the
			// first such key is its start; it runs to the line's closing brace.
			entry.raw = line.slice(line.indexOf(RAW_JSON_KEY) + RAW_JSON_KEY.length, -1);
			delete entry.rawJson;
		}
		if (typeof entry?.id !== 'number' || entry.id <= lastId || typeof entry.raw !== 'string')
			continue;
		lastId = entry.id;
		segment.entries.push(entry);
		segment.chars += entry.raw.length;
	}
	return segment;
}
