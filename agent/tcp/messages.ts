/**
 * One framed TCP message to a screen (contract 4.5): decode it with the core's schema, run the
 * command through the engine, answer with the contract's bare reply, and hand the message to the
 * inspector's recorder once the reply is written. app.ts makes one handler, with the recorder, for
 * every screen's listener and the inspector's re-send (as HTTP's hooks are given the recorder).
 */
import {
	checkConformance,
	REPLACEMENT_CHARACTER,
	type CheckContext,
	type Finding
} from '#core/conformance';
import type { OrderRecord } from '#core/order-machine';
import { type OrderCommand } from '#core/order-schema';
import { formatErrors, type ParseResult, type ReadOptions } from '#core/parse';
import {
	decodeTcpMessage,
	TCP_COMMANDS,
	UNABLE_TO_PARSE,
	type TcpCommandName
} from '#core/tcp-message';
import type { Engine } from '../engine/engine.ts';
import type { MessageEntry } from '../inspector/message-log.ts';
import type { MessageRecorder } from '../inspector/recorder.ts';
import { faultLabel, RAW_IS_JSON } from '#core/message-entry';
import { REFUSED_TEXT_KEPT, type RefusedFrame } from './server.ts';

export interface TcpMessageOptions {
	/** The inspector's editor sent this: the id of the message it was edited from. */
	editedFrom?: number;
	/**
	 * What the connection sends after the reply ('\n' or ''; null while unknown, read as
	 * ''), so the log keeps the exact bytes. Absent for a re-send, which has no connection.
	 */
	terminator?: () => string | null;
	/** A fault touched this message: the inspector's entry says so, and the touch learns its id. */
	fault?: { faultId: string; kind: string; messageId?: number };
}

/**
 * Handles one message to a screen. `reply` gets the contract's reply string (the order id,
 * `Unable to parse data`, `DUPLICATE_ORDER_ID` or `ORDER_DOES_NOT_EXIST`), or null when the store
 * failed and nothing was acknowledged.
 */
export type TcpMessageHandler = (
	screenId: string,
	text: string,
	source: string,
	reply: (text: string | null) => void,
	options?: TcpMessageOptions
) => void;

/** The TCP handler of an engine; with a recorder, every message is recorded for the inspector. */
export function tcpMessageHandler(engine: Engine, recorder?: MessageRecorder): TcpMessageHandler {
	return (screenId, text, source, reply, options) =>
		handleTcpMessage(
			engine,
			recorder,
			screenId,
			text,
			source,
			reply,
			options?.terminator,
			options?.editedFrom,
			options?.fault
		);
}

/**
 * The read options for a screen's time zone, one object per zone (the zones are the screens'
 * configured ones), not a fresh `{ timeZone }` per message.
 */
const readOptions = new Map<string | undefined, ReadOptions>();
function readOptionsFor(timeZone: string | undefined): ReadOptions {
	let options = readOptions.get(timeZone);
	if (options === undefined) readOptions.set(timeZone, (options = { timeZone }));
	return options;
}

function handleTcpMessage(
	engine: Engine,
	recorder: MessageRecorder | undefined,
	screenId: string,
	text: string,
	source: string,
	reply: (text: string | null) => void,
	terminator: (() => string | null) | undefined,
	editedFrom: number | undefined,
	fault?: TcpMessageOptions['fault']
): void {
	const at = recorder?.now();
	// A date-time with no offset is the local time of the screen's location.
	const timeZone = engine.screen(screenId)?.location.timezone;
	const decoded = decodeTcpMessage(text, readOptionsFor(timeZone));
	const parsed = decoded.result;
	// Everything the inspector's entry needs after the reply, in one object (no closure, and no
	// function context, per message beside it); none without a recorder.
	const entry =
		recorder === undefined
			? undefined
			: new TcpEntry(
					engine,
					recorder,
					at!,
					screenId,
					text,
					source,
					terminator,
					editedFrom,
					decoded.json,
					parsed,
					fault
				);
	if (!parsed.ok) {
		const why = formatErrors(parsed.errors);
		engine.logger.info(
			{ screen: screenId, source, errors: parsed.errors },
			`TCP message refused: ${why}`
		);
		const raw = decoded.json as
			{ command?: unknown; order?: { id?: unknown }; id?: unknown } | undefined;
		const idGuess = raw?.order?.id ?? raw?.id;
		entry?.settle(
			UNABLE_TO_PARSE,
			why,
			false,
			typeof raw?.command === 'string' ? raw.command : null,
			typeof idGuess === 'string' ? idGuess : null,
			undefined
		);
		engine.afterCommits(() => reply(UNABLE_TO_PARSE));
		return;
	}
	// The command's name as the contract spells it (a constant, not the message's own copy of
	// it, which the log would keep for 2,000 messages).
	const command = TCP_COMMANDS[TCP_COMMANDS.indexOf(parsed.value.command as TcpCommandName)];
	// The findings read `before`: while the screen's order with the command's id is that very
	// record (or both are none), the engine decides with the outcomes too, and the findings take
	// that decision instead of deciding the message again (#core/conformance, CheckContext.decided).
	const explain =
		entry !== undefined &&
		engine.screen(screenId)?.state.orders.get(parsed.value.order.id) === entry.before;
	const decidedAt = engine.now();
	engine.runCommand(
		screenId,
		parsed.value,
		(decision) => {
			if (!decision) return reply(null);
			// Guarded: the log's object would be made for every message, debug on or off. `level`
			// (not isLevelEnabled, which would load the lazy logger's pino before the first reply).
			if (debugOn(engine.logger.level)) {
				engine.logger.debug(
					{ screen: screenId, source, command, id: decision.id },
					decision.ok ? 'accepted' : decision.code
				);
			}
			const answer = decision.ok ? decision.id : decision.code;
			entry?.settle(
				answer,
				null,
				decision.ok,
				command,
				decision.id,
				explain ? { decision, at: decidedAt } : undefined
			);
			reply(answer);
		},
		decidedAt,
		explain
	);
}

