/**
 * A certification run (docs/certify.md): the catalog's scenarios walked one step at a time, for a
 * POS that declared its capabilities. The run arms each step's faults itself when the step
 * starts and removes them when it ends; it keeps, for each step, what the simulator saw meanwhile
 * (the inspector's entries, what the armed faults touched, the webhook deliveries), and grades it
 * with the core's judge (#core/certify/judge).
 *
 * It reads the log, the faults and the deliveries only when a step starts or ends, or when its
 * state is asked for: with no run in progress, and during one, the TCP and HTTP paths do nothing
 * more than without it.
 */
import { randomUUID } from 'node:crypto';
import {
	SCENARIOS,
	SUITE_VERSION,
	missingCapabilities,
	type Capability,
	type Scenario
} from '#core/certify/catalog';
import type { ScenarioVerdict, StepEvidence, StepStatus } from '#core/certify/evidence';
import { judgeScenario, overallVerdict } from '#core/certify/judge';
import { firstAnswer } from '#core/certify/judge-webhooks';
import type { FaultTouch } from '#core/fault-findings';
import type { FaultSpecInput } from '#core/fault-kinds';
import type { FieldError } from '#core/parse';
import type { MessageEntry } from '#core/message-entry';
import type { WebhookDelivery, WebhookEndpointInfo } from '#core/webhooks';

/** What a run needs of the simulator (handed in by the HTTP stack). */
export interface CertifyDeps {
	now(): number;
	messages: {
		readonly lastId: number;
		since(id: number): MessageEntry[] | null;
		list(f: { limit: number }): MessageEntry[];
	};
	faults: {
		add(
			inputs: unknown[]
		): { ok: true; added: { id: string }[] } | { ok: false; errors: FieldError[] };
		remove(id: string): boolean;
		touchedList(): readonly FaultTouch[];
	};
	webhooks: {
		endpoints(): WebhookEndpointInfo[];
		deliveries(endpointId: string, filter: { limit?: number }): WebhookDelivery[];
		resend(id: string): WebhookDelivery | undefined;
	};
	/** The screen a run certifies on (the one named, or the first local one), or why not. */
	target(
		screen?: string
	): { screen: string; location: string; tcp: { host: string; port: number } } | string;
	version: string;
}

export interface StartOptions {
	capabilities: Capability[];
	seed?: number;
	screen?: string;
	/** Only these scenario ids (default: every one). */
	scenarios?: string[];
}

interface Step {
	scenario: Scenario;
	status: StepStatus;
	skipReason?: string;
	startedAt?: number;
	endedAt?: number;
	/** The log's newest id when the step started. */
	fromId: number;
	faultIds: string[];
	armError?: string;
	evidence?: StepEvidence;
}

export interface Run {
	runId: string;
	seed: number;
	capabilities: Capability[];
	target: { screen: string; location: string; tcp: { host: string; port: number } };
	startedAt: number;
	endedAt: number | null;
	steps: Step[];
	index: number;
}

/** How long a webhook step waits, at its end, for the deliveries' first answers (ms). */
const WEBHOOK_WAIT_MS = 7000;
/** How long after a late answer's due time a step still waits for it to be logged (ms). */
const LATE_MARGIN_MS = 300;

export class CertifyError extends Error {
	constructor(
		readonly status: 404 | 409 | 422,
		message: string,
		readonly errors: FieldError[] = []
	) {
		super(message);
	}
}

export class CertifyRuns {
	private run: Run | null = null;
	private busy = false;

	constructor(private readonly deps: CertifyDeps) {}

	get inProgress(): boolean {
		return this.run !== null && this.run.endedAt === null;
	}

