/**
 * The discovery datagram (field notes, "Discovery"): a screen announces itself on UDP 28000 with
 * 102 bytes: `FreshKDS` padded to 12, its version (8), its IPv4 address as raw bytes padded to
 * 10, an identifier (20) and its name (52). Every field is NUL-padded and cut to its width; a
 * UTF-8 text is cut on a character boundary, never inside one. The datagram names no port: a POS
 * that hears it sends orders to that address on TCP 9104. Pure: no Node module, no socket.
 */

export const DISCOVERY_PORT = 28000;
/** The TCP port a POS sends to at an address it discovered. */
export const DISCOVERED_TCP_PORT = 9104;
export const DISCOVERY_MAGIC = 'FreshKDS';
export const DATAGRAM_BYTES = 102;

/** The fields in order, with their widths in bytes (12 + 8 + 10 + 20 + 52 = 102). */
export const DATAGRAM_LAYOUT = [
	{ field: 'magic', width: 12 },
	{ field: 'version', width: 8 },
	{ field: 'address', width: 10 },
	{ field: 'identifier', width: 20 },
	{ field: 'name', width: 52 }
] as const;

export interface Announcement {
	version: string;
	/** Dotted IPv4, e.g. `192.168.1.50`. */
	address: string;
	identifier: string;
	name: string;
}

export type DecodeResult = { ok: true; value: Announcement } | { ok: false; error: string };

const offsets = (() => {
	const at: Record<string, { start: number; end: number }> = {};
	let start = 0;
	for (const { field, width } of DATAGRAM_LAYOUT) {
		at[field] = { start, end: start + width };
		start += width;
	}
	return at as Record<(typeof DATAGRAM_LAYOUT)[number]['field'], { start: number; end: number }>;
})();

const IPV4 = /^(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)(\.(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)){3}$/;

export function isIpv4(text: string): boolean {
	return IPV4.test(text);
}

/** The UTF-8 bytes of `text`, at most `width` of them, cut before a character that would not fit. */
export function utf8Cut(text: string, width: number): Uint8Array {
	const bytes = new TextEncoder().encode(text);
	if (bytes.length <= width) return bytes;
	let end = width;
	// A continuation byte (10xxxxxx) cannot start a character: step back to the one that does.
	while (end > 0 && (bytes[end] & 0xc0) === 0x80) end -= 1;
	return bytes.subarray(0, end);
}

/** The 102-byte datagram of one screen. Throws on an address that is not dotted IPv4. */
export function encodeAnnouncement(a: Announcement): Uint8Array {
	if (!isIpv4(a.address)) {
		throw new TypeError(
			`address: expected a dotted IPv4 address, got ${JSON.stringify(a.address)}`
		);
	}
	const out = new Uint8Array(DATAGRAM_BYTES);
	out.set(utf8Cut(DISCOVERY_MAGIC, 12), offsets.magic.start);
	out.set(utf8Cut(a.version, 8), offsets.version.start);
	out.set(
		a.address.split('.').map((n) => Number(n)),
		offsets.address.start
	);
	out.set(utf8Cut(a.identifier, 20), offsets.identifier.start);
	out.set(utf8Cut(a.name, 52), offsets.name.start);
	return out;
}

/** A NUL-padded text field: up to its first NUL, decoded as UTF-8 (a bad byte becomes U+FFFD). */
function text(bytes: Uint8Array, field: keyof typeof offsets): string {
	const { start, end } = offsets[field];
	const slice = bytes.subarray(start, end);
	const nul = slice.indexOf(0);
	return new TextDecoder().decode(nul === -1 ? slice : slice.subarray(0, nul));
}

/** Read a datagram heard on the discovery port; anything else is refused with the reason. */
export function decodeAnnouncement(bytes: Uint8Array): DecodeResult {
	if (bytes.length !== DATAGRAM_BYTES) {
		return {
			ok: false,
			error: `expected ${DATAGRAM_BYTES} bytes, got ${bytes.length}`
		};
	}
	if (text(bytes, 'magic') !== DISCOVERY_MAGIC) {
		return { ok: false, error: `expected the datagram to start with ${DISCOVERY_MAGIC}` };
	}
	const a = offsets.address.start;
	return {
		ok: true,
		value: {
			version: text(bytes, 'version'),
			address: `${bytes[a]}.${bytes[a + 1]}.${bytes[a + 2]}.${bytes[a + 3]}`,
			identifier: text(bytes, 'identifier'),
			name: text(bytes, 'name')
		}
	};
}
