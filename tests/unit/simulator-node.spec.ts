/**
 * One Node floor for the simulator: package.json's `kdsSim.runtimeNode`, which the launcher
 * (bin/ensure-node.js) reads; kds-sim/testing's SIMULATOR_NODE (whether a test runner's Node runs
 * the simulator in its own process) must say the same. `engines.node` is what the installed
 * package supports (the launcher, kds-sim/testing): older, so npm installs it on Node 20 quietly.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { requiredRange, satisfies } from '../../bin/ensure-node.js';
import { SIMULATOR_NODE, simulatorRuns } from '../helpers/fixtures.ts';

const pkg = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8'));

describe('the Node the simulator needs', () => {
	it('is kdsSim.runtimeNode, read by the launcher and by kds-sim/testing alike', () => {
		expect(pkg.kdsSim.runtimeNode).toBe(`>=${SIMULATOR_NODE.join('.')}`);
		expect(requiredRange()).toBe(pkg.kdsSim.runtimeNode);
		for (const version of ['18.20.8', '20.20.2', '22.16.0', '22.17.0', '24.22.3', '25.0.0'])
			expect(simulatorRuns(version, {}), version).toBe(
				satisfies(`v${version}`, pkg.kdsSim.runtimeNode) ? 'process' : 'child'
			);
		expect(simulatorRuns('24.22.3', { KDS_SIM_RUN: 'child' })).toBe('child');
	});

	it("is newer than engines.node, the launcher's own floor", () => {
		expect(pkg.engines.node).toBe('>=18');
		expect(satisfies('v18.0.0', pkg.engines.node)).toBe(true);
		expect(satisfies('v18.0.0', pkg.kdsSim.runtimeNode)).toBe(false);
	});
});