	start(options: StartOptions): Run {
		if (this.inProgress)
			throw new CertifyError(409, `run ${this.run!.runId} is in progress: stop it first`);
		const target = this.deps.target(options.screen);
		if (typeof target === 'string')
			throw new CertifyError(422, target, [{ path: 'screen', message: target }]);
		const wanted = options.scenarios;
		if (wanted) {
			const errors = wanted.flatMap((id, i) =>
				SCENARIOS.some((s) => s.id === id)
					? []
					: [
							{
								path: `scenarios[${i}]`,
								message: `no scenario ${JSON.stringify(id)} in suite ${SUITE_VERSION}`
							}
						]
			);
			if (errors.length > 0)
				throw new CertifyError(
					422,
					errors.map((e) => `${e.path}: ${e.message}`).join('; '),
					errors
				);
		}
		const seed = options.seed ?? Math.floor(Math.random() * 2 ** 31);
		const now = this.deps.now();
		const run: Run = {
			runId: `cert-${new Date(now).toISOString().slice(0, 10)}-${randomUUID().slice(0, 8)}`,
			seed,
			capabilities: [...new Set(options.capabilities)],
			target,
			startedAt: now,
			endedAt: null,
			steps: SCENARIOS.filter((s) => !wanted || wanted.includes(s.id)).map((scenario) => ({
				scenario,
				status:
					missingCapabilities(scenario, options.capabilities).length > 0
						? 'not-applicable'
						: 'pending',
				fromId: 0,
				faultIds: []
			})),
			index: -1
		};
		this.run = run;
		this.next();
		return run;
	}

	/** The run in progress, or the last one. */
	current(): Run | null {
		return this.run;
	}

	/** The step in progress is done: its evidence kept, its faults removed, the next one started. */
	async advance(): Promise<Run> {
		return this.endStep('done');
	}

	async skip(reason: string): Promise<Run> {
		return this.endStep('skipped', reason);
	}

	/** Stop: the step in progress is skipped (its evidence kept), the rest are not reached. */
	async stop(): Promise<Run> {
		const run = this.running();
		if (run.index >= 0 && run.index < run.steps.length)
			await this.endStep('skipped', 'the run was stopped during this step', true);
		this.finish(run);
		return run;
	}

	/** Each scenario's verdict: the steps ended from their evidence, the step in progress so far. */
	verdicts(): ScenarioVerdict[] {
		const run = this.run;
		if (!run) return [];
		return run.steps.map((step) => {
			const evidence =
				step.evidence ??
				(step.status === 'current'
					? { ...this.collect(run, step, [], false), status: 'done' as const }
					: {
							status: step.status,
							skipReason: step.skipReason,
							messages: [],
							touches: [],
							deliveries: []
						});
			const verdict = judgeScenario(step.scenario, evidence, run.capabilities);
			if (step.armError && step.status === 'done')
				return {
					...verdict,
					verdict: 'FAIL' as const,
					reason: `the simulator could not arm the step's faults: ${step.armError}`
				};
			return verdict;
		});
	}

	overall(): 'PASS' | 'FAIL' | 'WARN' {
		return overallVerdict(this.verdicts());
	}

	private running(): Run {
		const run = this.run;
		if (!run || run.endedAt !== null)
			throw new CertifyError(409, 'no run in progress: start one (POST /api/admin/certify)');
		return run;
	}

	private async endStep(
		status: 'done' | 'skipped',
		reason?: string,
		stopping = false
	): Promise<Run> {
		const run = this.running();
		if (this.busy) throw new CertifyError(409, 'the step is already ending');
		const step = run.steps[run.index];
		this.busy = true;
		try {
			if (step.scenario.redeliver || step.scenario.step.webhook)
				await this.settleWebhooks(run, step, status === 'done');
			await this.settleLateAnswers(step);
			for (const id of step.faultIds) this.deps.faults.remove(id);
			step.endedAt = this.deps.now();
			step.status = status;
			if (reason !== undefined) step.skipReason = reason;
			step.evidence = {
				...this.collect(run, step, step.faultIds, true),
				status,
				skipReason: reason
			};
		} finally {
			this.busy = false;
		}
		if (!stopping) this.next();
		return run;
	}

