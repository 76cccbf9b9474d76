/**
 * The main thread's handle on the store's worker thread (store-worker.ts): the inspector's log
 * on disk and the checkpoints of the orders' WAL, the disk work no reply waits for.
 *
 * Best effort by design: entries in flight when the process is killed are lost (the orders never
 * are: they are committed on the main thread before each reply), and if the worker fails the
 * agent logs it once and goes on answering, with the log in memory and the main connection's own
 * automatic checkpoints.
 */
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { Worker, type ResourceLimits } from 'node:worker_threads';
import type { MessageEntry } from '#core/message-entry';
import type { Logger } from '../log.ts';
import { Database } from './sqlite.ts';

export interface StoreWorkerData {
	messagesFile: string;
	/** The orders' database, whose WAL the worker checkpoints. */
	ordersFile: string;
	retention: number;
	/**
	 * Rows the main thread has committed to the orders so far (one Int32 in shared memory,
	 * Store.countRowsIn): the worker checkpoints by what was written, not on every tick.
	 */
	rowsWritten: SharedArrayBuffer;
}

export type ToStoreWorker =
	| { type: 'messages'; entries: MessageEntry[]; keepFrom: number }
	| { type: 'clear-messages' }
	| { type: 'close' };

const MESSAGES_FILE = 'messages.sqlite';
/** How long close() waits for the worker to finish its writes. */
const CLOSE_WAIT_MS = 5000;

/**
 * The worker's young generation: 3 MiB (semi-spaces of 1 MiB), what V8 gives a 1 GB Raspberry Pi
 * and the Pi install's flags give the main thread. Left to V8, it is sized from the machine's
 * memory (48 MiB on a 24 GB machine), and a burst of messages (the soak's 100,000 fuzzed frames)
 * grew this thread's heap from 9 to 38 MiB for batches it writes and drops at once. The thread
 * answers nothing: more frequent scavenges cost no reply any time.
 */
export const STORE_WORKER_LIMITS = { maxYoungGenerationSizeMb: 3 } as const;

/** Bundled, the worker sits next to the bundle; run from source (tsx, Vitest) it is TypeScript. */
function spawnWorker(workerData: StoreWorkerData): Worker {
	const resourceLimits = STORE_WORKER_LIMITS;
	if (!import.meta.url.endsWith('.ts'))
		return new Worker(new URL('./store-worker.js', import.meta.url), {
			workerData,
			resourceLimits
		});
	// tsx's loader, registered in the worker itself (a worker does not inherit the parent's).
	const tsxPackage = createRequire(import.meta.url).resolve('tsx/package.json');
	const { exports } = JSON.parse(readFileSync(tsxPackage, 'utf8')) as {
		exports: Record<string, { import: { default: string } }>;
	};
	const tsx = pathToFileURL(join(dirname(tsxPackage), exports['./esm/api'].import.default)).href;
	const entry = new URL('./store-worker.ts', import.meta.url).href;
	const boot = `import(${JSON.stringify(tsx)}).then((tsx) => { tsx.register(); return import(${JSON.stringify(entry)}); });`;
	return new Worker(boot, { eval: true, workerData, resourceLimits });
}

export class StoreThread {
	/** The orders' rows committed so far, shared with the worker (StoreWorkerData.rowsWritten). */
	readonly rowsWritten = new Int32Array(new SharedArrayBuffer(4));
	private worker: Worker | null = null;
	private alive = true;
	private exited: Promise<void> = Promise.resolve();
	/** What was posted before start(): handed to the worker when it starts. */
	private queued: ToStoreWorker[] = [];

	constructor(
		private readonly options: {
			dataDir: string;
			ordersFile: string;
			retention: number;
			logger: Logger;
		}
	) {}

	/**
	 * Start the worker thread. Not done at construction: booting a thread costs a Node start of
	 * its own, and the agent starts it only once the screens' TCP ports answer (agent/app.ts).
	 * What was posted before is handed over first, in order.
	 */
	start(): void {
		if (this.worker || !this.alive) return;
		const { options } = this;
		const worker = spawnWorker({
			messagesFile: join(options.dataDir, MESSAGES_FILE),
			ordersFile: options.ordersFile,
			retention: options.retention,
			rowsWritten: this.rowsWritten.buffer as SharedArrayBuffer
		});
		this.worker = worker;
		// Never what keeps the process alive: close() waits for it when it matters.
		worker.unref();
		worker.on('error', (err) => {
			options.logger.warn(
				{ err },
				"the store's worker thread failed; the inspector's log is kept in memory only from now on"
			);
		});
		// An 'error' is followed by 'exit': from then on nothing is posted.
		this.exited = new Promise((resolve) =>
			worker.once('exit', () => {
				this.alive = false;
				resolve();
			})
		);
		for (const message of this.queued.splice(0)) worker.postMessage(message);
	}

	/**
	 * The newest `retention` entries an earlier run wrote, oldest first; read on this thread,
	 * before the worker starts, so the inspector is complete from the first request. A file that
	 * cannot be read costs the old entries, never the start.
	 */
	static loadMessages(dataDir: string, retention: number, logger: Logger): MessageEntry[] {
		const file = join(dataDir, MESSAGES_FILE);
		if (!existsSync(file)) return [];
		try {
			const db = new Database(file);
			try {
				const hasTable = db
					.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'messages'")
					.get();
				if (!hasTable) return [];
				const rows = db
					.prepare('SELECT entry FROM messages ORDER BY id DESC LIMIT ?')
					.all(retention) as unknown as Array<{ entry: string }>;
				return rows.map((r) => JSON.parse(r.entry) as MessageEntry).reverse();
			} finally {
				db.close();
			}
		} catch (err) {
			logger.warn({ err, file }, "cannot read the inspector's log of earlier runs; starting empty");
			return [];
		}
	}

	/** The worker's heap limits in effect (empty before start() and once it has stopped). */
	get resourceLimits(): ResourceLimits {
		return this.worker?.resourceLimits ?? {};
	}

	appendMessages(entries: MessageEntry[], keepFrom: number): void {
		this.post({ type: 'messages', entries, keepFrom });
	}

	clearMessages(): void {
		this.post({ type: 'clear-messages' });
	}

	/** Let the worker write what it was sent, then stop it (stopped outright after CLOSE_WAIT_MS). */
	async close(): Promise<void> {
		// Never started: start now, so that what was posted is written before the worker stops.
		this.start();
		this.post({ type: 'close' });
		let timer: ReturnType<typeof setTimeout> | undefined;
		const late = new Promise<'late'>(
			(resolve) => (timer = setTimeout(resolve, CLOSE_WAIT_MS, 'late'))
		);
		if ((await Promise.race([this.exited, late])) === 'late') await this.worker?.terminate();
		clearTimeout(timer);
	}

	private post(message: ToStoreWorker): void {
		if (!this.alive) return;
		if (this.worker) this.worker.postMessage(message);
		else this.queued.push(message);
	}
}
