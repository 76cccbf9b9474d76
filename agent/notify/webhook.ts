/**
 * The one outbound webhook of the agent, used by the takeout notification callbacks
 * (retry.notificationUrl) and by the SMS forwarder (brands[].sms.webhookUrl): a JSON POST that is
 * abandoned when it has no answer after WEBHOOK_TIMEOUT_MS, tried at most WEBHOOK_ATTEMPTS times,
 * waiting WEBHOOK_BACKOFF_MS before each try after the first, every wait on the agent's clock.
 * A receiver that is slow, failing or unreachable never holds up anything else.
 *
 * A webhook URL may hold a secret (userinfo, a query token, a token in the path, as Slack-style
 * hooks do): every log line and every recorded error names it through redact(), never whole.
 * Userinfo is sent as HTTP Basic credentials (fetch refuses it in the URL).
 *
 * The vendor's webhooks (./webhooks.ts) give each job its own schedule (`attempts`, `backoffMs`),
 * headers and exact body bytes (signed), and read the receiver's status and the start of its
 * answer for their delivery log (settle's `detail`).
 *
 * What has been tried is the owner's to keep (each keeps it in its own table, so a restart
 * resumes where it stopped): the sender asks the owner for each try (`prepare`), which may count
 * it durably before the request goes, and tells it each outcome (`settle`).
 */
import type { Clock, Timer } from '../clock.ts';
import type { Logger } from '../log.ts';

/** Tries in all, the wait before each try after the first, and the limit on one request. */
export const WEBHOOK_ATTEMPTS = 3;
export const WEBHOOK_BACKOFF_MS = [2_000, 10_000] as const;
export const WEBHOOK_TIMEOUT_MS = 5_000;

/**
 * A URL for logs and listings: scheme, host and port, and only the path segments that read as
 * words (at most 16 lowercase letters, digits, '-', '_' or '.', at most 4 of them digits); any
 * other segment becomes '…'. No userinfo, no query, no fragment: each may hold a secret.
 */
export function redact(url: string): string {
	let u: URL;
	try {
		u = new URL(url);
	} catch {
		return '(invalid URL)';
	}
	const path = u.pathname
		.split('/')
		.map((segment) =>
			segment === '' ||
			(/^[a-z0-9._-]{1,16}$/.test(segment) && (segment.match(/\d/g)?.length ?? 0) <= 4)
				? segment
				: '…'
		)
		.join('/');
	return `${u.origin}${path === '/' ? '' : path}`;
}

/** One try: where to post what, and a word for the log line when it is received. */
export interface WebhookTry {
	url: string;
	body: unknown;
	/** Appended to the "sent" log line, e.g. "(delivered)". */
	note?: string;
	/** Extra request headers. */
	headers?: Record<string, string>;
	/** The body's exact bytes, when they must be what was signed (else JSON.stringify(body)). */
	json?: string;
}

/** What the receiver answered to one try: its status (null: none) and the start of its body. */
export interface WebhookAnswer {
	status: number | null;
	/** At most ANSWER_CHARS characters of the answer, or why there was none. */
	answer: string;
}

/** How much of a receiver's answer a delivery log keeps. */
export const ANSWER_CHARS = 500;

export type WebhookOutcome =
	| { ok: true; attempt: number }
	| {
			ok: false;
			attempt: number;
			/** Why: "HTTP 500", "ECONNREFUSED", "no answer within 5000 ms"… */
			error: string;
			/** When the next try is due; null when this was the last. */
			retryAt: number | null;
	  };

export interface WebhookJob {
	/** Fields naming what is sent, for every log line (the URL is added, redacted). */
	log: Record<string, unknown>;
	/**
	 * Try number `attempt` (from 1) is about to go: what to post, or null when there is nothing
	 * to post any more (forgotten, or no URL now; the owner records why).
	 */
	prepare(attempt: number): WebhookTry | null;
	/** The outcome of each try that went, and what the receiver answered. */
	settle(outcome: WebhookOutcome, detail: WebhookAnswer): void;
	/** Tries in all (default WEBHOOK_ATTEMPTS). */
	attempts?: number;
	/** The wait after failed try `attempt` (default WEBHOOK_BACKOFF_MS). */
	backoffMs?: (attempt: number) => number;
}

export interface WebhookSenderOptions {
	clock: Clock;
	logger: Logger;
	/** What the log lines call it: "notification callback", "SMS webhook". */
	name: string;
	timeoutMs?: number;
}

export class WebhookSender {
	private readonly clock: Clock;
	private readonly logger: Logger;
	private readonly name: string;
	private readonly timeoutMs: number;
	private readonly timers = new Set<Timer>();
	private readonly aborts = new Set<AbortController>();
	private readonly inFlight = new Set<Promise<void>>();
	private closed = false;

	constructor(options: WebhookSenderOptions) {
		this.clock = options.clock;
		this.logger = options.logger;
		this.name = options.name;
		this.timeoutMs = options.timeoutMs ?? WEBHOOK_TIMEOUT_MS;
	}