	/** Start the next applicable step (arming its faults), or finish. */
	private next(): void {
		const run = this.run!;
		let i = run.index + 1;
		while (i < run.steps.length && run.steps[i].status === 'not-applicable') i++;
		run.index = i;
		if (i >= run.steps.length) return this.finish(run);
		const step = run.steps[i];
		step.status = 'current';
		step.startedAt = this.deps.now();
		step.fromId = this.deps.messages.lastId;
		if (step.scenario.faults.length === 0) return;
		const specs = step.scenario.faults.map((fault, k) =>
			this.target(run, fault as FaultSpecInput, k)
		);
		const added = this.deps.faults.add(specs);
		if (added.ok) step.faultIds = added.added.map((f) => f.id);
		else step.armError = added.errors.map((e) => `${e.path}: ${e.message}`).join('; ');
	}

	private target(run: Run, fault: FaultSpecInput, k: number): FaultSpecInput {
		const onScreen = !fault.kind.startsWith('http-');
		const spec: Record<string, unknown> = {
			...fault,
			...(onScreen ? { screen: run.target.screen } : { location: run.target.location }),
			label: `certify ${run.runId}`
		};
		// Seeded: the same run seed arms the same draws (a fault with a probability).
		if (fault.kind !== 'reboot' && fault.kind !== 'cloud-offline')
			spec.seed = (run.seed + run.index * 31 + k) >>> 0;
		return spec as FaultSpecInput;
	}

	private finish(run: Run): void {
		for (const step of run.steps) {
			if (step.status === 'pending' || step.status === 'current') {
				for (const id of step.faultIds) this.deps.faults.remove(id);
			}
		}
		run.index = run.steps.length;
		run.endedAt ??= this.deps.now();
	}

	/** What the simulator saw during a step (until now). */
	private collect(run: Run, step: Step, faultIds: readonly string[], final: boolean) {
		const from = step.fromId;
		const to = final ? this.deps.messages.lastId : Infinity;
		const since =
			this.deps.messages.since(from) ??
			this.deps.messages
				.list({ limit: 999_999 })
				.filter((m) => m.id > from)
				.reverse();
		const messages = since.filter(
			(m) =>
				m.id <= to &&
				(m.screenIds.length === 0 ||
					m.screenIds.includes(run.target.screen) ||
					m.interface === 'http')
		);
		const ids = new Set(faultIds.length > 0 ? faultIds : step.faultIds);
		const touches = this.deps.faults.touchedList().filter((t) => ids.has(t.faultId));
		return { messages, touches, deliveries: this.deliveriesOf(step) };
	}

	private deliveriesOf(step: Step): WebhookDelivery[] {
		if (!step.scenario.step.webhook || step.startedAt === undefined) return [];
		const from = step.startedAt;
		const to = step.endedAt ?? Infinity;
		return this.deps.webhooks
			.endpoints()
			.flatMap((e) => this.deps.webhooks.deliveries(e.id, { limit: 1000 }))
			.filter((d) => {
				const at = Date.parse(d.createdAt);
				return at >= from && at <= to && d.event === 'KDS Order Created';
			})
			.sort((a, b) => Date.parse(a.createdAt) - Date.parse(b.createdAt));
	}

