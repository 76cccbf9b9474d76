/**
 * Splits the byte stream of a TCP order connection (port 9104) into top-level JSON objects.
 * Clients send one object per connection, one per line, back to back with no delimiter, or one
 * object over many segments (field notes, "TCP order interface"); this class handles all of
 * them. No I/O: the connection feeds bytes in and acts on the frames that come out.
 *
 * A UTF-8 byte order mark (EF BB BF) between messages is skipped like whitespace: .NET writers
 * put one before the JSON (field notes), at the start of a connection or before each message.
 * A top-level JSON array is one message, framed whole like an object, so that the handler
 * refuses it once and nothing inside it (an order in an array of orders) takes effect.
 *
 * The scan tracks brace/bracket depth and JSON strings (with backslash escapes), never parses,
 * never re-scans a byte, and holds at most `maxMessageBytes` bytes whatever the peer sends. A
 * message nested deeper than `maxDepth` is refused as soon as it goes too deep, like an oversize
 * one, and never reaches JSON.parse: no order is nested more than a few levels, and parsing
 * 20,000 levels of `{"a":` costs a megabyte of objects per message.
 * Text is decoded only once a message (or garbage run) is complete, so a chunk may end anywhere,
 * including inside a multi-byte UTF-8 character.
 *
 * The bytes of an unfinished message are kept in the chunks the socket delivered them in, not
 * copied into one growing buffer: a message that arrives in 64 KiB reads is held as those reads,
 * with no copy and no doubling (a growing buffer holds up to twice its bytes and leaves a trail of
 * large freed blocks behind it). Only small pieces (a slow sender's few bytes, or a small view of
 * a larger buffer, which would pin all of it) are copied into small tails. `retained`
 * is what the held pieces really keep alive, and is what the pending-bytes budget charges.
 */

import {
	BACKSLASH,
	LBRACE,
	LBRACKET,
	MAX_JSON_DEPTH,
	QUOTE,
	RBRACE,
	RBRACKET
} from '#core/json-depth';

export const DEFAULT_MAX_MESSAGE_BYTES = 1024 * 1024;
/**
 * Deepest nesting of objects and arrays in a message: the one limit of both edges (HTTP bodies
 * too, and the inspector's pretty-printing), kept in the core (#core/json-depth).
 */
export const DEFAULT_MAX_DEPTH = MAX_JSON_DEPTH;

export type Frame =
	/**
	 * One complete top-level `{...}` (or `[...]`) text, not yet parsed (it may still be invalid
	 * JSON; an array is framed whole so that it is refused once, as one message).
	 */
	| { kind: 'message'; text: string }
	/**
	 * Bytes that cannot start or continue a message: a run at depth 0 up to the next `\n`, `{`
	 * or `[` (raw, so `hello\r\n` gives `hello\r`), or a message cut by a raw newline inside a
	 * string. Text is capped at `maxMessageBytes` bytes.
	 */
	| { kind: 'garbage'; text: string }
	/**
	 * What end() found pending: a message (or garbage run, or the start of a byte order mark) the
	 * peer never finished. Only its size (the bytes held, at most `maxMessageBytes`): its text is
	 * never needed, and decoding it would cost up to a megabyte per connection just as it closes
	 * (a flood of unfinished messages closing at once: as much again as the budget, in strings).
	 */
	| {
			kind: 'unfinished';
			bytes: number;
			/**
			 * Of a run that was not JSON (GARBAGE), its first `unfinishedGarbageHead` bytes decoded,
			 * when that option is set: a plain-text or XML message sent without a newline shows in
			 * the inspector. Never for an unfinished message.
			 */
			head?: string;
	  }
	/**
	 * A message grew past `maxMessageBytes`: reported once, as soon as the limit is crossed
	 * (`bytes` is then `maxMessageBytes + 1`); the rest of that object is skipped unbuffered.
	 */
	| { kind: 'oversize'; bytes: number }
	/**
	 * A message nested deeper than `maxDepth`: reported once, as soon as it goes one level too
	 * deep (`depth` is then `maxDepth + 1`); the rest of that message is skipped unbuffered.
	 */
	| { kind: 'too-deep'; depth: number }
	/** A newline at depth 0, outside any message. */
	| { kind: 'eol' };

export interface FramerOptions {
	/** Largest message accepted, in bytes; also caps the text kept for a garbage run. */
	maxMessageBytes?: number;
	/** Deepest nesting of objects and arrays a message may have (DEFAULT_MAX_DEPTH). */
	maxDepth?: number;
	/**
	 * Bytes of an unfinished run that is not JSON decoded into its frame's `head` at end() (the
	 * inspector's view of it); 0, the default, decodes nothing.
	 */
	unfinishedGarbageHead?: number;
}

