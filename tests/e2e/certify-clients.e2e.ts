/**
 * The whole certification suite through the Playwright fixture (docs/certify.md):
 * `simulator.certify({capabilities, onStep})` with each sample POS client of tests/clients
 * performing the steps, run for each step as `kds-sim certify --exec` runs it (the CLI's own
 * runStep: the step in CERTIFY_STEP, exit 3 a skip with its last line as the reason). The
 * verdicts each must get are tests/helpers/certify-clients.ts's, the same as the CLI's run
 * (tests/integration/certify-clients.spec.ts).
 */
import { runStep } from '../../agent/cli/certify.ts';
import {
	certifyKitchen,
	clientCommand,
	SAMPLE_CLIENTS,
	sampleRunProblems,
	startClientEndpoint,
	type SampleClient
} from '../helpers/certify-clients.ts';
import { expect, test } from '../helpers/index.ts';

// A scheduled order is held (autoHoldFutureOrders on the first screen).
test.use({ simulatorOptions: { config: certifyKitchen() as never } });

for (const client of ['careful', 'naive'] as const satisfies readonly SampleClient[]) {
	test(`the ${client} POS runs the whole suite through simulator.certify`, async ({
		simulator
	}) => {
		// About a minute a client on a quiet 2-core machine; the bad day's windows are the
		// simulator's own (each step waits for its faults to end), not this test's.
		test.setTimeout(300_000);
		const endpoint = await startClientEndpoint(simulator.httpUrl, client);
		const ran: string[] = [];
		try {
			const report = await simulator.certify({
				capabilities: SAMPLE_CLIENTS[client].capabilities,
				seed: 44,
				async onStep(step) {
					ran.push(step.id);
					const { skip } = await runStep(clientCommand(client), step, step, simulator.httpUrl);
					if (skip !== undefined) return { skip };
				}
			});
			expect(sampleRunProblems(client, report)).toEqual([]);
			// Every scenario it declares was handed to the client, none it does not.
			expect(ran).toEqual(
				report.scenarios.filter((s) => s.verdict !== 'NOT_APPLICABLE').map((s) => s.id)
			);
			expect(report.scenarios.length).toBe(38);
			const junit = await simulator.certifyReport('junit');
			expect(junit.match(/<failure /g)?.length ?? 0).toBe(
				report.scenarios.filter((s) => s.verdict === 'FAIL').length
			);
		} finally {
			await endpoint.close();
		}
	});
}