	/**
	 * A step whose fault answers late (slow-reply, http-delay) ends once the late answers are out,
	 * so the messages they answer are logged (HTTP logs a message when it is answered) in the
	 * step's evidence, not the next one's; a step that took the screen away (reboot, down,
	 * cloud-offline) ends once it is back, so the next step does not meet it.
	 */
	private async settleLateAnswers(step: Step): Promise<void> {
		const delayOf = (fault: Step['scenario']['faults'][number]) =>
			'delayMs' in fault
				? Math.max(fault.delayMs ?? 0, ('maxDelayMs' in fault && fault.maxDelayMs) || 0)
				: 0;
		const delay = Math.max(0, ...step.scenario.faults.map(delayOf));
		const ids = new Set(step.faultIds);
		const touched = this.deps.faults.touchedList().filter((t) => ids.has(t.faultId));
		const late = Math.max(0, ...touched.map((t) => t.at + delay + LATE_MARGIN_MS));
		// A screen away for a while (reboot, down, offline) is back before the next step starts.
		const away = Math.max(
			0,
			...step.scenario.faults.map((f) =>
				'seconds' in f ? f.seconds * 1000 : 'durationMs' in f ? (f.durationMs ?? 0) : 0
			)
		);
		const until = Math.max(
			delay > 0 ? late : 0,
			away > 0 ? step.startedAt! + away + LATE_MARGIN_MS : 0
		);
		const wait = Math.min(until - this.deps.now(), Math.max(delay, away) + LATE_MARGIN_MS);
		if (wait > 0) await new Promise((r) => setTimeout(r, wait));
	}

	/**
	 * A webhook step's end: re-send its deliveries when the scenario says so, then wait (at most
	 * WEBHOOK_WAIT_MS) for every delivery's first answer.
	 */
	private async settleWebhooks(run: Run, step: Step, done: boolean): Promise<void> {
		if (!done) return;
		const waitAnswers = async () => {
			const until = Date.now() + WEBHOOK_WAIT_MS;
			while (Date.now() < until) {
				const pending = this.deliveriesOf(step).filter((d) => firstAnswer(d) === undefined);
				if (pending.length === 0) return;
				await new Promise((r) => setTimeout(r, 50));
			}
		};
		await waitAnswers();
		if (step.scenario.redeliver) {
			for (const d of this.deliveriesOf(step).filter((d) => d.resendOf === null))
				this.deps.webhooks.resend(d.id);
			await waitAnswers();
		}
		void run;
	}
}

/** A run's state as the admin API answers it (agent/http/certify-api.ts documents the shape). */
export function runState(runs: CertifyRuns) {
	const run = runs.current();
	if (!run) return null;
	const verdicts = runs.verdicts();
	const current = run.steps[run.index];
	const counts = { PASS: 0, FAIL: 0, WARN: 0, SKIPPED: 0, NOT_APPLICABLE: 0 };
	for (const v of verdicts) counts[v.verdict] += 1;
	return {
		runId: run.runId,
		suiteVersion: SUITE_VERSION,
		seed: run.seed,
		capabilities: run.capabilities,
		target: run.target,
		state: run.endedAt === null ? ('running' as const) : ('finished' as const),
		startedAt: new Date(run.startedAt).toISOString(),
		endedAt: run.endedAt === null ? null : new Date(run.endedAt).toISOString(),
		verdict: runs.overall(),
		counts,
		current:
			current && run.endedAt === null
				? {
						index: run.index,
						id: current.scenario.id,
						title: current.scenario.title,
						group: current.scenario.group,
						instruction: current.scenario.instruction,
						step: current.scenario.step,
						simulator: current.scenario.simulator,
						checks: current.scenario.checks,
						faults: current.faultIds,
						armError: current.armError ?? null,
						startedAt: new Date(current.startedAt!).toISOString(),
						live: {
							verdict: verdicts[run.index].verdict,
							reason: verdicts[run.index].reason,
							seen: verdicts[run.index].seen
						}
					}
				: null,
		steps: run.steps.map((step, i) => ({
			id: step.scenario.id,
			title: step.scenario.title,
			group: step.scenario.group,
			status: step.status,
			skipReason: step.skipReason ?? null,
			verdict: step.status === 'pending' && run.endedAt === null ? null : verdicts[i].verdict,
			reason: step.status === 'pending' && run.endedAt === null ? null : verdicts[i].reason
		}))
	};
}

export type RunState = NonNullable<ReturnType<typeof runState>>;