	/**
	 * Send `job`: try number `attempt` (default 1, more when a restart resumes) at `at` (default
	 * now), then the next tries on failure. Returns a handle that cancels the try not yet gone.
	 */
	send(job: WebhookJob, { attempt = 1, at }: { attempt?: number; at?: number } = {}): Timer {
		let timer: Timer | undefined;
		let cancelled = false;
		const schedule = (n: number, due: number) => {
			if (this.closed || cancelled) return;
			const go = () => {
				if (timer) this.timers.delete(timer);
				const tried = this.try(job, n).then((retryAt) => {
					if (retryAt !== null) schedule(n + 1, retryAt);
				});
				const done = tried.finally(() => this.inFlight.delete(done));
				this.inFlight.add(done);
			};
			timer = due <= this.clock.now() ? soon(go) : this.clock.at(due, go);
			this.timers.add(timer);
		};
		schedule(attempt, at ?? this.clock.now());
		return {
			cancel: () => {
				cancelled = true;
				if (timer) {
					timer.cancel();
					this.timers.delete(timer);
				}
			}
		};
	}

	/** Resolves once no request is in flight (tests). */
	async idle(): Promise<void> {
		while (this.inFlight.size > 0) await Promise.allSettled([...this.inFlight]);
	}

	/** Cancel every try not yet gone and abandon those in flight; nothing more is settled. */
	close(): void {
		this.closed = true;
		for (const timer of this.timers) timer.cancel();
		this.timers.clear();
		for (const controller of this.aborts) controller.abort(new Error('agent closing'));
	}

	/** One try; resolves to when the next is due, or null when there is none. */
	private async try(job: WebhookJob, attempt: number): Promise<number | null> {
		if (this.closed) return null;
		const next = job.prepare(attempt);
		if (!next) return null;
		const { error, ...detail } = await this.post(next);
		if (this.closed) return null;
		const where = { ...job.log, url: redact(next.url), attempt };
		if (error === null) {
			this.logger.info(where, `${this.name} sent${next.note ? ` ${next.note}` : ''}`);
			job.settle({ ok: true, attempt }, detail);
			return null;
		}
		const attempts = job.attempts ?? WEBHOOK_ATTEMPTS;
		if (attempt >= attempts) {
			this.logger.error(where, `${this.name} given up after ${attempt} tries: ${error}`);
			job.settle({ ok: false, attempt, error, retryAt: null }, detail);
			return null;
		}
		const wait = job.backoffMs
			? job.backoffMs(attempt)
			: WEBHOOK_BACKOFF_MS[Math.min(attempt, WEBHOOK_BACKOFF_MS.length) - 1];
		const retryAt = this.clock.now() + wait;
		this.logger.warn(
			where,
			`${this.name} failed (${error}); try ${attempt + 1} of ${attempts} at ${new Date(retryAt).toISOString()}`
		);
		job.settle({ ok: false, attempt, error, retryAt }, detail);
		return retryAt;
	}

	/** POST JSON; error null when the receiver answered 2xx, else why not. */
	private async post(
		next: WebhookTry
	): Promise<{ error: string | null; status: number | null; answer: string }> {
		const { url } = next;
		const controller = new AbortController();
		this.aborts.add(controller);
		const timeout = this.clock.at(this.clock.now() + this.timeoutMs, () =>
			controller.abort(new Error(`no answer within ${this.timeoutMs} ms`))
		);
		try {
			const { target, authorization } = splitCredentials(url);
			// fetch follows redirects only to http(s) URLs; any other scheme is a network error.
			const res = await fetch(target, {
				method: 'POST',
				headers: {
					'content-type': 'application/json',
					'user-agent': 'kds-sim',
					...next.headers,
					...(authorization ? { authorization } : {})
				},
				body: next.json ?? JSON.stringify(next.body),
				signal: controller.signal
			});
			const answer = await startOf(res.body).catch(() => '');
			return { error: res.ok ? null : `HTTP ${res.status}`, status: res.status, answer };
		} catch (err) {
			const reason = controller.signal.aborted ? controller.signal.reason : err;
			const cause = (reason as { cause?: { code?: string; message?: string } })?.cause;
			const why = cause?.code ?? cause?.message ?? (reason as Error)?.message ?? String(reason);
			// fetch's own messages may quote the URL; it is logged and listed, so never whole.
			const error = why.split(url).join(redact(url));
			return { error, status: null, answer: error };
		} finally {
			timeout.cancel();
			this.aborts.delete(controller);
		}
	}
}

/** The first ANSWER_CHARS characters of a body (read while the try's time-out runs), the rest dropped. */
async function startOf(body: ReadableStream<Uint8Array> | null): Promise<string> {
	if (!body) return '';
	const reader = body.getReader();
	const decoder = new TextDecoder();
	let text = '';
	try {
		while (text.length < ANSWER_CHARS) {
			const { done, value } = await reader.read();
			if (done) break;
			text += decoder.decode(value, { stream: true });
		}
	} finally {
		await reader.cancel().catch(() => {});
	}
	return text.slice(0, ANSWER_CHARS);
}

/**
 * fetch refuses a URL with userinfo: `http://user:password@host/…` is sent, as curl sends it, to
 * the URL without it, with the userinfo as HTTP Basic credentials.
 */
function splitCredentials(url: string): { target: string; authorization?: string } {
	const u = new URL(url);
	if (u.username === '' && u.password === '') return { target: url };
	const credentials = `${decodeURIComponent(u.username)}:${decodeURIComponent(u.password)}`;
	u.username = '';
	u.password = '';
	return {
		target: u.href,
		authorization: `Basic ${Buffer.from(credentials).toString('base64')}`
	};
}

/** Run `fn` once the current work is done, off the clock (it is due already). */
function soon(fn: () => void): Timer {
	const handle = setImmediate(fn);
	return { cancel: () => clearImmediate(handle) };
}
