/**
 * The Playwright fixture's certification run (docs/certify.md): `simulator.certify({
 * capabilities, onStep })`, the POS's own test code performing each step (here a small TCP POS
 * that retries with the same id); the report it resolves with, and its JUnit for the CI.
 */
import { expect, sendTcp, test } from '../helpers/index.ts';

/** The POS under test: one order over TCP, read the reply, retry with the same id if none came. */
async function posSend(host: string, port: number, order: object): Promise<string> {
	for (let attempt = 0; attempt < 5; attempt++) {
		const reply = await sendTcp(host, port, { command: 'create-order', order }).catch(() => '');
		if (reply) return reply;
		await new Promise((resolve) => setTimeout(resolve, 200 * 2 ** attempt));
	}
	throw new Error('no reply');
}

test('simulator.certify walks the POS through each step and resolves with the report', async ({
	simulator
}) => {
	const seen: string[] = [];
	const report = await simulator.certify({
		capabilities: ['tcp'],
		seed: 7,
		scenarios: ['KDS-CERT-TCP-001', 'KDS-CERT-TCP-005', 'KDS-CERT-BAD-001', 'KDS-CERT-HTTP-001'],
		async onStep(step) {
			seen.push(step.id);
			if (step.id === 'KDS-CERT-TCP-005') return { skip: 'our menu has no special instructions' };
			const { host, port } = step.target.tcp;
			await posSend(host, port, {
				id: `P-${step.index}`,
				name: 'Zoë',
				time: Date.now(),
				mode: 'ToGo',
				items: [{ lineId: '1', name: '寿司 Sushi 🍣', qty: 2, mods: [{ name: 'No wasabi' }] }]
			});
		}
	});
	expect(seen).toEqual(['KDS-CERT-TCP-001', 'KDS-CERT-TCP-005', 'KDS-CERT-BAD-001']);
	expect(report.verdict).toBe('PASS');
	expect(report.scenarios.map((s) => [s.id, s.verdict])).toEqual([
		['KDS-CERT-TCP-001', 'PASS'],
		['KDS-CERT-TCP-005', 'SKIPPED'],
		['KDS-CERT-HTTP-001', 'NOT_APPLICABLE'],
		['KDS-CERT-BAD-001', 'PASS']
	]);
	expect(report.scenarios[1].reason).toBe('our menu has no special instructions');
	const junit = await simulator.certifyReport('junit');
	expect(junit).toContain('<skipped message="SKIPPED: our menu has no special instructions"/>');
	expect((await simulator.screenJson('kds-1')).cards.map((c) => c.id).sort()).toEqual([
		'P-0',
		'P-3'
	]);
});