const NL = 0x0a;
const CR = 0x0d;
const TAB = 0x09;
const SPACE = 0x20;
/** The UTF-8 byte order mark. */
const BOM = [0xef, 0xbb, 0xbf] as const;

/** Between messages. */
const IDLE = 0;
/** Inside a run of bytes that cannot start a message. */
const GARBAGE = 1;
/** Inside a message, buffering its bytes. */
const MESSAGE = 2;
/** Inside an oversize message: tracking depth only, until it closes. */
const DISCARD = 3;
/** Between messages, after the first bytes of what may be a byte order mark (see `bomSeen`). */
const MAYBE_BOM = 4;
type Mode = typeof IDLE | typeof GARBAGE | typeof MESSAGE | typeof DISCARD | typeof MAYBE_BOM;

/** What stopped scan(). */
const RAN_OUT = 0;
const CLOSED = 1;
const NEWLINE_IN_STRING = 2;
const TOO_DEEP = 3;
type Stop = typeof RAN_OUT | typeof CLOSED | typeof NEWLINE_IN_STRING | typeof TOO_DEEP;

/**
 * A piece of a chunk at least this long, and at least half of the memory it is a view of, is
 * held as it is; a shorter one is copied into a tail.
 */
const REFERENCE_MIN_BYTES = 8 * 1024;
/**
 * Tails small pieces are copied into: the first as big as the piece, at least TAIL_MIN_BYTES,
 * each next one double the last, up to TAIL_MAX_BYTES (a message split once in a few
 * hundred bytes costs a few hundred bytes; a slow sender's many small reads, 16 KiB tails).
 */
const TAIL_MIN_BYTES = 256;
const TAIL_MAX_BYTES = 16 * 1024;

const decoder = new TextDecoder('utf-8', { ignoreBOM: true });

/** `frames` with `frame` added: a list of one made as a literal (no room for 16 more). */
function withFrame(frames: Frame[] | undefined, frame: Frame): Frame[] {
	if (frames === undefined) return [frame];
	frames.push(frame);
	return frames;
}

/** What a read that completes no frame returns: one shared list, never changed (frozen). */
const NO_FRAMES: Frame[] = Object.freeze([]) as unknown as Frame[];

export class Framer {
	readonly maxMessageBytes: number;
	/** Bytes of an unfinished run that is not JSON decoded at end() (FramerOptions). */
	private readonly garbageHead: number;
	readonly maxDepth: number;

	private mode: Mode = IDLE;
	private depth = 0;
	private inString = false;
	private escaped = false;
	/** Bytes of the current message scanned so far (MESSAGE mode). */
	private count = 0;
	/** Bytes of the byte order mark matched so far (MAYBE_BOM mode). */
	private bomSeen = 0;
	/**
	 * The unfinished message or garbage run carried over from earlier chunks, in order: views of
	 * the chunks themselves, and full tails. `tail` is the tail being filled, after them.
	 */
	private pieces: Uint8Array[] = [];
	private tail: Uint8Array | undefined;
	private tailLen = 0;
	/** Bytes held (the pieces' and the tail's content). */
	private bufLen = 0;
	/** Bytes of memory the held pieces and the tail keep alive (see `retained`). */
	private pinned = 0;
	/** Set by scan(). */
	private stop: Stop = RAN_OUT;

	constructor(options: FramerOptions = {}) {
		const max = options.maxMessageBytes ?? DEFAULT_MAX_MESSAGE_BYTES;
		if (!Number.isSafeInteger(max) || max < 1) {
			throw new RangeError(`maxMessageBytes must be a positive integer, got ${max}`);
		}
		this.maxMessageBytes = max;
		this.garbageHead = Math.max(0, options.unfinishedGarbageHead ?? 0);
		const depth = options.maxDepth ?? DEFAULT_MAX_DEPTH;
		if (!Number.isSafeInteger(depth) || depth < 1) {
			throw new RangeError(`maxDepth must be a positive integer, got ${depth}`);
		}
		this.maxDepth = depth;
	}

	/** Bytes held for an unfinished message (or garbage run); never more than maxMessageBytes. */
	get buffered(): number {
		return this.bufLen;
	}

	/**
	 * Bytes of memory kept alive for them: the whole chunks that held pieces are views of, and the
	 * tails' capacity. At most twice `buffered` plus one tail of at most TAIL_MAX_BYTES (a piece is
	 * held as a view only when it is at least half of its chunk, a tail sealed less than half full
	 * is copied to its size), and about `buffered` for a message sent in large reads.
	 */
	get retained(): number {
		return this.pinned;
	}

