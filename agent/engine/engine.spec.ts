/**
 * The commit path's ordering invariant: an answer that depends on the screen's state never
 * overtakes the acknowledgement of the commit that made the state so. A duplicate create decided
 * while the first create is still being committed (two POS connections in the same turn) is
 * refused only after the first is committed and acknowledged; so is a message that cannot be
 * parsed, and an HTTP-style read through settled(). Driven through the TCP message handler with
 * one reply callback per "connection", so the order of the calls is the order on the wire.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DEFAULT_CONFIG, parseConfig } from '../config.ts';
import { createLogger } from '../log.ts';
import { Store } from '../store/store.ts';
import { tcpMessageHandler } from '../tcp/messages.ts';
import { Engine } from './engine.ts';

const create = (id: string) =>
	JSON.stringify({
		command: 'create-order',
		order: { id, name: id, time: '2026-11-22T18:00:00Z', mode: 'ToGo', items: [] }
	});

let store: Store;
let engine: Engine;
beforeEach(() => {
	store = new Store({ dataDir: null });
	engine = new Engine({
		config: parseConfig(DEFAULT_CONFIG),
		store,
		logger: createLogger('silent')
	});
});
afterEach(() => store.close());

/** The order ids the store holds for kds-1 now (read back from SQLite, not from memory). */
const committed = () => (store.load().get('kds-1') ?? []).map((r) => r.context.id);

/** Send `text` as if on its own connection; the reply, and what was committed when it came. */
function send(
	text: string,
	replies: Array<{ from: string; reply: string | null; committed: string[] }>,
	from: string
) {
	tcpMessageHandler(engine)('kds-1', text, from, (reply) =>
		replies.push({ from, reply, committed: committed() })
	);
}

describe('a refusal never overtakes the acknowledgement it depends on', () => {
	it('a duplicate create in the same turn is refused after the create is committed and acknowledged', async () => {
		const replies: Array<{ from: string; reply: string | null; committed: string[] }> = [];
		send(create('D-1'), replies, 'pos-a');
		send(create('D-1'), replies, 'pos-b'); // decided now: D-1 is already on the screen in memory
		expect(replies).toEqual([]); // nothing is answered before the commit
		await engine.settled();
		expect(replies).toEqual([
			{ from: 'pos-a', reply: 'D-1', committed: ['D-1'] },
			{ from: 'pos-b', reply: 'DUPLICATE_ORDER_ID', committed: ['D-1'] }
		]);
	});

	it('an unparseable message waits for the commits before it, too', async () => {
		const replies: Array<{ from: string; reply: string | null; committed: string[] }> = [];
		send(create('P-1'), replies, 'pos-a');
		send('{"command":', replies, 'pos-b');
		await engine.settled();
		expect(replies.map((r) => [r.from, r.reply])).toEqual([
			['pos-a', 'P-1'],
			['pos-b', 'Unable to parse data']
		]);
	});

	it("settled() (the HTTP routes' wait before a refusal or a read) resolves after the ack", async () => {
		const order: string[] = [];
		send(create('S-1'), [], 'pos-a');
		engine.runCommand('kds-1', JSON.parse(create('S-2')), () => order.push('ack S-2'));
		const read = engine.settled().then(() => order.push(`read sees ${committed().join(',')}`));
		await read;
		expect(order).toEqual(['ack S-2', 'read sees S-1,S-2']);
	});

	it('with nothing pending, a refusal is answered at once', () => {
		const replies: Array<{ from: string; reply: string | null; committed: string[] }> = [];
		send('not json', replies, 'pos-a');
		expect(replies.map((r) => r.reply)).toEqual(['Unable to parse data']);
	});
});