/**
 * One message's inspector entry, made once the reply is known (settle) and recorded after the
 * replies of the turn are written (run, through the engine's AfterReplies): its findings are
 * judged against the order as it was before this message (records are immutable, so keeping a
 * reference is enough), and computed then, never before the reply.
 */
class TcpEntry {
	/** The order the message names, as it was on the screen before it. */
	readonly before: OrderRecord | undefined;
	private result = '';
	private unsent: string | null = null;
	private ok = false;
	private command: string | null = null;
	private orderId: string | null = null;
	private decided: CheckContext['decided'] = undefined;

	constructor(
		private readonly engine: Engine,
		private readonly recorder: MessageRecorder,
		/** When the message came (the recorder's clock). */
		private readonly at: number,
		private readonly screenId: string,
		private readonly text: string,
		private readonly source: string,
		private readonly terminator: (() => string | null) | undefined,
		private readonly editedFrom: number | undefined,
		private readonly json: unknown,
		private readonly parsed: ParseResult<OrderCommand>,
		private readonly fault: TcpMessageOptions['fault']
	) {
		this.before = recordFor(engine, screenId, json);
	}

	/** The reply is decided: record the entry once the turn's replies are written. */
	settle(
		result: string,
		unsent: string | null,
		ok: boolean,
		command: string | null,
		orderId: string | null,
		decided: CheckContext['decided']
	): void {
		this.result = result;
		this.unsent = unsent;
		this.ok = ok;
		this.command = command;
		this.orderId = orderId;
		this.decided = decided;
		this.engine.afterReplies.add(this);
	}

	/** Called by AfterReplies once the replies are written. */
	run(): void {
		const { engine, screenId, json, text, result } = this;
		const reply = result + (this.terminator?.() ?? '');
		const found = findings(engine, screenId, json, this.before, this.parsed, this.decided, text);
		// The text parsed as JSON: the message file writes it as it came, not escaped into a
		// copy (RAW_IS_JSON), unless it holds a lone surrogate (only an edited re-send can),
		// which UTF-8 cannot carry.
		const marked = json !== undefined && (text as unknown as WellFormed).isWellFormed();
		// One literal with every key the entry will have, in the order it is written (the
		// recorder sets `at` and `why`, the log `id`; the mark last): no spread, and no key
		// added later that would give each of the 2,000 entries the log keeps a property
		// store of its own. `editedFrom` is undefined but on the inspector's edited re-sends,
		// and JSON (the file, the API, the stream) leaves it out then.
		const message: MessageEntry & { [RAW_IS_JSON]: boolean } = {
			interface: 'tcp',
			source: this.source,
			editedFrom: this.editedFrom,
			screenIds: screenIdsOf(screenId),
			command: this.command,
			orderId: this.orderId,
			result,
			reply,
			ok: this.ok,
			raw: text,
			fault: this.fault === undefined ? undefined : faultLabel(this.fault),
			findings: found,
			at: 0,
			why: null,
			id: 0,
			[RAW_IS_JSON]: marked
		};
		const recorded = this.recorder.record(message, { unsent: this.unsent }, this.at);
		if (this.fault !== undefined) this.fault.messageId = recorded.id;
	}
}

/** Whether pino logs at debug at this level ('trace' is below it). */
function debugOn(level: string): boolean {
	return level === 'debug' || level === 'trace';
}

/** String.prototype.isWellFormed (ES2024; the project's TypeScript lib is ES2022). */
interface WellFormed {
	isWellFormed(): boolean;
}