	/**
	 * Feeds the next bytes of the stream; returns the frames they complete, in order. The framer
	 * may keep a view of the chunk until its message is done: the caller must not change it after
	 * (a socket's chunks are never reused).
	 */
	push(chunk: Uint8Array): Frame[] {
		// Made with the first frame (most reads complete one message): a read that completes
		// none returns the shared empty list, and one that completes one, a list of one.
		let frames: Frame[] | undefined;
		const n = chunk.length;
		const max = this.maxMessageBytes;
		/** Where the current message or garbage run starts in this chunk (0 if carried over). */
		let start = 0;
		let i = 0;
		while (i < n) {
			switch (this.mode) {
				case IDLE: {
					const b = chunk[i];
					if (b === LBRACE || b === LBRACKET) {
						this.mode = MESSAGE;
						this.depth = 1;
						this.inString = false;
						this.escaped = false;
						this.count = 1;
						start = i;
					} else if (b === NL) {
						frames = withFrame(frames, { kind: 'eol' });
					} else if (b === BOM[0]) {
						this.mode = MAYBE_BOM;
						this.bomSeen = 1;
						start = i;
					} else if (b !== SPACE && b !== TAB && b !== CR) {
						this.mode = GARBAGE;
						start = i;
					}
					i++;
					break;
				}
				case MAYBE_BOM: {
					if (chunk[i] !== BOM[this.bomSeen]) {
						// Not a byte order mark after all: its bytes start a garbage run.
						this.mode = GARBAGE;
						break;
					}
					i++;
					if (++this.bomSeen === BOM.length) {
						this.release();
						this.mode = IDLE;
					}
					break;
				}
				case GARBAGE: {
					let j = i;
					while (j < n) {
						const b = chunk[j];
						if (b === NL || b === LBRACE || b === LBRACKET) break;
						j++;
					}
					i = j;
					if (j < n) {
						// The terminator is handled in IDLE on the next turn.
						frames = withFrame(frames, { kind: 'garbage', text: this.take(chunk, start, j) });
						this.mode = IDLE;
					}
					break;
				}
				case MESSAGE: {
					const room = max - this.count;
					if (room === 0) {
						// One more byte and the message is over the limit.
						frames = withFrame(frames, { kind: 'oversize', bytes: max + 1 });
						this.release();
						this.mode = DISCARD;
						break;
					}
					const to = n - i < room ? n : i + room;
					const j = this.scan(chunk, i, to, this.maxDepth);
					if (this.stop === CLOSED) {
						frames = withFrame(frames, { kind: 'message', text: this.take(chunk, start, j + 1) });
						this.mode = IDLE;
						i = j + 1;
					} else if (this.stop === TOO_DEEP) {
						// The byte that opened one level too many is consumed; its depth is counted.
						frames = withFrame(frames, { kind: 'too-deep', depth: this.maxDepth + 1 });
						this.release();
						this.mode = DISCARD;
						i = j + 1;
					} else if (this.stop === NEWLINE_IN_STRING) {
						// Illegal JSON: give up on this message and resync; the newline is an eol.
						frames = withFrame(frames, { kind: 'garbage', text: this.take(chunk, start, j) });
						this.mode = IDLE;
						i = j;
					} else {
						this.count += to - i;
						i = to;
					}
					break;
				}
				case DISCARD: {
					const j = this.scan(chunk, i, n, Infinity);
					if (this.stop === CLOSED) {
						this.mode = IDLE;
						i = j + 1;
					} else if (this.stop === NEWLINE_IN_STRING) {
						// Already reported as oversize; just resync.
						this.mode = IDLE;
						i = j;
					} else {
						i = n;
					}
					break;
				}
			}
		}
		if (this.mode === MESSAGE || this.mode === GARBAGE || this.mode === MAYBE_BOM) {
			this.append(chunk, start, n);
		}
		return frames ?? NO_FRAMES;
	}

	/**
	 * The peer half-closed: flushes what is pending. An unfinished message or garbage run (or the
	 * start of a byte order mark that never finished) becomes an `unfinished` frame, not decoded;
	 * the rest of an oversize message (already reported) gives nothing. The framer is then back
	 * at its initial state.
	 */
	end(): Frame[] {
		const frames: Frame[] = [];
		if (this.mode === GARBAGE && this.garbageHead > 0) {
			frames.push({ kind: 'unfinished', bytes: this.bufLen, head: this.headOfHeld() });
		} else if (this.mode === MESSAGE || this.mode === GARBAGE || this.mode === MAYBE_BOM) {
			frames.push({ kind: 'unfinished', bytes: this.bufLen });
		}
		this.mode = IDLE;
		this.depth = 0;
		this.inString = false;
		this.escaped = false;
		this.count = 0;
		this.release();
		return frames;
	}

