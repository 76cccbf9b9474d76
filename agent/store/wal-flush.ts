/**
 * Keeps SQLite's checkpoints short by writing the WAL to disk in the background.
 *
 * With `synchronous=NORMAL` a commit only appends to the WAL (no fsync), and SQLite's automatic
 * checkpoint, inside the commit that takes the WAL past its size (store.ts), first fsyncs the WAL,
 * then copies its pages into the database file and fsyncs that. Until then the WAL's pages are
 * only in the page cache, so that first fsync writes all of them (16 MiB) while the answering
 * thread waits: every connection's reply stalls for it. Measured 2026-12-01 on this project's
 * machine (node:sqlite, the store's pragmas, 30 rows of 1.8 KB per commit): a checkpoint held its
 * commit 110 ms, of which the copy took 22 ms and the two fsyncs the rest.
 *
 * So once a commit has written the WAL, an `fdatasync` of it follows `delayMs` later on libuv's
 * threadpool (a file descriptor of its own, opened read-only and closed again: fsync acts on the
 * file, whichever descriptor names it). The checkpoint's own fsync then finds most of the WAL
 * already on disk: 110 → 57-68 ms per checkpoint with flushes every 50-200 ms. It only makes
 * committed data durable sooner; SQLite's own syncs and their order are unchanged. Idle, it does
 * nothing (no timer runs until a commit), and its timer never keeps the process alive. The store
 * makes none in memory, with `--sync full`, or on Windows (store.ts).
 */
import * as nodeFs from 'node:fs';

/** The three calls it makes (tests give their own). */
export interface FlushFs {
	open(
		path: string,
		flags: 'r',
		callback: (err: NodeJS.ErrnoException | null, fd: number) => void
	): void;
	fdatasync(fd: number, callback: (err: NodeJS.ErrnoException | null) => void): void;
	close(fd: number, callback: (err: NodeJS.ErrnoException | null) => void): void;
}

export interface WalFlushOptions {
	/** How long after a commit its WAL is flushed (default 100 ms). */
	delayMs?: number;
	fs?: FlushFs;
	/** A flush failed for another reason than the WAL not being there (told once). */
	onError?: (err: Error) => void;
}

export const DEFAULT_WAL_FLUSH_MS = 100;

export class WalFlush {
	private readonly delayMs: number;
	private readonly fs: FlushFs;
	private readonly onError: ((err: Error) => void) | undefined;
	private timer: NodeJS.Timeout | null = null;
	/** A flush is on the threadpool now. */
	private flushing = false;
	/** A commit wrote the WAL after the running flush had started. */
	private again = false;
	private closed = false;
	private told = false;
	/** Flushes finished so far (for tests). */
	flushes = 0;

	constructor(
		readonly walFile: string,
		options: WalFlushOptions = {}
	) {
		this.delayMs = options.delayMs ?? DEFAULT_WAL_FLUSH_MS;
		this.fs = options.fs ?? nodeFs;
		this.onError = options.onError;
	}

	/** A commit wrote the WAL: flush it within delayMs. Many commits meanwhile: one flush. */
	written(): void {
		if (this.closed || this.timer !== null) return;
		if (this.flushing) {
			this.again = true;
			return;
		}
		this.timer = setTimeout(this.flush, this.delayMs);
		this.timer.unref();
	}

	/** No more flushes; one on the threadpool finishes and closes its descriptor. */
	close(): void {
		this.closed = true;
		if (this.timer !== null) clearTimeout(this.timer);
		this.timer = null;
	}

	private readonly flush = (): void => {
		this.timer = null;
		this.flushing = true;
		this.fs.open(this.walFile, 'r', (err, fd) => {
			if (err) return this.done(err.code === 'ENOENT' ? null : err);
			this.fs.fdatasync(fd, (syncErr) => {
				this.fs.close(fd, (closeErr) => this.done(syncErr ?? closeErr));
			});
		});
	};

	private done(err: NodeJS.ErrnoException | null): void {
		this.flushing = false;
		this.flushes++;
		if (err && !this.told) {
			// Only the checkpoints are slower without it: say so once, keep committing.
			this.told = true;
			this.onError?.(err);
		}
		if (this.again) {
			this.again = false;
			this.written();
		}
	}
}
