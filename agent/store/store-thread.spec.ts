import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pino } from 'pino';
import { afterEach, describe, expect, it } from 'vitest';
import { StoreThread } from './store-thread.ts';

let dir: string | undefined;
let thread: StoreThread | undefined;

afterEach(async () => {
	await thread?.close();
	if (dir) rmSync(dir, { recursive: true, force: true });
	thread = dir = undefined;
});

describe('StoreThread', () => {
	it("runs its worker with a small young generation, whatever the machine's memory", async () => {
		dir = mkdtempSync(join(tmpdir(), 'kds-store-thread-'));
		thread = new StoreThread({
			dataDir: dir,
			ordersFile: join(dir, 'kds.sqlite'),
			retention: 10,
			logger: pino({ level: 'silent' })
		});
		// V8 sizes a thread's young generation from the machine's memory: 48 MiB on a 24 GB one.
		expect(thread.resourceLimits.maxYoungGenerationSizeMb).toBe(3);
	});
});