	/**
	 * Scans chunk[from, to) inside an object, updating depth and string state. Returns the index of
	 * the byte that closed the object (stop = CLOSED), of a raw newline inside a string
	 * (stop = NEWLINE_IN_STRING, the newline not consumed), of the byte that opened level
	 * `maxDepth + 1` (stop = TOO_DEEP, the depth counting it), or `to` (stop = RAN_OUT).
	 */
	private scan(chunk: Uint8Array, from: number, to: number, maxDepth: number): number {
		let depth = this.depth;
		let inString = this.inString;
		let escaped = this.escaped;
		let stop: Stop = RAN_OUT;
		let j = from;
		for (; j < to; j++) {
			const b = chunk[j];
			if (inString) {
				if (b === NL) {
					stop = NEWLINE_IN_STRING;
					inString = false;
					escaped = false;
					depth = 0;
					break;
				}
				if (escaped) escaped = false;
				else if (b === BACKSLASH) escaped = true;
				else if (b === QUOTE) inString = false;
			} else if (b === QUOTE) {
				inString = true;
			} else if (b === LBRACE || b === LBRACKET) {
				if (++depth > maxDepth) {
					stop = TOO_DEEP;
					break;
				}
			} else if (b === RBRACE || b === RBRACKET) {
				if (--depth === 0) {
					stop = CLOSED;
					break;
				}
			}
		}
		this.depth = depth;
		this.inString = inString;
		this.escaped = escaped;
		this.stop = stop;
		return j;
	}

	/** Decodes the held bytes plus chunk[from, to) (capped at maxMessageBytes) and clears them. */
	private take(chunk: Uint8Array, from: number, to: number): string {
		let text: string;
		if (this.bufLen === 0) {
			const end = Math.min(to, from + this.maxMessageBytes);
			// A socket's chunk is a Buffer: its own slice decodes without a view object per
			// message (the same text as the TextDecoder's, U+FFFD for each bad sequence alike,
			// the byte order mark kept: framer.spec.ts compares the two).
			text =
				chunk instanceof Buffer
					? chunk.toString('utf8', from, end)
					: decoder.decode(chunk.subarray(from, end));
		} else {
			this.append(chunk, from, to);
			text = this.decodeHeld();
		}
		this.release();
		return text;
	}

	/** Holds chunk[from, to), as much as fits under maxMessageBytes. */
	private append(chunk: Uint8Array, from: number, to: number): void {
		const len = Math.min(to - from, this.maxMessageBytes - this.bufLen);
		if (len <= 0) return;
		this.bufLen += len;
		const whole = chunk.buffer.byteLength;
		if (len >= REFERENCE_MIN_BYTES && len * 2 >= whole) {
			this.seal();
			this.pieces.push(chunk.subarray(from, from + len));
			this.pinned += whole;
			return;
		}
		let at = from;
		const end = from + len;
		while (at < end) {
			if (this.tail === undefined || this.tailLen === this.tail.length) {
				const size = Math.min(
					TAIL_MAX_BYTES,
					Math.max(TAIL_MIN_BYTES, end - at, (this.tail?.length ?? 0) * 2)
				);
				this.seal();
				this.tail = new Uint8Array(size);
				this.pinned += size;
			}
			const n = Math.min(end - at, this.tail.length - this.tailLen);
			this.tail.set(chunk.subarray(at, at + n), this.tailLen);
			this.tailLen += n;
			at += n;
		}
	}

	/**
	 * Moves the tail to the pieces. A tail less than half full is copied to its exact size first,
	 * so tails cut short by large pieces between them do not keep their empty space.
	 */
	private seal(): void {
		const tail = this.tail;
		if (tail === undefined) return;
		if (this.tailLen * 2 < tail.length) {
			this.pieces.push(tail.slice(0, this.tailLen));
			this.pinned -= tail.length - this.tailLen;
		} else {
			this.pieces.push(tail.subarray(0, this.tailLen));
		}
		this.tail = undefined;
		this.tailLen = 0;
	}

	/** The held bytes as text (a character may span two pieces). */
	/** The first `garbageHead` held bytes, decoded (a character cut at the end shows as �). */
	private headOfHeld(): string {
		this.seal();
		const stream = new TextDecoder('utf-8', { ignoreBOM: true });
		let text = '';
		let left = this.garbageHead;
		for (const piece of this.pieces) {
			if (left <= 0) break;
			const part = piece.length > left ? piece.subarray(0, left) : piece;
			left -= part.length;
			text += stream.decode(part, { stream: true });
		}
		return text + stream.decode();
	}

	private decodeHeld(): string {
		this.seal();
		const pieces = this.pieces;
		if (pieces.length === 0) return '';
		if (pieces.length === 1) return decoder.decode(pieces[0]);
		const stream = new TextDecoder('utf-8', { ignoreBOM: true });
		let text = '';
		for (const piece of pieces) text += stream.decode(piece, { stream: true });
		return text + stream.decode();
	}

	private release(): void {
		if (this.pieces.length > 0) this.pieces = [];
		this.tail = undefined;
		this.tailLen = 0;
		this.bufLen = 0;
		this.pinned = 0;
	}
}
