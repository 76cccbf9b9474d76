/**
 * Faults on a screen's TCP port (docs/faults.md): what the listener does to a connection or a
 * message while a fault is on. app.ts calls `handle` instead of the plain handler only when the
 * screen's `on` is true, and the listener calls `connection` only then: with no fault, nothing
 * here runs.
 */
import { orderFingerprint, type FaultTouch } from '#core/fault-findings';
import {
	FAULT_KIND_TABLE,
	kindsWhere,
	type KindsWhere,
	type TcpFaultKind
} from '#core/fault-kinds';
import type { LiveFault } from '#core/fault-firing';
import { envelopeOf } from '#core/tcp-message';
import type { Faults, Firing, ScreenFaults } from '../faults/registry.ts';
import type { MessageRecorder } from '../inspector/recorder.ts';
import type { ReplyFault, TcpScreenOptions } from './server.ts';
import type { TcpMessageHandler } from './messages.ts';

/** The kinds that act on a message (before its commit or on its reply), from the kinds table. */
const MESSAGE_KINDS = new Set<TcpFaultKind>([
	...kindsWhere({ transport: 'tcp', stage: 'before-commit' }),
	...kindsWhere({ transport: 'tcp', stage: 'reply' })
]);
/** The kinds that act on a connection as it opens. */
const CONNECTION_KINDS = new Set<TcpFaultKind>(
	kindsWhere({ transport: 'tcp', stage: 'connection' })
);

type ReplyKind = KindsWhere<{ transport: 'tcp'; stage: 'reply' }>;

/**
 * What the listener does with the reply of a message each reply fault touched: one entry per
 * kind of the table (a kind left out does not compile). A delay is not here: it composes, and
 * runs on the agent's clock before the reply is handed over (`handle`).
 */
const REPLY_EFFECTS = {
	'lost-reply': () => ({ kind: 'close' }),
	'no-answer': () => ({ kind: 'hold' }),
	'slow-reply': () => undefined,
	'reply-in-pieces': (fault, faults) => {
		const spec = fault.spec as { pieces: number; pauseMs: number };
		return {
			kind: 'pieces',
			pieces: spec.pieces,
			pauseMs: spec.pauseMs,
			later: (ms, run) => faults.later(ms, run)
		};
	}
} satisfies Record<ReplyKind, (fault: LiveFault, faults: Faults) => ReplyFault | undefined>;

/** The order id, command and fingerprint of a message, read only when a fault touched it. */
function readMessage(text: string): Pick<FaultTouch, 'command' | 'orderId' | 'fingerprint'> {
	try {
		const envelope = envelopeOf(JSON.parse(text));
		const order = envelope?.order ?? null;
		return {
			command: envelope?.named ?? null,
			orderId: typeof order?.id === 'string' ? order.id : null,
			fingerprint: orderFingerprint(order)
		};
	} catch {
		return { command: null, orderId: null, fingerprint: null };
	}
}

/** The listener's fault hooks for one screen, and its handler while a fault is on. */
export function screenTcpFaults(
	faults: Faults,
	screenId: string,
	handleTcp: TcpMessageHandler,
	recorder: MessageRecorder | undefined
): {
	gate: ScreenFaults & { connection(socket: import('node:net').Socket, source: string): boolean };
	handle: TcpScreenOptions['handle'];
} {
	const screen = faults.screen(screenId);
	const gate = Object.assign(screen, {
		connection(socket: import('node:net').Socket, source: string): boolean {
			// Away for a reboot, or down: the connection is reset as it opens, and counted.
			const fault: Firing | undefined =
				screen.away !== undefined
					? { fault: screen.away }
					: faults.tcpFault(screen, CONNECTION_KINDS);
			if (fault === undefined) return false;
			faults.touched(fault, {
				interface: 'tcp',
				screenId,
				source,
				command: null,
				orderId: null,
				fingerprint: null,
				committed: false
			});
			socket.resetAndDestroy();
			return true;
		}
	});
	const handle = (
		text: string,
		source: string,
		reply: (text: string | null, fault?: ReplyFault) => void,
		terminator: () => string | null
	) => {
		const firing = faults.tcpFault(screen, MESSAGE_KINDS);
		if (firing === undefined) return handleTcp(screenId, text, source, reply, { terminator });
		const { fault, delay } = firing;
		const kind = fault.spec.kind as TcpFaultKind;
		const touch = faults.touched(firing, {
			interface: 'tcp',
			screenId,
			source,
			...readMessage(text),
			committed: FAULT_KIND_TABLE[kind].commits
		});
		// A delay (slow-reply alone, or composed with another fault) runs on the agent's clock.
		const waitMs = (delay ?? (kind === 'slow-reply' ? fault : undefined))?.delay() ?? 0;
		const after = (run: () => void) => (waitMs > 0 ? faults.later(waitMs, run) : run());
		if (FAULT_KIND_TABLE[kind].stage === 'before-commit') {
			// Nothing reaches the screen; the inspector still shows what came and what was done.
			const entry = recorder?.record(
				{
					interface: 'tcp',
					source,
					screenIds: [screenId],
					command: touch.command,
					orderId: touch.orderId,
					result: 'connection reset (fault)',
					reply: '',
					ok: false,
					raw: text,
					fault: `${kind} (${fault.id})`,
					findings: []
				},
				{
					unsent: `fault ${fault.id}: the connection was reset before the message was committed; nothing was kept`
				}
			);
			touch.messageId = entry?.id;
			return after(() => reply('', { kind: 'reset' }));
		}
		const action = REPLY_EFFECTS[kind as ReplyKind](fault, faults);
		handleTcp(
			screenId,
			text,
			source,
			(answer) => (answer === null ? reply(null) : after(() => reply(answer, action))),
			{ terminator, fault: touch }
		);
	};
	return { gate, handle };
}
