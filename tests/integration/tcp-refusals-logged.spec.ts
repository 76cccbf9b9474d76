/**
 * Every TCP refusal reaches the inspector, not only JSON that broke the schema: a plain-text
 * line, XML, UTF-16 with its byte order mark, a binary run and a message nested too deep are each
 * answered `Unable to parse data` on the socket and logged with the bytes that came (capped), the
 * exact reply and why; `?result=refused` finds every refusal and `?result=accepted` none of them.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { RunningAgent } from '../../agent/app.ts';
import type { MessageEntry } from '../../agent/inspector/message-log.ts';
import { REFUSED_TEXT_KEPT } from '../../agent/tcp/server.ts';
import { startTestAgent } from '../helpers/test-agent.ts';
import { crashOrder, sendTcp, sendTcpRaw } from '../helpers/tcp.ts';

let agent: RunningAgent;
let tcp: { host: string; port: number };
beforeAll(async () => {
	agent = await startTestAgent();
	tcp = agent.screens[0].tcp;
}, 120_000);
afterAll(() => agent?.close());
beforeEach(async () => {
	expect((await fetch(`${agent.httpUrl}/api/admin/reset`, { method: 'POST' })).status).toBe(200);
});

const messages = async (query = ''): Promise<MessageEntry[]> => {
	const res = await fetch(`${agent.httpUrl}/api/admin/messages${query}`);
	expect(res.status).toBe(200);
	return (await res.json()) as MessageEntry[];
};

const UTF16 = Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from('{"id":"U-1"}', 'utf16le')]);

describe('TCP bytes refused before parsing, in the inspector', () => {
	it('logs each run with its reply and why; the Refused filter finds them all', async () => {
		const sent: Array<[string, string | Uint8Array, string]> = [
			['plain text', 'hello kitchen\n', 'Unable to parse data\n'],
			['XML', '<order id="1"><name>Ana</name></order>', 'Unable to parse data'],
			['binary', Buffer.from([0x00, 0x01, 0xc3, 0x28, 0xff, 0x7f]), 'Unable to parse data'],
			['too deep', `${'['.repeat(70)}${']'.repeat(70)}`, 'Unable to parse data']
		];
		for (const [what, bytes, reply] of sent) {
			expect(await sendTcpRaw(tcp.host, tcp.port, [bytes]), what).toBe(reply);
		}
		// UTF-16: the byte order mark is a run of its own, the message's bytes (NULs inside) are
		// framed as a message and refused by the JSON parser, and the NUL after its `}` is left
		// unfinished at the close: three replies, three entries.
		expect(await sendTcpRaw(tcp.host, tcp.port, [UTF16])).toBe('Unable to parse data'.repeat(3));
		expect(await sendTcp(tcp.host, tcp.port, crashOrder('OK-1'))).toBe('OK-1');

		await expect.poll(async () => (await messages()).length).toBe(8);
		const refused = await messages('?result=refused');
		expect(refused).toHaveLength(7);
		for (const entry of refused) {
			expect(entry).toMatchObject({
				interface: 'tcp',
				screenIds: ['kds-1'],
				result: 'Unable to parse data',
				ok: false
			});
			expect(entry.why).toBeTruthy();
		}
		const byRaw = (start: string) => refused.find((e) => e.raw.startsWith(start));
		expect(byRaw('hello kitchen')).toMatchObject({
			raw: 'hello kitchen',
			reply: 'Unable to parse data\n',
			command: null,
			orderId: null
		});
		expect(byRaw('hello kitchen')!.why).toMatch(/^not JSON: bytes outside any \{…\} message/);
		// XML sent without a newline: the run is still unfinished at the close, and kept.
		expect(byRaw('<order')).toMatchObject({ raw: '<order id="1"><name>Ana</name></order>' });
		const binary = byRaw('\u0000\u0001')!;
		expect(binary.raw).toBe('\u0000\u0001\uFFFD(\uFFFD\u007f');
		expect(binary.why).toMatch(/bytes that are not UTF-8 show as �/);
		const deep = refused.find((e) => e.why?.startsWith('nested deeper than'))!;
		expect(deep).toMatchObject({ raw: '', reply: 'Unable to parse data' });
		// The byte order mark FF FE: two bytes that are not UTF-8.
		expect(refused.some((e) => e.raw === '\uFFFD\uFFFD')).toBe(true);
		expect(refused.some((e) => e.raw.startsWith('{\u0000"\u0000i'))).toBe(true);
		// The NUL after the UTF-16 message's `}`: a run of its own, unfinished at the close.
		expect(refused.some((e) => e.raw === '\u0000')).toBe(true);

		const accepted = await messages('?result=accepted');
		expect(accepted.map((e) => e.orderId)).toEqual(['OK-1']);
	});

	it('keeps at most the first few KiB of a long run', async () => {
		const long = `${'x'.repeat(100_000)}\n`;
		expect(await sendTcpRaw(tcp.host, tcp.port, [long])).toBe('Unable to parse data\n');
		await expect.poll(async () => (await messages('?result=refused')).length).toBe(1);
		const [entry] = await messages('?result=refused');
		expect(entry.raw).toBe(`${'x'.repeat(REFUSED_TEXT_KEPT)}… (100000 characters in all)`);

		// The same without a newline: unfinished at the close, its head kept.
		expect(await sendTcpRaw(tcp.host, tcp.port, ['y'.repeat(100_000)])).toBe(
			'Unable to parse data'
		);
		await expect.poll(async () => (await messages('?result=refused')).length).toBe(2);
		const [unfinished] = await messages('?result=refused');
		expect(unfinished.raw).toBe(`${'y'.repeat(REFUSED_TEXT_KEPT)}… (100000 bytes in all)`);
	});

	it('refuses an unknown result filter, naming the parameter', async () => {
		const res = await fetch(`${agent.httpUrl}/api/admin/messages?result=maybe`);
		expect(res.status).toBe(422);
		expect(await res.json()).toMatchObject({
			code: 'VALIDATION_FAILED',
			errors: [{ path: 'result', message: 'expected refused or accepted, got "maybe"' }]
		});
	});
});
