/**
 * The reply-in-pieces fault cuts a reply into writes, never its characters: an order id with an
 * emoji (a UTF-16 surrogate pair) comes back as exactly the bytes of the id, in the pieces asked
 * for, with no U+FFFD where a pair was cut in two.
 */
import { connect } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { startSimulator, type Simulator } from '../helpers/fixtures.ts';

let sim: Simulator | undefined;
afterEach(async () => {
	sim?.faults.reset();
	await sim?.close();
	sim = undefined;
});

const order = (id: string) => ({
	command: 'create-order',
	order: {
		id,
		name: 'Ana 🍣',
		time: Date.now(),
		mode: 'ToGo',
		items: [{ lineId: '1', name: '寿司 🍣', qty: 2, mods: ['No wasabi'] }]
	}
});

/** Send one message and read every chunk of the reply, as bytes, until the screen closes. */
function chunksOf(s: Simulator, message: object): Promise<Buffer[]> {
	const { host, port } = s.screens[0].tcp;
	return new Promise((resolve, reject) => {
		const got: Buffer[] = [];
		const socket = connect({ host, port }, () => socket.end(JSON.stringify(message)));
		socket
			.on('data', (d: Buffer) => got.push(d))
			.on('close', () => resolve(got))
			.on('error', reject);
	});
}

describe('reply in pieces', () => {
	it('cuts between characters, never inside a surrogate pair', async () => {
		sim = await startSimulator({ uiDir: null });
		// 'A🍔' is three UTF-16 units: two pieces of two would cut the burger in half.
		for (const [id, pieces] of [
			['A🍔', 2],
			['🍔🍟🥤', 4],
			['寿司-🍣-7', 3]
		] as const) {
			await sim.addFault({
				kind: 'reply-in-pieces',
				screen: 'kds-1',
				pieces,
				pauseMs: 30,
				count: 1
			});
			const chunks = await chunksOf(sim, order(id));
			const bytes = Buffer.concat(chunks);
			expect(bytes.toString('utf8'), id).toBe(id);
			expect(bytes.equals(Buffer.from(id, 'utf8')), id).toBe(true);
			expect(bytes.includes(Buffer.from('\uFFFD', 'utf8')), id).toBe(false);
			// Cut where it can be: 'A🍔' has no cut of two halves that keeps the pair whole.
			if (id !== 'A🍔') expect(chunks.length, id).toBeGreaterThan(1);
		}
		expect((await sim.screenJson('kds-1')).cards.map((c) => c.id).sort()).toEqual(
			['A🍔', '🍔🍟🥤', '寿司-🍣-7'].sort()
		);
	});
});
