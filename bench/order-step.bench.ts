/**
 * What the order step's fast path buys (`npm run bench -- order-step`): one order's life in the
 * core — created with 10 items, a partial update, a bump — through the fast path
 * (order-step-fast.ts) and through XState's pure initialTransition/transition (order-step.ts's
 * reference), in alternating rounds in this process, so load from elsewhere falls on both. For
 * scale, the TCP bench's agent CPU per create; bench:ladder has a rung without the fast path.
 */
import { loadavg, availableParallelism } from 'node:os';
import type { OrderEvent, OrderInput, OrderRecord } from '#core/order-machine';
import {
	createRecord,
	createRecordViaXState,
	FAST_PATH,
	step,
	stepViaXState
} from '#core/order-step';
import type { Order } from '#core/order-schema';
import { fmt } from './lib.ts';

const ROUNDS = 7;
const LIVES_PER_ROUND = 5000;

const items = Array.from({ length: 10 }, (_, i) => ({
	lineId: String(i + 1),
	name: `Item ${i + 1}`,
	qty: 1,
	mods: [{ name: 'No onion' }]
}));
const order: Order = {
	id: 'B-1',
	name: 'Maria',
	time: '2026-11-22T09:00:00.000Z',
	mode: 'ToGo',
	items
};
const T0 = 1_795_338_000_000;

type Stepper = {
	create: (input: OrderInput) => OrderRecord;
	step: (record: OrderRecord, event: OrderEvent) => OrderRecord | null;
};
const FAST: Stepper = { create: createRecord, step };
const XSTATE: Stepper = { create: createRecordViaXState, step: stepViaXState };

/** One order's life: create, a partial update, a bump. Returns µs per life. */
function lives(stepper: Stepper, count: number): number {
	const started = performance.now();
	for (let i = 0; i < count; i++) {
		const at = T0 + i;
		let record = stepper.create({ order, at, seq: i + 1 });
		const patch = { id: order.id, itemsToUpdate: [{ ...items[0], qty: 2 }] };
		record = stepper.step(record, { type: 'order.patched', patch, at: at + 1 }) ?? record;
		record = stepper.step(record, { type: 'order.bumped', at: at + 2 }) ?? record;
		if (record.state !== 'bumped') throw new Error('bench: the order was not bumped');
	}
	return ((performance.now() - started) * 1000) / count;
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[values.length >> 1];

export async function runOrderStepBench(): Promise<{ lines: string[]; json: object }> {
	if (!FAST_PATH) throw new Error('bench/order-step: the machine no longer takes the fast path');
	lives(FAST, 500);
	lives(XSTATE, 500);
	const fast: number[] = [];
	const xstate: number[] = [];
	for (let round = 0; round < ROUNDS; round++) {
		fast.push(lives(FAST, LIVES_PER_ROUND));
		xstate.push(lives(XSTATE, LIVES_PER_ROUND));
		await new Promise((resolve) => setImmediate(resolve));
	}
	const result = {
		bench: 'order-step',
		rounds: ROUNDS,
		livesPerRound: LIVES_PER_ROUND,
		fastPathUsPerLife: median(fast),
		xstateUsPerLife: median(xstate),
		ratios: fast.map((f, i) => xstate[i] / f)
	};
	const lines = [
		`one order's life in the core (create with 10 items, partial update, bump), ${ROUNDS} alternating rounds of ${LIVES_PER_ROUND}; load average ${loadavg()[0].toFixed(1)} on ${availableParallelism()} CPUs`,
		`fast path (order-step-fast.ts)                  ${fmt(result.fastPathUsPerLife, 1).padStart(7)} µs a life (median)`,
		`XState initialTransition + transition           ${fmt(result.xstateUsPerLife, 1).padStart(7)} µs a life (median)`,
		`XState / fast path, each round: ${result.ratios.map((r) => `${fmt(r, 1)}x`).join(', ')}`
	];
	return { lines, json: result };
}
