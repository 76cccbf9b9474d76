/**
 * Faults on a screen's TCP port (docs/faults.md): what the listener does to a connection or a
 * message while a fault is on. app.ts calls `handle` instead of the plain handler only when the
 * screen's `on` is true, and the listener calls `connection` only then: with no fault, nothing
 * here runs.
 */
import { orderFingerprint, type FaultTouch } from '#core/fault-findings';
import type { LiveFault, TcpFaultKind } from '#core/fault-kinds';
import type { Faults, ScreenFaults } from '../faults/registry.ts';
import type { MessageRecorder } from '../inspector/recorder.ts';
import type { ReplyFault } from './server.ts';
import type { TcpMessageHandler } from './messages.ts';

const MESSAGE_KINDS = new Set<TcpFaultKind>([
	'lost-reply',
	'reset-before-commit',
	'no-answer',
	'slow-reply',
	'reply-in-pieces'
]);
const CONNECTION_KINDS = new Set<TcpFaultKind>(['down']);

/** The order id, command and fingerprint of a message, read only when a fault touched it. */
function readMessage(text: string): Pick<FaultTouch, 'command' | 'orderId' | 'fingerprint'> {
	try {
		const json = JSON.parse(text) as { command?: unknown; order?: unknown };
		const enveloped = typeof json?.order === 'object' && json.order !== null;
		const order = (enveloped ? json.order : json) as { id?: unknown };
		return {
			command: typeof json.command === 'string' ? json.command : 'create-order',
			orderId: typeof order?.id === 'string' ? order.id : null,
			fingerprint: orderFingerprint(order)
		};
	} catch {
		return { command: null, orderId: null, fingerprint: null };
	}
}

/** What the listener does with the reply of a message this fault touched. */
function replyFault(fault: LiveFault): ReplyFault | undefined {
	const spec = fault.spec;
	switch (spec.kind) {
		case 'lost-reply':
			return { kind: 'close' };
		case 'no-answer':
			return { kind: 'hold' };
		case 'slow-reply':
			return { kind: 'delay', ms: fault.delay() };
		case 'reply-in-pieces':
			return { kind: 'pieces', pieces: spec.pieces, pauseMs: spec.pauseMs };
		default:
			return undefined;
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
	handle: (
		text: string,
		source: string,
		reply: (text: string | null, fault?: ReplyFault) => void,
		terminator: () => string | null
	) => void;
} {
	const screen = faults.screen(screenId);
	const gate = Object.assign(screen, {
		connection(socket: import('node:net').Socket, source: string): boolean {
			const fault = faults.tcpFault(screen, CONNECTION_KINDS);
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
		const fault = faults.tcpFault(screen, MESSAGE_KINDS);
		if (fault === undefined) return handleTcp(screenId, text, source, reply, { terminator });
		const kind = fault.spec.kind;
		const touch = faults.touched(fault, {
			interface: 'tcp',
			screenId,
			source,
			...readMessage(text),
			committed: kind !== 'reset-before-commit'
		});
		if (kind === 'reset-before-commit') {
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
			return reply('', { kind: 'reset' });
		}
		const action = replyFault(fault);
		handleTcp(
			screenId,
			text,
			source,
			(answer) => (answer === null ? reply(null) : reply(answer, action)),
			{ terminator, fault: touch }
		);
	};
	return { gate, handle };
}