/** A finding-free message's findings: one shared empty list, not one per entry the log keeps. */
const NO_FINDINGS: Finding[] = Object.freeze([]) as unknown as Finding[];

/** One list per screen for its entries' `screenIds` (the log keeps 2,000 entries). */
const screenIdLists = new Map<string, string[]>();
function screenIdsOf(screenId: string): string[] {
	let ids = screenIdLists.get(screenId);
	if (ids === undefined) screenIdLists.set(screenId, (ids = [screenId]));
	return ids;
}

/** The order a decoded TCP message names, as it is on the screen now. */
function recordFor(engine: Engine, screenId: string, json: unknown): OrderRecord | undefined {
	const raw = json as { order?: { id?: unknown }; id?: unknown } | null | undefined;
	const id = raw?.order?.id ?? raw?.id;
	return typeof id === 'string' ? engine.screen(screenId)?.state.orders.get(id) : undefined;
}

/** What in a TCP message breaks or bends the contract (the inspector shows it). */
function findings(
	engine: Engine,
	screenId: string,
	json: unknown,
	existing: OrderRecord | undefined,
	parsed: ParseResult<OrderCommand>,
	decided: CheckContext['decided'],
	text: string
): Finding[] {
	if (json === undefined) return NO_FINDINGS;
	const named = (json as { command?: unknown } | null)?.command;
	const command = (TCP_COMMANDS as readonly unknown[]).includes(named)
		? (named as TcpCommandName)
		: 'create-order';
	const found = checkConformance({
		interface: 'tcp',
		command,
		raw: json,
		autoHold: engine.screen(screenId)?.config.settings.autoHoldFutureOrders,
		existing,
		// decodeTcpMessage parsed the order with the same schema: its issues are known.
		schemaValid: parsed.ok,
		parsed: parsed.ok ? parsed.value.order : undefined,
		outcomes: parsed.ok ? (parsed.outcomes ?? []) : [],
		// Read as the common case: no unknown key in the order, so no walk for them (as HTTP).
		plain: parsed.ok && parsed.plain === true,
		// The engine's decision of this message on the screen `existing` was read from.
		decided,
		// One scan of the text, so the strings are searched only when it holds a U+FFFD.
		replacementChar: text.includes(REPLACEMENT_CHARACTER)
	});
	return found.length === 0 ? NO_FINDINGS : found;
}

/** The first REFUSED_TEXT_KEPT characters of a refused run, as a copy (a slice keeps its whole). */
function keptText(text: string): string {
	if (text.length <= REFUSED_TEXT_KEPT) return text;
	return `${Buffer.from(text.slice(0, REFUSED_TEXT_KEPT)).toString()}… (${text.length} characters in all)`;
}

function notJson(text: string): string {
	return (
		'not JSON: bytes outside any {…} message (plain text, XML, UTF-16, binary), up to the next newline, { or [' +
		(text.includes('\uFFFD') ? '; bytes that are not UTF-8 show as �' : '')
	);
}

/**
 * Records a frame the listener refused before any parsing (bytes that are not JSON, oversize,
 * nested too deep, unfinished at the close) with the reply it got: called by the listener only
 * for refusals, after the reply is written, so an accepted message costs nothing more.
 */
export function recordRefusedFrame(
	recorder: MessageRecorder,
	screenId: string,
	frame: RefusedFrame,
	source: string,
	reply: string,
	limits: { maxMessageBytes: number; maxDepth: number }
): void {
	let raw = '';
	let why: string;
	switch (frame.kind) {
		case 'garbage': {
			raw = keptText(frame.text);
			why = notJson(frame.text);
			break;
		}
		case 'oversize':
			why = `over the size limit of ${limits.maxMessageBytes} bytes: the rest of the message was skipped, and none of it kept`;
			break;
		case 'too-deep':
			why = `nested deeper than ${limits.maxDepth} levels: the rest of the message was skipped, and none of it kept`;
			break;
		case 'unfinished':
			if (frame.head !== undefined) {
				// A run that was not JSON, sent without a newline before the close (XML, a word).
				// Its head is at most REFUSED_TEXT_KEPT bytes, decoded on its own.
				raw =
					frame.bytes > REFUSED_TEXT_KEPT
						? `${frame.head}… (${frame.bytes} bytes in all)`
						: frame.head;
				why = notJson(frame.head);
			} else {
				why = `unfinished when the client closed its side: ${frame.bytes} bytes of a message never completed (not kept)`;
			}
			break;
	}
	recorder.record(
		{
			interface: 'tcp',
			source,
			screenIds: [screenId],
			command: null,
			orderId: null,
			result: UNABLE_TO_PARSE,
			reply,
			ok: false,
			raw,
			findings: []
		},
		{ unsent: why }
	);
}
